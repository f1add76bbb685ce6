package heavenale

import (
	"encoding/json"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// FuzzParse: any line either parses to a move whose canonical text parses
// back to the same text, or is refused with a *RuleError; applying it
// never panics and a refused move leaves the state unchanged.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"GO 12", "GO HOME RES BA", "BUY HO5 D3 BA3 S4", "DONE", "DONE AUTO", "SHED S7 S6",
		"SCORE X 3", "SCORE wa", "PRIV LOW WA", "PRIV PASS", "SELL BREW", "HOME CASH", "UNDO",
		"PREF HOME BREW CASH RES BA", "PREF PRIV CASH BARREL", "AUTO ENDSELL ON", "vai 3", "KOOP m2 s1", "GO 99",
		"HOME RES BA\nGO 3\nBUY M2 D1", "NEXT\nGO 5\nOR\nGO HOME\nEND", "GO 1 | GO 2 ELSE PASS", "1", "NEXT CANCEL",
		"PREF GARDEN COMPACT", "HOME CASH; GO 27; BUY WA5 S1 ELSE PASS"} {
		f.Add(s)
	}
	st, _, err := Game{}.NewState(engine.Config{Seats: seatNames[:3], Seed: "fuzz"})
	if err != nil {
		f.Fatal(err)
	}
	base := st.(*State)
	tb0, _, _, err := engine.NewTable(Game{}, engine.Config{Seats: seatNames[:3], Seed: "fuzz"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line string) {
		// A whole message through a Table: never an engine error, and the
		// position stays valid whatever was applied.
		js, _ := json.Marshal(tb0)
		tb, err := engine.LoadTable(js, nil)
		if err != nil {
			t.Fatal(err)
		}
		for seat := 0; seat < 3; seat++ {
			if _, err := tb.Submit(seat, engine.ParseScript(line), -1); err != nil {
				t.Fatalf("Submit(%q): %v", line, err)
			}
			if err := tb.State.Check(); err != nil {
				t.Fatalf("after %q: %v", line, err)
			}
		}
		s := base.Clone().(*State)
		s.Route(0, engine.ParseScript(line))
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
			if err := c.Check(); err != nil {
				t.Fatalf("after %q: %v", line, err)
			}
		}
	})
}
