package heavenale

import (
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// FuzzParse: any line either parses to a move whose canonical text parses
// back to the same text, or is refused with a *RuleError; applying it
// never panics and a refused move leaves the state unchanged.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"GO 12", "GO HOME RES BA", "BUY HO5 D3 BA3 S4", "DONE", "DONE AUTO", "SHED S7 S6",
		"SCORE X 3", "SCORE wa", "PRIV LOW WA", "PRIV PASS", "SELL BREW", "HOME CASH", "UNDO",
		"PREF HOME BREW CASH RES BA", "PREF PRIV CASH BARREL", "AUTO ENDSELL ON", "vai 3", "KOOP m2 s1", "GO 99"} {
		f.Add(s)
	}
	st, _, err := Game{}.NewState(engine.Config{Seats: seatNames[:3], Seed: "fuzz"})
	if err != nil {
		f.Fatal(err)
	}
	base := st.(*State)
	f.Fuzz(func(t *testing.T, line string) {
		s := base.Clone().(*State)
		m, err := s.Parse(0, line)
		if err != nil {
			if _, ok := engine.AsRuleError(err); !ok {
				t.Fatalf("%q: not a RuleError: %v", line, err)
			}
			return
		}
		back, err := s.Parse(0, m.String())
		if err != nil || back.String() != m.String() {
			t.Fatalf("%q -> %q -> %v %v", line, m.String(), back, err)
		}
		for seat := 0; seat < 3; seat++ {
			c := s.Clone().(*State)
			if _, err := c.Apply(seat, m); err != nil {
				if _, ok := engine.AsRuleError(err); !ok {
					t.Fatalf("apply %q: %v", line, err)
				}
			}
		}
	})
}
