package fromage

import (
	"slices"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
)

// positions gives the board seat positions used by each player count
// (FR-3.5): 2 players sit opposite, 3 players leave s3 empty.
var positions = map[int][]int{1: {0}, 2: {0, 2}, 3: {0, 1, 2}, 4: {0, 1, 2, 3}}

// setup performs FR-3.3..FR-3.11 and returns the setup events.
func (s *State) setup() []engine.Event {
	n := len(s.H.Seats)
	rnd := &s.H.Rand
	s.Turn, s.Rot = 1, 0
	s.Pos = append([]int(nil), positions[n]...)

	// FR-3.3: venues around the circle, random unless fixed.
	if o := s.H.Options["venues"]; o != "random" {
		for q := 0; q < 4; q++ {
			s.VenueAt[q] = strings.IndexByte("CFDB", o[q])
		}
	} else {
		s.VenueAt = [4]int{0, 1, 2, 3}
		rnd.Shuffle(4, func(i, j int) { s.VenueAt[i], s.VenueAt[j] = s.VenueAt[j], s.VenueAt[i] })
	}
	// FR-3.4: Resource tile in a random orientation: resourceAt[q] = ORDER[(q+k) mod 4].
	at0 := slices.Index(catalog.ResNames, s.H.Options["tile"])
	if at0 < 0 {
		at0 = rnd.Choose("orientation", catalog.ResNames)
	}
	k := 0
	for i, r := range s.r.ResOrder {
		if r == at0 {
			k = i
		}
	}
	for q := 0; q < 4; q++ {
		s.ResAt[q] = s.r.ResOrder[(q+k)%4]
	}

	// FR-3.8: random player boards; in solo the board whose back is the
	// Corporation board in play is not available (D-16).
	var boards []int
	for b := range s.r.Boards {
		if n == 1 && s.r.Boards[b].ID == s.r.CorpLevels[s.lay.level-1].BackOf {
			continue
		}
		boards = append(boards, b)
	}
	if s.H.Options["boards"] != "fixed" {
		rnd.Shuffle(len(boards), func(i, j int) { boards[i], boards[j] = boards[j], boards[i] })
	}

	// FR-3.6: one Customer token on each City region.
	s.Customer = make([]int, len(s.r.Regions))
	for i := range s.Customer {
		s.Customer[i] = i
	}
	rnd.Shuffle(len(s.Customer), func(i, j int) { s.Customer[i], s.Customer[j] = s.Customer[j], s.Customer[i] })

	// FR-3.7: the Order deck.
	s.Deck = make([]int, len(s.r.Cards))
	for i := range s.Deck {
		s.Deck[i] = i
	}
	rnd.Shuffle(len(s.Deck), func(i, j int) { s.Deck[i], s.Deck[j] = s.Deck[j], s.Deck[i] })

	for v := range s.Board {
		s.Board[v] = make([]int, len(s.side(v).Spaces))
		for i := range s.Board[v] {
			s.Board[v][i] = empty
		}
	}
	s.Players = make([]Player, n)
	s.Log = make([][]string, n)
	boardIDs := make([]int, n)
	for seat := range s.Players {
		p := &s.Players[seat]
		p.Board = boards[seat]
		p.Cheese = s.r.Cheese
		p.Tile = [5]int{-1, -1, -1, -1, -1}
		p.Zones = make([]int, len(s.r.Boards[p.Board].Zones))
		boardIDs[seat] = s.r.Boards[p.Board].ID
	}
	sides := make([]string, 4)
	for v := range sides {
		sides[v] = s.side(v).Name
	}
	venues, res := make([]string, 4), make([]string, 4)
	for q := 0; q < 4; q++ {
		venues[q], res[q] = catalog.VenueNames[s.VenueAt[q]], catalog.ResNames[s.ResAt[q]]
	}
	custs := make([]string, len(s.Customer))
	for i, c := range s.Customer {
		custs[i] = s.r.Customers[c].ID
	}
	evs := []engine.Event{engine.NewEvent("fr.setup", -1, engine.Public, "venues", venues, "resources", res,
		"positions", slices.Clone(s.Pos), "boards", boardIDs, "customers", custs, "regions", s.r.Regions,
		"group", s.lay.group, "sides", sides, "mode", s.H.Variant)}

	// FR-3.9: starting resources, 2 of the left quadrant and 1 of the
	// opposite one, with no ability triggered.
	for seat := range s.Players {
		left, opp := s.ResAt[mod4(s.Pos[seat]+1)], s.ResAt[mod4(s.Pos[seat]+2)]
		evs = append(evs, s.addRes(seat, left, s.r.StartLeft, "start")...)
		evs = append(evs, s.addRes(seat, opp, s.r.StartOpp, "start")...)
	}

	// FR-3.11 / FR-5.12.1: the Corporation.
	if n == 1 {
		s.Corp = &Corp{Level: s.lay.level, Left: len(s.r.CorpLevels[s.lay.level-1].Track), Card: -1}
		evs = append(evs, engine.NewEvent("fr.corp_setup", -1, engine.Public, "level", s.lay.level, "tokens", s.Corp.Left,
			"rules", s.corpRules()))
	}

	// FR-3.10 / FR-5.11: advanced mode starts with the tile draft.
	if s.H.Variant == "advanced" {
		s.Phase = phaseDraft
		s.Draft = &Draft{Round: 1}
		s.Draft.Deck = make([]int, len(s.r.Tiles))
		for i := range s.Draft.Deck {
			s.Draft.Deck[i] = i
		}
		rnd.Shuffle(len(s.Draft.Deck), func(i, j int) { s.Draft.Deck[i], s.Draft.Deck[j] = s.Draft.Deck[j], s.Draft.Deck[i] })
		for seat := range s.Players {
			evs = append(evs, s.deal(seat, s.r.DraftHand)...)
		}
		return append(evs, s.autoPicks()...)
	}
	s.Phase = phaseTurn
	return append(evs, s.beginTurn()...)
}

