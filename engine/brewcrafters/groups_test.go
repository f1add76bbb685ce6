package brewcrafters

import (
	"github.com/pbem-referee/referee/engine/brewcrafters/notation"
	"testing"
)

// Issue 22: a menu's groups cost Legal nothing: groupOf allocates nothing,
// for every option of positions of random games of both variants.
func TestGroupOfAllocatesNothing(t *testing.T) {
	n := 0
	for _, variant := range []string{"first", "complex"} {
		s := newRandomGame(t, variant)
		for steps := 0; s.Result() == nil && steps < 300; steps++ {
			d := s.Pending()[0]
			opts := s.Legal(d)
			for _, o := range opts {
				mv, err := s.Parse(d.Seat, o.Cmd)
				if err != nil {
					t.Fatal(err)
				}
				m := mv.(*notation.Move)
				if a := testing.AllocsPerRun(3, func() { _ = s.groupOf(m) }); a != 0 {
					t.Fatalf("%s: groupOf(%q) allocates %v", variant, o.Cmd, a)
				}
				n++
			}
			m, _ := s.Parse(d.Seat, opts[steps*5%len(opts)].Cmd)
			if _, err := s.Apply(d.Seat, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d options", n)
	}
}
