package heavenale

import (
	"math/rand/v2"
	"strconv"

	"github.com/pbem-referee/referee/engine"
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
	c := s.Clone().(*State)
	m, err := c.Parse(seat, cmd)
	if err != nil {
		return -1e9
	}
	if _, err := c.Apply(seat, m); err != nil {
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
		if p := s.Players[seat].Pos; m.(Move).N < homePos {
			v -= 0.4 * float64(m.(Move).N-p)
		}
	}
	if look && m.(Move).N == homePos {
		v -= 1.5 * float64(s.roundLeft(seat))
	}
	return v
}

// roundLeft estimates how much of the round the seat still has: the
// reachable spaces ahead of it.
func (s *State) roundLeft(seat int) int {
	k := 0
	for n := s.Players[seat].Pos + 1; n < homePos; n++ {
		if s.reachable(seat, n) {
			k++
		}
	}
	if k > 4 {
		k = 4
	}
	return k
}

// estimate is the bot's evaluation of a seat's position: an estimate of
// the production score with the future activations of the garden, plus
// barrels and cards.
func (s *State) estimate(seat int) float64 {
	p := &s.Players[seat]
	rounds := float64(s.Rounds - s.Round + 1)
	// Future activations: sunny resource tiles push markers, shady give
	// ducats, monks the brewmaster.
	var mk [5]float64
	for c := range mk {
		mk[c] = float64(p.Markers[c])
	}
	ducats := float64(p.Ducats)
	brew := float64(p.Brew)
	for i, t := range p.Garden {
		side := s.r.Cells[i].Side
		if c := tileColour(t); c >= 0 {
			f := float64(tileFert(t))
			if side == sideSun {
				w := 0.6
				if !p.Spots[spotColor+c] {
					w += 0.6
				}
				mk[c] += f * w
			} else {
				ducats += f * 0.8
			}
		} else if monkType(t) > 0 {
			brew += 0.8
		} else if side == sideShed && t == "" {
			brew += 0.3
		}
	}
	_ = rounds
	if brew > float64(s.r.Max) {
		brew = float64(s.r.Max)
	}
	b := s.r.band(int(brew))
	low, sum := mk[0], 0.0
	for _, v := range mk {
		if v < low {
			low = v
		}
		if v > 20 {
			v = 20
		}
		sum += v
	}
	avg := (sum + ducats/10) / 5
	eff := low + (avg-low)*1.6/float64(b.Rate)
	if eff > avg {
		eff = avg
	}
	if eff < 0 {
		eff = eff * 0.3
	}
	val := float64(b.VP) * eff
	val += brew * 0.5
	l, sm := s.barrels(seat)
	val += float64(l*s.r.C.LargeVP + sm*s.r.C.SmallVP)
	val += float64(len(p.Cards)) * 1.5
	return val
}
