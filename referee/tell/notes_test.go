package tell

import (
	"slices"
	"testing"
)

// TestNoteRenumberFollowsItsSeats: after a seat order is drawn, a note
// goes to the same players and names the same player under their new seat
// numbers; a note to every seat stays so and a note naming no seat gains
// none. Every permutation of up to four seats, notes of every shape.
func TestNoteRenumberFollowsItsSeats(t *testing.T) {
	var perms func(n int) [][]int
	perms = func(n int) [][]int {
		if n == 0 {
			return [][]int{{}}
		}
		var out [][]int
		for _, p := range perms(n - 1) {
			for i := 0; i <= len(p); i++ {
				q := slices.Insert(slices.Clone(p), i, n-1)
				out = append(out, q)
			}
		}
		return out
	}
	for n := 1; n <= 4; n++ {
		for _, perm := range perms(n) {
			to := map[int]int{}
			for nw, old := range perm {
				to[old] = nw
			}
			for old := range n {
				for _, seats := range [][]int{nil, {old}, {old, (old + 1) % n}} {
					note := Note{Seats: slices.Clone(seats), Name: "x", Data: map[string]any{"seat": old, "name": "Ann"}}
					note.Renumber(to)
					if seats == nil && note.Seats != nil {
						t.Errorf("perm %v: a note to every seat now goes to %v", perm, note.Seats)
					}
					for k, s := range seats {
						if perm[note.Seats[k]] != s {
							t.Errorf("perm %v: the note to seat %d now goes to %d, seat %d before", perm, s, note.Seats[k], perm[note.Seats[k]])
						}
					}
					if got := note.Data["seat"].(int); perm[got] != old || note.Data["name"] != "Ann" {
						t.Errorf("perm %v: a note naming seat %d names %d (%v)", perm, old, got, note.Data)
					}
					plain := Note{Name: "y", Data: map[string]any{}}
					plain.Renumber(to)
					if _, ok := plain.Data["seat"]; ok {
						t.Errorf("perm %v: a note naming no seat names one", perm)
					}
				}
			}
		}
	}
}
