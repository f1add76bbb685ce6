package brewcrafters

import (
	"math/rand/v2"
	"strings"

	"github.com/pbem-referee/referee/engine"
)

// Greedy is a one-step look-ahead bot: it applies each option on a copy and
// keeps the one with the best evaluation of its own position.
type Greedy struct{}

// Choose implements engine.Bot.
func (Greedy) Choose(st engine.State, d engine.Decision, opts []engine.Option, rng *rand.Rand) int {
	s, ok := st.(*State)
	if !ok {
		return 0
	}
	best, bestV := 0, -1e18
	for i, o := range opts {
		c := s.Clone().(*State)
		m, err := c.Parse(d.Seat, o.Cmd)
		if err != nil {
			continue
		}
		if _, err := c.Apply(d.Seat, m); err != nil {
			continue
		}
		v := c.evaluate(d.Seat) + rng.Float64()*0.01
		if strings.HasPrefix(o.Cmd, "B PASS") {
			v -= 1
		}
		if v > bestV {
			best, bestV = i, v
		}
	}
	return best
}

// evaluate scores a position for one seat: the projected score, plus the
// value of what the brewery can still turn into Rep.
func (s *State) evaluate(seat int) float64 {
	p := &s.P[seat]
	if s.Res != nil {
		v := float64(s.projected(seat)) * 10
		for i := range s.P {
			if i != seat && s.projected(i) >= s.projected(seat) {
				v -= 5
			}
		}
		return v
	}
	left := float64(11 - s.Season)
	v := float64(s.projected(seat))
	// Ingredients, money and capacity are worth their future brewing.
	v += 0.35*float64(p.Ing[iM]) + 0.5*float64(p.Ing[iH]) + 0.7*float64(p.Ing[iY]) + 0.9*float64(p.Ing.adv())
	v += 0.25 * float64(p.Money)
	v -= 0.3 * float64(s.opCost(p)) * (left / 4)
	// Beer in the line will sell.
	for _, id := range []string{p.Tanks[0], p.Tanks[1], p.Bottles[0], p.Bottles[1], p.Pub} {
		if id != "" {
			v += 1
		}
	}
	v += float64(p.Shifts-1) * 0.9 * left
	for t := 0; t < nTracks; t++ {
		v += float64(p.Research[t]) * 0.4 * left / 4
	}
	v += float64(len(p.Built)) * 0.3 * left / 4
	if p.has("DOUBLE_BATCH") {
		v += 0.5 * left
	}
	if p.has("BREWPUB") {
		v += 0.4 * left
	}
	for _, id := range []string{"EA", "PP", "SS"} {
		if contains(p.Brewed, id) {
			v += 1
		}
	}
	v += float64(len(p.Workers)) * 0.15 * left
	return v
}
