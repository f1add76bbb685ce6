package brewcrafters

import (
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
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
	left := float64(s.last() - s.Season)
	v := float64(s.projected(seat))
	// Operating costs still to pay, against money: a deficit becomes Loans
	// (BC-5.11.3), each about 3 Rep per $2.
	winters := (s.last()-s.Season)/4 + 1
	need := s.opCost(p)*winters - p.Money
	if need > 0 {
		v -= 1.4 * float64(need)
	} else {
		v += 0.15 * float64(-need)
	}
	// Ingredients are worth their future brewing while there is time.
	w := 0.15
	if left > 1 {
		w = 0.8
	}
	// ... with diminishing returns: a brewery needs a mix, not a hoard.
	caps := [catalog.NIng]int{8, 4, 3, 2, 2, 2}
	vals := [catalog.NIng]float64{0.35, 0.45, 0.55, 0.7, 0.7, 0.7}
	for i, n := range p.Ing {
		k := n
		if k > caps[i] {
			k = caps[i]
		}
		v += w * (vals[i]*float64(k) + 0.05*float64(n-k))
	}
	// Beer in the line will sell for money.
	for _, id := range []string{p.Tanks[0], p.Tanks[1], p.Pub} {
		if id != "" {
			v += 0.8
		}
	}
	for _, id := range p.Bottles {
		if id != "" {
			v += 0.6
		}
	}
	v += float64(p.Shifts-1) * 0.35 * left
	for t := 0; t < catalog.NTracks; t++ {
		v += float64(p.Research[t]) * 0.08 * left
	}
	if p.has("DOUBLE_BATCH") {
		v += 0.15 * left
	}
	if p.has("BREWPUB") {
		v += 0.15 * left
	}
	for _, id := range []string{"EA", "PP", "SS"} {
		if slices.Contains(p.Brewed, id) {
			v += 0.1 * left
		}
	}
	return v
}
