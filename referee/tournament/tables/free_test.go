package tables

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTablesFreeFindsPlantedSeating_Issue24 holds seater.free to its rule
// on generated fields where a seating with no repeated meeting is known
// to exist (planted: each pair of entrants at different tables of it met
// with some chance from 0.1 to 0.5, none at one table): 4 to 12 tables
// of 3, 4 or 5 and none to three tables one short, kept seats (scaled,
// random counts of small seats before) or not, sparse to dense meetings.
// It finds a seating in all but 5 of 300 fields (out of steps), of the
// same entrants at tables of
// the same sizes, with no two who met at one table and, kept, the small
// tables' seats given to entrants with the same counts of small seats as
// the planted seating gives them; each table in the round's order and
// the tables in the order of their first entrant.
func TestTablesFreeFindsPlantedSeating_Issue24(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 16))
	out := 0 // fields where free ran out of steps
	for iter := range 300 {
		s, sizes, p := planted(r)
		n, tabs, met, pos, short := len(s.short), s.tabs, s.met, s.pos, s.short
		name := fmt.Sprintf("iter %d: %d entrants at %v, meetings %.2f, keep %v", iter, n, sizes, p, s.keep)
		got := s.free()
		if got == nil {
			t.Logf("%s: no seating found within freeSteps", name)
			out++
			continue
		}
		if c := Cost(got, met); c != 0 {
			t.Errorf("%s: %v seats %d repeated meetings", name, got, c)
		}
		var gs, es, ws []int
		for _, tab := range got {
			gs = append(gs, len(tab))
			es = append(es, tab...)
			if !slices.IsSortedFunc(tab, func(a, b int) int { return pos[a] - pos[b] }) {
				t.Errorf("%s: table %v not in the round's order", name, tab)
			}
		}
		ws = slices.Clone(sizes)
		slices.Sort(gs)
		slices.Sort(ws)
		slices.Sort(es)
		if !slices.Equal(gs, ws) || !slices.Equal(es, perm2(n)) {
			t.Errorf("%s: %v is not the entrants at tables of the sizes", name, got)
		}
		if !slices.IsSortedFunc(got, func(a, b []int) int { return pos[a[0]] - pos[b[0]] }) {
			t.Errorf("%s: tables %v not in the order of their first entrant", name, got)
		}
		if s.keep && !slices.Equal(shortSeats(got, short), shortSeats(tabs, short)) {
			t.Errorf("%s: small seats %v, want %v", name, shortSeats(got, short), shortSeats(tabs, short))
		}
	}
	// Left (issue 24): in 5 of the 300 fields, four of them with
	// meetings near 0.5, the search runs out of its steps.
	if out > 5 {
		t.Errorf("free found no seating in %d of 300 fields (5 known)", out)
	}
}

// perm2 is 0 to n-1.
func perm2(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestTablesFreeNoneWhenUnavoidable_Issue24: where one more entrant than
// there are tables all met each other, two of them share a table in every
// seating, and seater.free finds none (the weighted search then seats the
// least).
func TestTablesFreeNoneWhenUnavoidable_Issue24(t *testing.T) {
	for _, table := range []int{3, 4, 5} {
		s := sevenMet(table)
		if got := s.free(); got != nil {
			t.Errorf("tables of %d: %v seats 7 who all met at 6 tables", table, got)
		}
	}
}

// sevenMet is 6 tables of table, in order, where entrants 0 to 6 all met
// each other and no others met.
func sevenMet(table int) *seater {
	n := 6 * table
	var tabs [][]int
	for k := 0; k < n; k += table {
		tabs = append(tabs, perm2(n)[k:k+table])
	}
	met := map[[2]int]int{}
	for a := range 7 {
		for b := a + 1; b < 7; b++ {
			met[Key(a, b)] = 1
		}
	}
	return &seater{tabs: tabs, met: met, short: make([]int, n), order: perm2(n), pos: perm2(n)}
}

// shortSeats lists (sorted) how often the entrants seated at the tables
// smaller than the largest had sat at a small table before: the count a
// kept draw keeps even.
func shortSeats(tabs [][]int, short []int) []int {
	big := 0
	for _, tab := range tabs {
		big = max(big, len(tab))
	}
	var out []int
	for _, tab := range tabs {
		if len(tab) < big {
			for _, e := range tab {
				out = append(out, short[e])
			}
		}
	}
	slices.Sort(out)
	return out
}

// planted is a field of 4 to 12 tables of 3, 4 or 5 and none to three
// tables one short, seated at s.tabs with no two who met at one table:
// each pair of entrants at different tables met with some chance p from
// 0.1 to 0.5 (once or twice), random counts of small seats before, a
// random order, kept or not.
func planted(r *rand.Rand) (s *seater, sizes []int, p float64) {
	table := 3 + r.IntN(3)
	for range 4 + r.IntN(9) {
		sizes = append(sizes, table)
	}
	for range r.IntN(4) {
		sizes = append(sizes, table-1)
	}
	n := 0
	for _, size := range sizes {
		n += size
	}
	perm := r.Perm(n)
	var tabs [][]int
	at := make([]int, n)
	k := 0
	for ti, size := range sizes {
		tabs = append(tabs, slices.Clone(perm[k:k+size]))
		for _, e := range perm[k : k+size] {
			at[e] = ti
		}
		k += size
	}
	p = 0.1 + 0.4*r.Float64()
	met := map[[2]int]int{}
	for a := range n {
		for b := a + 1; b < n; b++ {
			if at[a] != at[b] && r.Float64() < p {
				met[Key(a, b)] = 1 + r.IntN(2)
			}
		}
	}
	short := make([]int, n)
	for i := range short {
		short[i] = r.IntN(3)
	}
	order := r.Perm(n)
	pos := make([]int, n)
	for i, e := range order {
		pos[e] = i
	}
	s = &seater{tabs: tabs, met: met, short: short, order: order, pos: pos, keep: r.IntN(2) == 0}
	return s, sizes, p
}
