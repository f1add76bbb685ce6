package bymail

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestDueOnceEachDrawKept (issue 24): tournaments asked due any number of
// times, with or without a draw, are each due once, in the order first
// asked, drawn when any ask wanted a draw. Generated asks, checked
// against a plain model.
func TestDueOnceEachDrawKept(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 1))
	for range 200 {
		var d Due
		order := []string{}
		draw := map[string]bool{}
		for range rng.IntN(12) {
			id := fmt.Sprintf("t%d", rng.IntN(5))
			dr := rng.IntN(2) == 0
			if _, seen := draw[id]; !seen {
				order = append(order, id)
			}
			draw[id] = draw[id] || dr
			d.Add(id, dr)
		}
		if len(d) != len(order) {
			t.Fatalf("%d due, want %d: %v", len(d), len(order), d)
		}
		for i, r := range d {
			if r.ID != order[i] || r.Draw != draw[r.ID] {
				t.Fatalf("due %d is %v, want %s draw=%v", i, r, order[i], draw[order[i]])
			}
		}
	}
}
