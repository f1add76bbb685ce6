package fromage

import (
	"math/rand/v2"
	"slices"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
	"github.com/pbem-referee/referee/engine/fromage/notation"
)

// Greedy is the sensible bot: it values each legal option with a static
// heuristic (the score the option adds if the game ended now, plus the
// worth of resources, structures and workers for the rest of the game) and
// plays the best one; DONE is worth 0, so it stops when nothing helps.
// It never looks at hidden information (the deck order).
type Greedy struct{}

// Choose implements engine.Bot.
func (Greedy) Choose(st engine.State, d engine.Decision, opts []engine.Option, rng *rand.Rand) int {
	s, ok := st.(*State)
	if !ok {
		return 0
	}
	best, bestV := 0, -1e18
	for i, o := range opts {
		m, err := s.Parse(d.Seat, o.Cmd)
		if err != nil {
			continue
		}
		v := s.value(d.Seat, m.(notation.Move)) + rng.Float64()*0.01
		if v > bestV {
			best, bestV = i, v
		}
	}
	return best
}

// endKnown reports whether the seat knows that this turn is the last: it
// placed its own last token, or the Corporation did in step T2. Another
// seat's trigger stays sealed until the turn report, so the bot ignores it.
func (s *State) endKnown(seat int) bool {
	return s.End && (slices.Contains(s.EndBy, seat) || slices.Contains(s.EndBy, corpOwner))
}

// resValue is the worth of one more resource of a type for the seat.
func (s *State) resValue(seat, res int) float64 {
	p := &s.Players[seat]
	if s.endKnown(seat) {
		return 0.5 // only the unused-resource points remain (FR-7.9)
	}
	switch res {
	case catalog.ResStructure:
		for c := 1; c <= 4; c++ {
			if !p.Built[c] {
				return 1.2
			}
		}
		return 0.5
	case catalog.ResCattle:
		for z := range p.Zones {
			if p.Zones[z] == 0 {
				return 1.1
			}
		}
		return 0.5
	case catalog.ResFruit:
		if p.Basket >= 4 {
			return 0.6
		}
		return 1.3
	}
	if len(p.Pending) >= 5 {
		return 0.6
	}
	return 1.4
}

// placeValue is the worth of putting one of the seat's tokens on a space:
// the score it adds now, a share of what it may add later, and the
// triggers it fires.
func (s *State) placeValue(seat, v, i int, keep bool) float64 {
	p := &s.Players[seat]
	sp := s.space(v, i)
	before := s.venueScore(seat, v)
	s.Board[v][i] = seat
	after := s.venueScore(seat, v)
	s.Board[v][i] = empty
	val := float64(after - before)
	if !s.endKnown(seat) {
		val += 2 + 0.6*float64(sp.Aging)
	}
	if sp.Icon != catalog.IconNone {
		fc, jam := p.FruitCheese, p.Jam
		if sp.Icon == catalog.IconFruit {
			fc++
		} else {
			jam++
		}
		val += float64(fc*jam-p.FruitCheese*p.Jam) - s.resValue(seat, catalog.ResFruit)
	}
	if !keep && s.matchingOrder(p, sp) >= 0 {
		n := len(p.Completed)
		val += float64(legend(s.r.OrdersPP, s.r.OrdersBeyond, n+1)-legend(s.r.OrdersPP, s.r.OrdersBeyond, n)) + 0.5
	}
	if v == catalog.VenDairy {
		switch s.side(v).Shelves[sp.Shelf].Sign {
		case catalog.SignAny:
			val += 1.3
		case catalog.SignTwo:
			val += 2.6
		case catalog.SignTrade:
			val += 0.3
		}
	}
	if a := s.active(p, 2); a != nil && ((a.Effect == "dock" && a.Venue == v) || (a.Effect == "dock_type" && a.Type == sp.Type)) {
		val += s.resValue(seat, a.Res)
	}
	return val
}

