package heavenale

import (
	"math/rand/v2"
	"strconv"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
	"github.com/pbem-referee/referee/engine/heavenale/notation"
)

// Greedy plays the option that maximises a heuristic estimate of its final
// score after the move (one-step look-ahead; a move to a space is valued by
// the best first action there).
type Greedy struct{}

// Choose implements engine.Bot.
func (Greedy) Choose(st engine.State, d engine.Decision, opts []engine.Option, rng *rand.Rand) int {
	s, ok := st.(*State)
	if !ok {
		return rng.IntN(len(opts))
	}
	best, bestV := 0, -1e18
	for i, o := range opts {
		v := s.botValue(d.Seat, o.Cmd, d.Kind == kindMove)
		v += rng.Float64() * 0.01
		if v > bestV {
			best, bestV = i, v
		}
	}
	return best
}

// botValue applies a command on a copy and estimates the seat's position.
func (s *State) botValue(seat int, cmd string, look bool) float64 {
	// A copy without the UNDO snapshot, and the internal apply (no new
	// snapshot): the bot only looks.
	c := &State{H: s.H.Clone(), Core: s.Core.clone(), r: s.r}
	m, err := c.Parse(seat, cmd)
	if err != nil {
		return -1e9
	}
	if _, err := c.apply(seat, m.(notation.Move)); err != nil {
		return -1e9
	}
	v := c.estimate(seat)
	if look && c.Cur == seat && c.Sub != subMove && c.Phase == phasePlay {
		// Value the best first action on the space reached.
		bestNext := -1e18
		opts := c.options(seat)
		seenSide := map[string]bool{}
		for _, o := range opts {
			if len(o) > 4 && o[:4] == "BUY " {
				// one option per tile and side is enough for the estimate
				f := engine.Fields(o)
				key := f[1] + strconv.Itoa(c.r.Cells[c.r.CellIdx[f[2]]].Side)
				if seenSide[key] {
					continue
				}
				seenSide[key] = true
			}
			if w := c.botValue(seat, o, false); w > bestNext {
				bestNext = w
			}
		}
		if bestNext > -1e17 {
			v = bestNext
		}
		// Jumping far wastes spaces.
		if p := s.Players[seat].Pos; m.(notation.Move).N < catalog.HomePos {
			v -= 0.4 * float64(m.(notation.Move).N-p)
		}
	}
	if look && m.(notation.Move).N == catalog.HomePos {
		v -= 1.5 * float64(s.roundLeft(seat))
	}
	return v
}

// roundLeft estimates how much of the round the seat still has: the
// reachable spaces ahead of it.
func (s *State) roundLeft(seat int) int {
	k := 0
	for n := s.Players[seat].Pos + 1; n < catalog.HomePos; n++ {
		if s.reachable(seat, n) {
			k++
		}
	}
	if k > 4 {
		k = 4
	}
	return k
}

// estimate is the bot's evaluation of a seat's position: the production
// score of a projection where every colour spot still free is scored once
// more (HA-5.7) and monks move the brewmaster, evened out with the closed
// form of HA-7.6, plus barrels, cards and (while rounds remain) money.
func (s *State) estimate(seat int) float64 {
	p := &s.Players[seat]
	left := float64(s.Rounds-s.Round) / float64(s.Rounds)
	var mk, proj [5]int
	copy(mk[:], p.Markers[:])
	ducats := p.Ducats
	brew := float64(p.Brew)
	for i, t := range p.Garden {
		side := s.r.Cells[i].Side
		if c := catalog.TileColour(t); c >= 0 {
			if p.Spots[catalog.SpotColor+c] {
				continue
			}
			// A future activation is not certain: count half of it, so
			// that scoring a spot (which makes it real) is worth doing.
			if side == catalog.SideSun {
				proj[c] += catalog.TileFert(t)
			} else {
				ducats += catalog.TileFert(t) / 2
			}
		} else if catalog.MonkType(t) > 0 {
			brew += 0.7
		}
	}
	for c := range mk {
		mk[c] += proj[c] / 2
		if mk[c] > s.r.Max {
			mk[c] = s.r.Max
		}
	}
	if brew > float64(s.r.Max) {
		brew = float64(s.r.Max)
	}
	b := s.r.Band(int(brew))
	low := closedForm(mk, b.Rate, ducats/s.r.C.DucatsPerStep, s.r.Max)
	val := 0.0
	if low > 0 {
		val = float64(b.VP * low)
	} else {
		val = float64(low) * 0.5
	}
	val += brew * 0.4
	l, sm := s.barrels(seat)
	val += float64(l*s.r.C.LargeVP + sm*s.r.C.SmallVP)
	val += float64(len(p.Cards)) * (1 + 2*left)
	val += float64(p.Ducats) * 0.25 * left
	return val
}

// closedForm is the lenient evening-out of HA-7.6: the largest L such that
// the deficit below L, less what the surplus above L pays at the rate, is
// covered by the ducat steps.
func closedForm(p [5]int, rate, d, max int) int {
	best := -99
	for L := -10; L <= max; L++ {
		def, sur := 0, 0
		for _, v := range p {
			if v < L {
				def += L - v
			} else {
				sur += v - L
			}
		}
		pay := sur / rate
		if pay > def {
			pay = def
		}
		if def-pay <= d {
			best = L
		}
	}
	return best
}
