package fromage

import (
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// Issue 22, menus that fit a decision: for positions of random games, a
// turn's options are grouped by verb (GATHER, MAKE, MILK, BUILD, BARN, then
// END for DONE), each group together in Legal's order, the group found
// without allocating.
func TestTurnGroups_Issue22(t *testing.T) {
	seen := map[string]bool{}
	order := map[string]int{"GATHER": 1, "MAKE": 2, "MILK": 3, "BUILD": 4, "BARN": 5, "END": 6}
	enginetest.RandomWalk(t, Game{}, "groups", 3, 600, 22, func(_ engine.State, d engine.Decision, opts []engine.Option) {
		if d.Kind != kindTurn {
			return
		}
		for k, o := range opts {
			if order[o.Group] == 0 {
				t.Fatalf("%q in group %q", o.Cmd, o.Group)
			}
			if k > 0 && order[opts[k-1].Group] > order[o.Group] {
				t.Fatalf("%q (%s) after %q (%s)", o.Cmd, o.Group, opts[k-1].Cmd, opts[k-1].Group)
			}
			seen[o.Group] = true
			cmd := o.Cmd
			if a := testing.AllocsPerRun(3, func() { _ = turnGroup(cmd) }); a != 0 {
				t.Fatalf("turnGroup(%q) allocates %v", cmd, a)
			}
		}
	})
	for _, g := range []string{"GATHER", "MAKE", "END"} {
		if !seen[g] {
			t.Errorf("no option in group %s (seen %v)", g, seen)
		}
	}
}
