package tables

// The search for a seating with no repeated meeting (Dual, before
// the weighted whole search; doc.go, "Who sits with whom"): the entrant
// with the fewest tables it may still join is seated first.

import "slices"

// freeSteps is the work the search for a seating with no repeated meeting
// may do: each entrant looked at when choosing the next to seat, and each
// table tried, counts one (part of Dual: changing it is a new
// method).
const freeSteps = 1_200_000

// free seats the entrants of s.tabs at tables of the same sizes with no
// two who met at one table, keeping the small tables' seats as split does
// (keep), and returns the tables (each in the round's order, in the order
// of their first entrant), or nil when it finds none within freeSteps.
// Depth first, one entrant at a time: next the entrant not yet seated
// with the fewest tables left that it may join (a table not full where
// it met no one), then the one who met the most of the others, then the
// first in the round's order; it tries each table it may join, those
// already opened first and one empty table of each size, and goes back
// when some entrant has no table left.
func (s *seater) free() [][]int {
	var es, sizes []int
	for _, tab := range s.tabs {
		es = append(es, tab...)
		sizes = append(sizes, len(tab))
	}
	slices.SortFunc(es, func(a, b int) int { return s.pos[a] - s.pos[b] })
	slices.Sort(sizes)
	slices.Reverse(sizes) // the largest tables first
	m, nt := len(es), len(sizes)
	adj := make([][]int, m) // whom each met, by index in es
	for i, a := range es {
		for j, b := range es {
			if i != j && s.met[Key(a, b)] > 0 {
				adj[i] = append(adj[i], j)
			}
		}
	}
	small := sizes[nt-1]
	keep := s.keep && sizes[0] != small
	quota := map[[2]int]int{}
	seat := func(i, size int) [2]int {
		k := [2]int{0, s.short[es[i]]}
		if size == small {
			k[0] = 1
		}
		return k
	}
	if keep {
		for _, tab := range s.tabs {
			for _, e := range tab {
				quota[seat(slices.Index(es, e), len(tab))]++
			}
		}
	}
	// blocked[i*nt+t]: how many at table t met entrant i; opts[i]: the
	// tables not full that block i not.
	blocked := make([]int, m*nt)
	opts := make([]int, m)
	for i := range opts {
		opts[i] = nt
	}
	at := make([]int, m) // the table of each entrant, -1 not seated
	for i := range at {
		at[i] = -1
	}
	tabs := make([][]int, nt)
	steps := freeSteps
	var place func(left int) bool
	place = func(left int) bool {
		if left == 0 {
			return true
		}
		next := -1
		for i := range m {
			steps--
			if at[i] >= 0 {
				continue
			}
			if next < 0 || opts[i] < opts[next] || opts[i] == opts[next] && len(adj[i]) > len(adj[next]) {
				next = i
			}
		}
		if opts[next] == 0 || steps < 0 {
			return false
		}
		// the tables next may join, those that take the fewest tables from
		// the others first
		var cands [][2]int
		for t, size := range sizes {
			steps--
			if len(tabs[t]) == size || blocked[next*nt+t] > 0 || len(tabs[t]) == 0 && slices.ContainsFunc(cands, func(c [2]int) bool { return len(tabs[c[1]]) == 0 && sizes[c[1]] == size }) {
				continue
			}
			loss := 0
			if len(tabs[t])+1 == size {
				for j := range m {
					if at[j] < 0 && j != next && blocked[j*nt+t] == 0 {
						loss++
					}
				}
			} else {
				for _, j := range adj[next] {
					if at[j] < 0 && blocked[j*nt+t] == 0 {
						loss++
					}
				}
			}
			cands = append(cands, [2]int{loss, t})
		}
		slices.SortFunc(cands, func(a, b [2]int) int {
			if a[0] != b[0] {
				return a[0] - b[0]
			}
			return a[1] - b[1]
		})
		for _, c := range cands {
			t := c[1]
			size := sizes[t]
			k := seat(next, size)
			if keep && quota[k] == 0 {
				continue
			}
			quota[k]-- // read only with keep
			join(next, t, 1, tabs, at, adj, blocked, opts, sizes)
			if place(left - 1) {
				return true
			}
			join(next, t, -1, tabs, at, adj, blocked, opts, sizes)
			quota[k]++
			if steps < 0 {
				return false
			}
		}
		return false
	}
	if !place(m) {
		return nil
	}
	var best [][]int
	for _, tab := range tabs {
		b := make([]int, len(tab))
		for k, i := range tab {
			b[k] = es[i]
		}
		slices.SortFunc(b, func(x, y int) int { return s.pos[x] - s.pos[y] })
		best = append(best, b)
	}
	slices.SortFunc(best, func(a, b []int) int { return s.pos[a[0]] - s.pos[b[0]] })
	return best
}

// join seats entrant i at table t (by 1) or takes it back (by -1) in
// free's state: the tables, each entrant's table, how many at each table
// each met, and each entrant's tables left (a table not full where it
// met no one), which lose t when t fills or i is one it met.
func join(i, t, by int, tabs [][]int, at []int, adj [][]int, blocked, opts, sizes []int) {
	nt := len(sizes)
	if by < 0 {
		tabs[t] = tabs[t][:len(tabs[t])-1]
		at[i] = -1
		for _, j := range adj[i] {
			blocked[j*nt+t]--
		}
	}
	full := len(tabs[t])+1 == sizes[t] // with i
	for j := range at {
		if at[j] < 0 && j != i && blocked[j*nt+t] == 0 && full {
			opts[j] -= by
		}
	}
	for _, j := range adj[i] {
		if at[j] < 0 && blocked[j*nt+t] == 0 && !full {
			opts[j] -= by
		}
	}
	if by > 0 {
		tabs[t] = append(tabs[t], i)
		at[i] = t
		for _, j := range adj[i] {
			blocked[j*nt+t]++
		}
	}
}