// venueScore is the seat's score in one venue as if the game ended now.
func (s *State) venueScore(seat, v int) int {
	switch v {
	case catalog.VenFestival:
		return s.festivalScore(seat)
	case catalog.VenCity:
		pts, _ := s.cityScore(seat, s.cityRegions())
		return pts
	case catalog.VenDairy:
		return s.dairyScore(seat)
	}
	return s.bistroScore(seat)
}

// bestMake is the worth of the best Produce Cheese still open with a
// worker type (the opportunity cost of using that worker elsewhere).
func (s *State) bestMake(seat, w int) float64 {
	p := &s.Players[seat]
	if p.Produced || p.Cheese < 1 {
		return 0
	}
	v := s.venue(seat)
	best := 0.0
	for i := range s.side(v).Spaces {
		sp := s.space(v, i)
		if sp.Type == w && s.spaceFree(v, i) && (sp.Icon == catalog.IconNone || p.Basket > 0) {
			if x := s.placeValue(seat, v, i, false) - s.delayCost(seat, sp.Aging); x > best {
				best = x
			}
		}
	}
	return best
}

func (s *State) delayCost(seat, aging int) float64 {
	if s.endKnown(seat) {
		return 0
	}
	return 0.7 * float64(s.delay(&s.Players[seat], aging)-1)
}

// value scores one option for the greedy bot.
func (s *State) value(seat int, m notation.Move) float64 {
	p := &s.Players[seat]
	switch m.Verb {
	case "DONE", "READY":
		return 0
	case "GATHER":
		res := s.resource(seat)
		v := float64(m.N) * s.resValue(seat, res)
		if !s.endKnown(seat) {
			v -= 0.8 * float64(m.N-1)
		}
		return v - s.bestMake(seat, m.W)
	case "MAKE":
		sp := s.space(m.V, m.S)
		return s.placeValue(seat, m.V, m.S, m.Keep) - s.delayCost(seat, sp.Aging) + 1
	case "MILK":
		return s.placeValue(seat, m.V, m.S, m.Keep) - 0.3*float64(s.zoneCost(p, m.N-1))
	case "BUILD":
		if s.endKnown(seat) {
			a := s.ability(p, m.N)
			if a.Effect == "hq" && a.Res == catalog.ResStructure {
				return float64(a.Cost) - 0.5*float64(a.Cost)
			}
			return -1
		}
		return []float64{0, 4, 3.5, 3, 5}[m.N] - 0.3*float64(s.ability(p, m.N).Cost)
	case "BARN":
		a := s.active(p, 1)
		v := 1.0
		switch a.Effect {
		case "gain":
			v = s.resValue(seat, a.Res)
		case "market":
			v = s.resValue(seat, s.resource(seat))
		case "press":
			v = s.placeValue(seat, m.V, m.S, m.Keep)
		}
		return v - 0.5*s.bestMake(seat, m.W)
	case "TAKE":
		v := 0.0
		for _, r := range m.Res {
			v += s.resValue(seat, r)
		}
		return v
	case "TRADE":
		give := catalog.ResOrder
		if !m.AnyOrder && m.Card < 0 {
			give = m.Res[0]
		}
		return s.resValue(seat, m.Res[1]) - s.resValue(seat, give)
	case "NOTRADE", "KEEP":
		return 0
	case "COMPLETE":
		return 1
	case "CHOOSE":
		return -float64(m.N)
	case "CORP":
		// Deny the Corporation the space least useful to us.
		return -s.placeValue(seat, m.V, m.S, true)
	case "PICK":
		a := &s.r.Tiles[m.Tile]
		return -float64(a.Cost) + map[int]float64{1: 1, 2: 1.5, 3: 1, 4: 2}[a.Column]
	case "PLACE":
		a := &s.r.Tiles[m.Tile]
		return float64(s.r.Boards[p.Board].Abilities[a.Column].Cost-a.Cost) + 0.5
	}
	return 0
}
