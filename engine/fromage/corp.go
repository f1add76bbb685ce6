package fromage

import (
	"slices"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
	"github.com/pbem-referee/referee/engine/fromage/notation"
)

// corpLevel returns the Corporation board in play.
func (s *State) corpLevel() *catalog.CorpLevel { return &s.r.CorpLevels[s.Corp.Level-1] }

// corpStart is step T2 of a solo turn (FR-5.12.2): the Corporation draws
// one Order card, two with rule R4 when the player faces a "double" venue.
func (s *State) corpStart() []engine.Event {
	c := s.Corp
	c.Acts, c.Card, c.Options = nil, -1, nil
	c.Draws = 1
	if s.corpLevel().Rules["R4"] && s.r.DoubleVenues[s.venue(0)] {
		c.Draws = 2
	}
	return s.corpContinue()
}

// corpContinue resolves the Corporation's remaining draws of the turn until
// one needs the player's choice.
func (s *State) corpContinue() []engine.Event {
	c := s.Corp
	var evs []engine.Event
	for c.Draws > 0 && c.Card < 0 {
		c.Draws--
		if c.Left == 0 {
			// Its last token is placed: the end is triggered, nothing more to draw.
			c.Draws = 0
			break
		}
		card, e := s.drawCard()
		evs = append(evs, e...)
		if card < 0 {
			// deck and discard pile both empty.
			evs = append(evs, engine.NewEvent("fr.corp_idle", -1, engine.Public, "turn", s.Turn))
			continue
		}
		opts, wide := s.corpSpaces(card)
		v := s.venue(0)
		evs = append(evs, engine.NewEvent("fr.corp_draw", -1, engine.Public, "card", s.cardLabel(card),
			"type", catalog.TypeNames[s.r.Cards[card].Type], "aging", catalog.AgingNames[s.r.Cards[card].Aging],
			"venue", catalog.VenueNames[v], "spaces", s.spaceIDs(v, opts), "wide", wide))
		switch {
		case len(opts) == 0:
			// No space qualifies: the card goes on the card space (3 PP at the end).
			c.Cards = append(c.Cards, card)
			c.Acts = append(c.Acts, CorpAct{Card: card})
			evs = append(evs, engine.NewEvent("fr.corp_card", -1, engine.Public, "card", s.cardLabel(card), "cards", len(c.Cards)))
		case len(opts) == 1 || s.Players[0].Pol.CorpLowest:
			evs = append(evs, s.corpPlace(card, opts[0], wide)...)
		default:
			// Several spaces qualify: the player chooses (P-7 SET CORP LOWEST avoids the question).
			c.Card, c.Options = card, opts
			c.Acts = append(c.Acts, CorpAct{Card: card, Wide: wide})
			return evs
		}
	}
	return evs
}

// corpSpaces returns the spaces of the player's current venue where the
// Corporation may place for a card: empty, not crossed, same type and aging;
// with R2, any type of the card's aging when none matches (D-16).
func (s *State) corpSpaces(card int) ([]int, bool) {
	v := s.venue(0)
	cd := &s.r.Cards[card]
	var out []int
	for i := range s.side(v).Spaces {
		sp := s.space(v, i)
		if s.spaceFree(v, i) && sp.Type == cd.Type && sp.Aging == cd.Aging {
			out = append(out, i)
		}
	}
	if len(out) > 0 || !s.corpLevel().Rules["R2"] {
		return out, false
	}
	for i := range s.side(v).Spaces {
		if s.spaceFree(v, i) && s.space(v, i).Aging == cd.Aging {
			out = append(out, i)
		}
	}
	return out, len(out) > 0
}

// corpPlace puts the Corporation's leftmost token on a space, no Fruit
// needed, and discards the card (FR-5.12.2, FR-5.5.1).
func (s *State) corpPlace(card, i int, wide bool) []engine.Event {
	c := s.Corp
	v := s.venue(0)
	s.Board[v][i] = corpOwner
	c.Left--
	s.Discard = append(s.Discard, card)
	sp := s.space(v, i)
	if n := len(c.Acts); n > 0 && c.Acts[n-1].Card == card && c.Acts[n-1].Space == "" && c.Card == card {
		c.Acts[n-1].Space = sp.ID
	} else {
		c.Acts = append(c.Acts, CorpAct{Card: card, Space: sp.ID, Wide: wide})
	}
	evs := []engine.Event{engine.NewEvent("fr.corp_place", -1, engine.Public, "card", s.cardLabel(card), "space", sp.ID,
		"venue", catalog.VenueNames[v], "left", c.Left, "track", s.corpTrack())}
	if c.Left == 0 && !slices.Contains(s.EndBy, corpOwner) {
		// FR-5.12.5: the Corporation's last token triggers the end.
		s.End = true
		s.EndBy = append(s.EndBy, corpOwner)
		evs = append(evs, engine.NewEvent("fr.end_trigger", -1, engine.Public, "turn", s.Turn, "corporation", true))
	}
	return evs
}

// corpResolve places the pending card on the chosen space and goes on.
func (s *State) corpResolve(i int) []engine.Event {
	c := s.Corp
	card := c.Card
	evs := s.corpPlace(card, i, len(c.Acts) > 0 && c.Acts[len(c.Acts)-1].Wide)
	c.Card, c.Options = -1, nil
	evs = append(evs, s.corpContinue()...)
	if s.Snap != nil {
		// Step T2 happens before the player acts: its outcome is public.
		s.takeSnapshot()
	}
	return evs
}

func (s *State) applyCorp(seat int, m notation.Move) ([]engine.Event, error) {
	c := s.Corp
	v := s.venue(0)
	if m.V != v || !slices.Contains(c.Options, m.S) {
		return nil, engine.Reject("FR-5.12.2", "corp_space", "space", m.Ids.Space, "spaces", s.spaceIDs(v, c.Options))
	}
	return s.corpResolve(m.S), nil
}

// corpTrack is the highest value uncovered on the Corporation's cheese
// track (FR-5.12.6): values uncover from the left as tokens leave.
func (s *State) corpTrack() int {
	tr := s.corpLevel().Track
	placed := len(tr) - s.Corp.Left
	if placed <= 0 {
		return 0
	}
	return tr[placed-1]
}
