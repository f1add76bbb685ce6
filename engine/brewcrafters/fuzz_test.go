package brewcrafters

import (
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// FuzzParse: the parser never panics; a parsed line's canonical text parses
// back to itself; routing never panics; applying a parsed move either works
// or is a *RuleError that leaves a valid state.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"M MALT", "M OPEN M Y", "M X2 SHIFT", "MARKET 3 > 7 > 1", "M TRADE C>4H", "M TRADE 4M>S",
		"B PROCESS BREW EA@T1 PP@PUB MASH YLAB", "B COLLAB H THEN HARVEST H THEN PROCESS BREW EA", "B RESEARCH OPS BREWPUB",
		"B INSTALL DOUBLE +OPS M M H", "B SECRET MILK", "B CFARM F", "B PASS", "ANNUAL BASIC M M Y", "ANNUAL OPS INSTALL MASH_TUN",
		"ANNUAL BREW PROCESS BREW EA", "ANNUAL ADV SKIP", "DONE", "DISCARD 2M 1H", "EXCHANGE COFFEE M 2", "LOAN", "PLANT H",
		"HARVEST H", "PICK M", "HIRE SALES_REP", "HIRE NONE", "INTERN BREWERY", "SET DISCARD M H Y F S C", "SET ANY Y",
		"QUEUE M MALT", "FIRE CHEMIST", "M", "B", "M 99999999999999999999", "DISCARD 0M", "B PROCESS BREW", "M TRADE >"} {
		f.Add(s)
	}
	st, _, err := Game{}.NewState(engine.Config{Variant: "complex", Seats: []string{"a", "b", "c"}, Seed: "fuzz"})
	if err != nil {
		f.Fatal(err)
	}
	base := st.(*State)
	f.Fuzz(func(t *testing.T, line string) {
		s := base.Clone().(*State)
		s.Route(0, engine.ParseScript(line))
		m, err := s.Parse(s.Pending()[0].Seat, line)
		if err != nil {
			if _, ok := engine.AsRuleError(err); !ok {
				t.Fatalf("%q: not a rule error: %v", line, err)
			}
			return
		}
		m2, err := s.Parse(0, m.String())
		if err != nil || m2.String() != m.String() {
			t.Fatalf("%q -> %q -> %v %v", line, m.String(), m2, err)
		}
		if _, err := s.Apply(s.Pending()[0].Seat, m); err != nil {
			if _, ok := engine.AsRuleError(err); !ok {
				t.Fatalf("%q: apply: %v", line, err)
			}
		}
		if err := s.Check(); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
	})
}
