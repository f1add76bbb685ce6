package fromage

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// Issue 22, menus that fit a decision: for positions of random games, a
// turn's options are grouped by verb (GATHER, MAKE, MILK, BUILD, BARN, then
// END for DONE), each group together in Legal's order, the group found
// without allocating.
func TestTurnGroups_Issue22(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 3; i++ {
		st, _, err := Game{}.NewState(engine.Config{Seats: []string{"ann", "bob", "cat"}[:2+i%2], Seed: fmt.Sprint("groups", i)})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		rng := rand.New(rand.NewPCG(uint64(i), 22))
		for steps := 0; s.Result() == nil && steps < 600; steps++ {
			pend := s.Pending()
			if len(pend) == 0 {
				t.Fatal("nobody to move")
			}
			d := pend[0]
			opts := s.Legal(d)
			if d.Kind == kindTurn {
				order := map[string]int{"GATHER": 1, "MAKE": 2, "MILK": 3, "BUILD": 4, "BARN": 5, "END": 6}
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
			}
			m, err := s.Parse(d.Seat, opts[rng.IntN(len(opts))].Cmd)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Apply(d.Seat, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, g := range []string{"GATHER", "MAKE", "END"} {
		if !seen[g] {
			t.Errorf("no option in group %s (seen %v)", g, seen)
		}
	}
}
