package heavenale

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// Issue 22, menus that fit a decision: for positions of random games, every
// option of a move or a purchase has its group (the kind of its space; the
// tile bought, END for DONE and SELL), found without allocating, and each
// group's options come together (the Table numbers them as Legal lists
// them).
func TestMenuGroups_Issue22(t *testing.T) {
	seen := map[string]bool{}
	enginetest.RandomWalk(t, Game{}, "groups", 3, 400, 22, func(st engine.State, d engine.Decision, opts []engine.Option) {
		if d.Kind == kindMove || d.Kind == kindBuy {
			checkGroups(t, st.(*State), d, opts, seen)
		}
	})
	for _, g := range []string{"move resource", "move monk", "move disc", "move home", "buy BUY", "buy END"} {
		if !seen[g] {
			t.Errorf("no option in group %q (seen %v)", g, seen)
		}
	}
}

// checkGroups checks the groups of one move or purchase decision.
func checkGroups(t *testing.T, s *State, d engine.Decision, opts []engine.Option, seen map[string]bool) {
	t.Helper()
	g := engine.GroupOptions(opts)
	done := map[string]bool{}
	for k, o := range g {
		if o.Group == "" {
			t.Fatalf("%s %q: no group", d.Kind, o.Cmd)
		}
		if k > 0 && g[k-1].Group != o.Group && done[o.Group] {
			t.Fatalf("%s: group %q comes twice", d.Kind, o.Group)
		}
		done[o.Group] = true
		key, _, _ := strings.Cut(o.Group, " ")
		seen[d.Kind+" "+key] = true
		// The purchases are listed by tile already (the Table keeps
		// Legal's numbers); GO HOME, DONE and SELL come last.
		if d.Kind == kindBuy && o.Cmd != opts[k].Cmd {
			t.Fatalf("buy: option %d is %q, listed %q", k+1, opts[k].Cmd, o.Cmd)
		}
		if last := o.Group == groupEnd || o.Group == "home"; last && k+1 < len(g) && g[k+1].Group != o.Group {
			t.Fatalf("%s: %q before %q", d.Kind, o.Cmd, g[k+1].Cmd)
		}
		cmd := o.Cmd
		a := testing.AllocsPerRun(3, func() {
			if d.Kind == kindMove {
				_ = s.moveGroup(cmd)
			} else {
				_ = buyGroup(cmd)
			}
		})
		if a != 0 {
			t.Fatalf("the group of %q allocates %v", cmd, a)
		}
	}
}