func (s *State) corpRules() []string {
	var out []string
	for _, r := range catalog.CorpRuleNames {
		if s.r.CorpLevels[s.lay.level-1].Rules[r] {
			out = append(out, r)
		}
	}
	return out
}

// beginTurn runs steps T1 (retrieve workers) and T2 (Corporation) of the
// turn s.Turn (§4).
func (s *State) beginTurn() []engine.Event {
	s.Rot = (s.Turn - 1) % 4
	s.Log = make([][]string, len(s.Players))
	facing := make([]map[string]any, len(s.Players))
	for seat := range s.Players {
		p := &s.Players[seat]
		p.Done, p.Moved, p.Gathered, p.Produced, p.Extra = false, false, false, false, false
		p.Drew = nil
		f := s.facing(seat)
		facing[seat] = map[string]any{"venue": catalog.VenueNames[s.VenueAt[f]], "resource": catalog.ResNames[s.ResAt[f]]}
	}
	evs := []engine.Event{engine.NewEvent("fr.turn", -1, engine.Public, "turn", s.Turn, "rot", s.Rot, "facing", facing, "end", s.End)}
	// T1 (FR-5.1.2): every worker with returnTurn == turn comes back.
	for seat := range s.Players {
		p := &s.Players[seat]
		var back []string
		for w := range p.Workers {
			if p.Workers[w].At != atHome && p.Workers[w].Ret == s.Turn {
				p.Workers[w] = Worker{}
				back = append(back, catalog.TypeNames[w])
			}
		}
		if len(back) > 0 {
			evs = append(evs, engine.NewEvent("fr.retrieve", seat, engine.Public, "workers", back))
		}
	}
	// T2 (FR-5.12.2).
	if s.Corp != nil {
		evs = append(evs, s.corpStart()...)
	}
	s.Step = 1
	s.takeSnapshot()
	return evs
}

// takeSnapshot records the public position at the start of T3, which the
// other seats see until the turn ends (FR-6.4).
func (s *State) takeSnapshot() {
	sn := &Snapshot{Deck: len(s.Deck), Discard: len(s.Discard), Players: make([]Player, len(s.Players))}
	for i := range s.Players {
		c := s.Players[i].clone()
		c.Queue, c.Pol, c.Hand, c.Kept = nil, Policy{}, nil, nil
		sn.Players[i] = c
	}
	for v := range s.Board {
		sn.Board[v] = slices.Clone(s.Board[v])
	}
	s.Snap = sn
}

// endTurn is step T4: the game ends if it was triggered this turn (FR-7.1,
// A-15), otherwise the board rotates and the next turn begins.
func (s *State) endTurn() []engine.Event {
	s.Last = s.Log
	s.Snap = nil
	report := make([]map[string]any, len(s.Players))
	for i := range s.Players {
		report[i] = map[string]any{"seat": i, "name": s.H.Seats[i], "cmds": append([]string{}, s.Log[i]...), "drew": s.cardIDs(s.Players[i].Drew)}
	}
	evs := []engine.Event{engine.NewEvent("fr.report", -1, engine.Public, "turn", s.Turn, "seats", report, "end", s.End)}
	if s.End {
		s.Phase = phaseOver
		res := s.Result()
		totals := make([]int, len(res.Scores))
		for i, sc := range res.Scores {
			totals[i] = sc.Total
		}
		ev := engine.NewEvent(engine.EvGameOver, -1, engine.Public, "rank", res.Rank, "totals", totals)
		for k, v := range res.Params {
			ev.Params[k] = v
		}
		return append(evs, ev)
	}
	s.Turn++
	return append(evs, s.beginTurn()...)
}
