package fromage

import (
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// FuzzParse: the command parser never panics; a parsed line's canonical
// text parses back to itself; routing a whole message never panics and
// applying a parsed move either works or is a *RuleError leaving the state
// valid.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"GATHER 2 blue", "g 1 s", "MAKE B14 KEEP", "make paris", "MAKE Pont-l’Évêque", "MILK 4 F22", "BUILD IV",
		"BARN hard TRADE O12 fruit", "BARN soft C09 keep", "TAKE fruit order", "TAKE NONE", "TRADE order cattle",
		"NOTRADE", "COMPLETE", "KEEP", "CHOOSE 2", "CHOOSE O05", "DONE", "PASS", "CORP F22", "PICK ST08",
		"PICKS ST08, ST21 ST25", "PLACE ST01", "NOTILE", "READY", "SET DAIRY fruit order", "SET ORDERS ASK",
		"SET CORP LOWEST", "SET AUTODONE ON", "PLAN T7 MAKE B14 | MAKE B7", "NEXT G 2 blue", "UNDO", "",
		"MAKE C0", "GATHER 99999999999999999999 soft", "TAKE , ,", "BARN", "milk 0 f22", "F13",
	} {
		f.Add(s)
	}
	st, _, err := Game{}.NewState(engine.Config{Variant: "advanced", Seats: []string{"a", "b", "c"}, Seed: "fuzz"})
	if err != nil {
		f.Fatal(err)
	}
	base := st.(*State)
	f.Fuzz(func(t *testing.T, line string) {
		s := base.Clone().(*State)
		orders := engine.ParseScript(line)
		s.Route(0, orders)
		m, err := s.Parse(0, line)
		if err != nil {
			if _, ok := engine.AsRuleError(err); !ok {
				t.Fatalf("Parse(%q) error is not a *RuleError: %v", line, err)
			}
			return
		}
		m2, err := s.Parse(0, m.String())
		if err != nil || m2.String() != m.String() {
			t.Fatalf("Parse(%q) = %q, which parses to %v, %v", line, m.String(), m2, err)
		}
		if _, err := s.Apply(0, m); err != nil {
			if _, ok := engine.AsRuleError(err); !ok {
				t.Fatalf("Apply(%q): %v", line, err)
			}
		}
		if err := s.Check(); err != nil {
			t.Fatalf("after %q: %v", line, err)
		}
	})
}
