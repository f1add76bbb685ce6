package fromage

import (
	"slices"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
	"github.com/pbem-referee/referee/engine/fromage/notation"
)

// deal draws k structure tiles into a seat's hand (FR-5.11.1, FR-5.11.4).
// Each draw is scriptable ("!tile ST08").
func (s *State) deal(seat, k int) []engine.Event {
	d := s.Draft
	p := &s.Players[seat]
	for i := 0; i < k && len(d.Deck) > 0; i++ {
		labels := make([]string, len(d.Deck))
		for j, t := range d.Deck {
			labels[j] = s.r.TileIDs[t]
		}
		j := s.H.Rand.Take("tile", labels, 0)
		p.Hand = append(p.Hand, d.Deck[j])
		d.Deck = append(d.Deck[:j:j], d.Deck[j+1:]...)
	}
	ev := engine.NewEvent("fr.hand", seat, engine.Only(seat), "round", d.Round, "tiles", s.tileIDList(p.Hand))
	ev.Redacted = map[string]any{"round": d.Round, "count": len(p.Hand)}
	return []engine.Event{ev}
}

func (s *State) applyPick(seat int, m notation.Move) ([]engine.Event, error) {
	p := &s.Players[seat]
	if !slices.Contains(p.Hand, m.Tile) {
		return nil, engine.Reject("FR-5.11.1", "tile_not_in_hand", "tile", m.Ids.Tile, "hand", s.tileIDList(p.Hand))
	}
	evs := s.pick(seat, m.Tile, false)
	if s.allPicked() {
		evs = append(evs, s.endRound()...)
	}
	return append(evs, s.autoPicks()...), nil
}

// pick keeps a tile of the hand; the pick stays hidden from the others
// (FR-6.3).
func (s *State) pick(seat, t int, auto bool) []engine.Event {
	p := &s.Players[seat]
	p.Hand = removeInt(p.Hand, t)
	p.Kept = append(p.Kept, t)
	p.Picked = true
	ev := engine.NewEvent("fr.pick", seat, engine.Only(seat), "round", s.Draft.Round, "tile", s.r.TileIDs[t], "auto", auto)
	ev.Redacted = map[string]any{"round": s.Draft.Round}
	return []engine.Event{ev}
}

func (s *State) allPicked() bool {
	for i := range s.Players {
		if !s.Players[i].Picked {
			return false
		}
	}
	return true
}

// autoPicks applies the PICKS preference lists (P-8): a seat whose list
// names a tile of its hand picks the first such tile at once.
func (s *State) autoPicks() []engine.Event {
	var evs []engine.Event
	for changed := true; changed && s.Phase == phaseDraft; {
		changed = false
		for seat := range s.Players {
			p := &s.Players[seat]
			if p.Picked {
				continue
			}
			for _, t := range p.Pol.Picks {
				if slices.Contains(p.Hand, t) {
					evs = append(evs, s.pick(seat, t, true)...)
					changed = true
					break
				}
			}
		}
		if s.allPicked() {
			evs = append(evs, s.endRound()...)
			changed = true
		}
	}
	return evs
}

// endRound passes the hands to the left (the next seat clockwise), or in
// solo discards the rest and draws the next, smaller hand (FR-5.11.4).
func (s *State) endRound() []engine.Event {
	d := s.Draft
	n := len(s.Players)
	var evs []engine.Event
	last := d.Round >= s.r.DraftHand
	if n == 1 {
		p := &s.Players[0]
		d.Box = append(d.Box, p.Hand...)
		p.Hand = nil
		if !last {
			d.Round++
			p.Picked = false
			evs = append(evs, s.deal(0, s.r.DraftHand-d.Round+1)...)
		}
	} else if !last {
		hands := make([][]int, n)
		for i := range s.Players {
			hands[(i+1)%n] = s.Players[i].Hand
		}
		d.Round++
		for i := range s.Players {
			s.Players[i].Hand, s.Players[i].Picked = hands[i], false
			ev := engine.NewEvent("fr.hand", i, engine.Only(i), "round", d.Round, "tiles", s.tileIDList(hands[i]))
			ev.Redacted = map[string]any{"round": d.Round, "count": len(hands[i])}
			evs = append(evs, ev)
		}
	}
	if last {
		for i := range s.Players {
			p := &s.Players[i]
			d.Box = append(d.Box, p.Hand...)
			p.Hand, p.Picked = nil, false
		}
		s.Phase, s.Step = phaseTiles, 1
		evs = append(evs, engine.NewEvent("fr.draft_done", -1, engine.Public, "rounds", d.Round))
	}
	return evs
}

// applyTiles handles PLACE and READY (FR-5.11.2, A-23): a kept tile covers
// the printed ability of its own column, one tile per column.
func (s *State) applyTiles(seat int, m notation.Move) ([]engine.Event, error) {
	p := &s.Players[seat]
	if m.Verb == "PLACE" {
		if !slices.Contains(p.Kept, m.Tile) {
			return nil, engine.Reject("FR-5.11.2", "tile_not_kept", "tile", m.Ids.Tile)
		}
		a := &s.r.Tiles[m.Tile]
		if p.Tile[a.Column] >= 0 {
			return nil, engine.Reject("A-23", "column_covered", "tile", m.Ids.Tile, "column", catalog.ColNames[a.Column],
				"by", s.r.TileIDs[p.Tile[a.Column]])
		}
		p.Kept = removeInt(p.Kept, m.Tile)
		p.Tile[a.Column] = m.Tile
		ev := engine.NewEvent("fr.place_tile", seat, engine.Only(seat), "tile", m.Ids.Tile, "column", catalog.ColNames[a.Column], "name", a.Name)
		ev.Redacted = map[string]any{}
		s.stepDone(seat)
		return []engine.Event{ev}, nil
	}
	p.Ready = true
	s.Draft.Box = append(s.Draft.Box, p.Kept...)
	p.Kept = nil
	evs := []engine.Event{engine.NewEvent("fr.ready", seat, engine.Public)}
	for i := range s.Players {
		if !s.Players[i].Ready {
			s.stepDone(seat)
			return evs, nil
		}
	}
	// Every seat is ready: the placements are revealed together.
	tiles := make([][]string, len(s.Players))
	for i := range s.Players {
		for c := 1; c <= 4; c++ {
			if t := s.Players[i].Tile[c]; t >= 0 {
				tiles[i] = append(tiles[i], s.r.TileIDs[t])
			}
		}
	}
	evs = append(evs, engine.NewEvent("fr.tiles", -1, engine.Public, "tiles", tiles))
	s.Phase = phaseTurn
	return append(evs, s.beginTurn()...), nil
}
