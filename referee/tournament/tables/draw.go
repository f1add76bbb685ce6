package tables

// The tables draw's search for the seating with the least repeated
// meetings (see doc.go, "Who sits with whom"): whole at a small field,
// two and three tables at a time above.

import (
	"math"
	"slices"
)

// Exact is recorded with a tables round the single swaps seat (Draw): a
// round they already seat with no repeated meeting, or that no seating
// improves, and every tables round recorded before the least search; it
// replays by the swaps alone. (The tournament's Exact, "".)
const Exact = ""

// Least is recorded with a tables round whose seating the least search
// changed, before Bound.
const Least = "least"

// Bound was recorded with a tables round whose seating the least
// search with lower bounds changed, before Dual: the search of Least, whose
// branch and bound also stops a branch when the meetings seated so far
// and the fewest the entrants left must still seat reach the best found
// (seater.lower), so a try that cannot improve costs one step of the
// budget instead of every seating. It seats the same as Least
// where neither runs out of budget, and otherwise spends it elsewhere:
// a round it changed replays only by it.
const Bound = "bound"

// The reach of the least search: a field with at most exactSeatings
// seatings is searched whole; above, a table with a repeated meeting is
// seated anew with each other table (nearest first), then with each two
// of the resplitNear tables nearest it; then (Bound) a field of at
// most wholeField entrants left with a repeated meeting is searched whole
// again, within wholeBudget branches, for a seating with fewer. (Variables
// only so that tests can change them.)
var (
	exactSeatings = 3_000_000
	resplitNear   = 6
	resplitBudget = 10_000_000
	wholeField    = 60
	wholeBudget   = 2_000_000
)

// seatings is the number of ways to split the entrants into tables of
// sizes: n! over each table's size! and over the count! of tables of
// each size (a float: it overflows an int at 25 entrants).
func seatings(sizes []int) float64 {
	n, r := 0, 1.0
	count := map[int]int{}
	for _, s := range sizes {
		for i := 1; i <= s; i++ {
			n++
			r *= float64(n) / float64(i)
		}
		count[s]++
		r /= float64(count[s])
	}
	return r
}

// seater holds a tables round's seating while it is searched: the tables,
// the meetings before the round, the seat histories and each entrant's
// place in the round's order.
type seater struct {
	tabs  [][]int
	met   map[[2]int]int
	short []int // by entrant: seats at a small table before (Draw)
	pos   []int // filled by least from order
	// order is the round's order of the entrants seated.
	order []int
	// keep: a table smaller than another takes an entrant only in place
	// of one with as many seats at small tables before (Draw's keep).
	keep bool
	// bounded: split prunes by lower bounds and a field of at most
	// wholeField is searched whole after the resplits (Bound).
	bounded bool
	// dual: the search of a whole field after the resplits bounds its
	// branches by the entrants' weights too (weigh; Dual).
	dual bool
	// byMet: split opens tables with the entrants who met the most first
	// (the search of a whole field after the resplits), not in the
	// round's order.
	byMet bool
	// budget is the branches the resplits may still search (split
	// counts each one); failed the resplits that found nothing, by the
	// tables and their versions (bumped when a table changes).
	budget  int
	version []int
	failed  map[[6]int]bool
	// scratch of split, kept from one search to the next.
	es, w, left, rest []int
	seated            []bool
	bufs              [][]int
}

// cost is the meetings before the round of every two entrants at tab (a
// pair that met twice counts twice).
func (s *seater) cost(tab []int) int {
	c := 0
	for i, a := range tab {
		for _, b := range tab[i+1:] {
			c += s.met[Key(a, b)]
		}
	}
	return c
}

// with is the meetings of e with the entrants of tab but tab[skip].
func (s *seater) with(e int, tab []int, skip int) int {
	c := 0
	for k, b := range tab {
		if k != skip {
			c += s.met[Key(e, b)]
		}
	}
	return c
}

// total is the cost of every table.
func (s *seater) total() int {
	c := 0
	for _, tab := range s.tabs {
		c += s.cost(tab)
	}
	return c
}

// swaps exchanges one entrant for another between tables up to two apart
// while that lowers the cost: the draw recorded as Exact.
func (s *seater) swaps() {
	tabs := s.tabs
	for pass := 0; pass < 50; pass++ {
		improved := false
		for x := 0; x+1 < len(tabs); x++ {
			for y := x + 1; y < len(tabs) && y <= x+2; y++ {
				for i := range tabs[x] {
					for j := range tabs[y] {
						if s.keep && len(tabs[x]) != len(tabs[y]) && s.short[tabs[x][i]] != s.short[tabs[y][j]] {
							continue // keeps the small tables' seats even
						}
						before := s.cost(tabs[x]) + s.cost(tabs[y])
						tabs[x][i], tabs[y][j] = tabs[y][j], tabs[x][i]
						if s.cost(tabs[x])+s.cost(tabs[y]) < before {
							improved = true
							continue
						}
						tabs[x][i], tabs[y][j] = tabs[y][j], tabs[x][i]
					}
				}
			}
		}
		if !improved {
			break
		}
	}
}

// least lowers the seating's cost where some seating of the same
// entrants has fewer repeated meetings: the whole field searched when it
// has at most exactSeatings seatings, else each table with a repeated
// meeting seated anew with one or two others until none improves, then
// (bounded) a field of at most wholeField entrants searched for a
// seating with no repeated meeting (dual: free) and, failing that,
// searched whole within wholeBudget branches. It reports whether it changed the seating (the
// tables keep their places; a field searched whole is numbered again by
// its best-placed entrants, each table in the round's order).
func (s *seater) least() bool {
	c := s.total()
	if c == 0 {
		return false
	}
	s.pos = make([]int, len(s.short))
	for i, e := range s.order {
		s.pos[e] = i
	}
	sizes := make([]int, len(s.tabs))
	for i, tab := range s.tabs {
		sizes[i] = len(tab)
	}
	if seatings(sizes) <= float64(exactSeatings) {
		s.budget = math.MaxInt
		best := s.split(s.tabs, c)
		if best == nil {
			return false
		}
		copy(s.tabs, best)
		return true
	}
	s.budget, s.version, s.failed = resplitBudget, make([]int, len(s.tabs)), map[[6]int]bool{}
	changed := false
	for pass := 0; pass < 20 && s.budget > 0; pass++ {
		improved := false
		for x := range s.tabs {
			if s.cost(s.tabs[x]) > 0 && s.resplit(x) {
				improved, changed = true, true
			}
		}
		if !improved {
			break
		}
	}
	if c := s.total(); s.bounded && c > 0 && len(s.order) <= wholeField {
		s.budget, s.byMet = wholeBudget, true
		var best [][]int
		if s.dual && !s.unavoidable() {
			best = s.free()
		}
		if best == nil {
			best = s.split(s.tabs, c)
		}
		if best != nil {
			for _, tab := range best {
				slices.SortFunc(tab, func(a, b int) int { return s.pos[a] - s.pos[b] })
			}
			slices.SortFunc(best, func(a, b []int) int { return s.pos[a[0]] - s.pos[b[0]] })
			copy(s.tabs, best)
			changed = true
		}
	}
	return changed
}

// resplit lowers the cost of table x by the first of these that does:
// x seated anew with each of the resplitNear tables nearest it (nearest
// first); a swap of one of its entrants who met another there for an
// entrant of a table farther away (nearest first); x seated anew with
// each table farther away; then with each two of the nearest tables.
// Each branch of a search and each swap tried counts against the budget.
func (s *seater) resplit(x int) bool {
	var near []int
	s.nearest(x, 0, resplitNear, func(y int) bool {
		near = append(near, y)
		return false
	})
	for _, y := range near {
		if s.resplitOf(x, y) {
			return true
		}
	}
	if s.nearest(x, resplitNear, len(s.tabs), func(y int) bool { return s.swapAway(x, y) }) {
		return true
	}
	if s.nearest(x, resplitNear, len(s.tabs), func(y int) bool { return s.resplitOf(x, y) }) {
		return true
	}
	for a, y := range near {
		for _, z := range near[a+1:] {
			if s.resplitOf(x, y, z) {
				return true
			}
		}
	}
	return false
}

// nearest calls f with the tables other than x, nearest first (x-1, x+1,
// x-2, ...), the from-th to the to-th of them, until it returns true or
// the budget is spent, and reports whether it returned true.
func (s *seater) nearest(x, from, to int, f func(y int) bool) bool {
	k := 0
	for d := 1; d < len(s.tabs) && k < to && s.budget > 0; d++ {
		for _, y := range [2]int{x - d, x + d} {
			if y < 0 || y >= len(s.tabs) {
				continue
			}
			if k >= from && k < to && f(y) {
				return true
			}
			k++
		}
	}
	return false
}

// swapAway swaps an entrant of table x who met another there for one of
// table y when that lowers the cost, and reports whether it did.
func (s *seater) swapAway(x, y int) bool {
	for i, a := range s.tabs[x] {
		if s.with(a, s.tabs[x], i) == 0 {
			continue
		}
		for j, b := range s.tabs[y] {
			s.budget--
			if s.keep && len(s.tabs[x]) != len(s.tabs[y]) && s.short[a] != s.short[b] {
				continue // keeps the small tables' seats even
			}
			if s.with(a, s.tabs[y], j)+s.with(b, s.tabs[x], i) < s.with(a, s.tabs[x], i)+s.with(b, s.tabs[y], j) {
				s.tabs[x][i], s.tabs[y][j] = b, a
				s.version[x]++
				s.version[y]++
				return true
			}
		}
	}
	return false
}

// resplitOf seats the entrants of tables ids anew when a seating of them
// at tables of the same sizes costs less, each new table in the place of
// an old one of its size (in order).
func (s *seater) resplitOf(ids ...int) bool {
	key := [6]int{-1, -1, -1, -1, -1, -1}
	for k, id := range ids {
		key[k], key[3+k] = id, s.version[id]
	}
	if s.failed[key] || s.budget <= 0 {
		return false
	}
	groups := make([][]int, len(ids))
	c := 0
	for k, id := range ids {
		groups[k] = s.tabs[id]
		c += s.cost(groups[k])
	}
	best := s.split(groups, c)
	if best == nil {
		s.failed[key] = true
		return false
	}
	slots := slices.Clone(ids)
	slices.Sort(slots)
	for _, g := range best {
		for k, id := range slots {
			if id >= 0 && len(s.tabs[id]) == len(g) {
				s.tabs[id], slots[k] = g, -1
				s.version[id]++
				break
			}
		}
	}
	return true
}

// split is the seating of groups' entrants at tables of the groups' sizes
// with the least cost below bound, the first in the round's order of
// those (branch and bound: the first entrant not yet seated opens a table
// of each size left, with every choice of mates below them; bounded, a
// branch whose cost and lower bound of the entrants left reach the best
// found stops; dual and byMet, also one whose bound by the entrants'
// weights does, weigh), or nil when none costs less than bound; byMet,
// the entrants who met the most among them come first instead. With the
// budget spent it is the cheapest found so far. With keep and tables of
// two sizes, the entrants at the smaller tables have the counts of small
// seats of those at them in groups. Its tables are in the order of their
// first entrant, each in the round's order (byMet: in that order).
func (s *seater) split(groups [][]int, bound int) [][]int {
	es := s.es[:0]
	var kinds []int // the sizes, largest first
	most := 0
	for _, g := range groups {
		most = max(most, len(g))
	}
	left := slices.Grow(s.left[:0], most+1)[:most+1] // the tables left, by size
	clear(left)
	s.left = left
	for _, g := range groups {
		es = append(es, g...)
		if left[len(g)] == 0 {
			kinds = append(kinds, len(g))
		}
		left[len(g)]++
	}
	s.es = es
	slices.SortFunc(es, func(a, b int) int { return s.pos[a] - s.pos[b] })
	if s.byMet {
		deg := map[int]int{}
		for _, a := range es {
			for _, b := range es {
				deg[a] += s.met[Key(a, b)]
			}
		}
		slices.SortStableFunc(es, func(a, b int) int { return deg[b] - deg[a] })
	}
	slices.Sort(kinds)
	slices.Reverse(kinds)
	small := kinds[len(kinds)-1]
	keep := s.keep && len(kinds) > 1
	// quota counts the seats left by (at a small table, small seats before).
	var quota map[[2]int]int
	seat := func(e, size int) [2]int {
		k := [2]int{0, s.short[e]}
		if size == small {
			k[0] = 1
		}
		return k
	}
	if keep {
		quota = map[[2]int]int{}
		for _, g := range groups {
			for _, e := range g {
				quota[seat(e, len(g))]++
			}
		}
	}
	m := len(es)
	s.budget -= m * m / 2 // the meetings looked up
	w := slices.Grow(s.w[:0], m*m)[:m*m]
	s.w = w
	for i, a := range es {
		w[i*m+i] = 0
		for j, b := range es[:i] {
			c := s.met[Key(a, b)]
			w[i*m+j], w[j*m+i] = c, c
		}
	}
	seated := slices.Grow(s.seated[:0], m)[:m]
	clear(seated)
	s.seated = seated
	least := make([]int, 0, kinds[0])
	s.rest = slices.Grow(s.rest[:0], m)
	for len(s.bufs) < len(groups) {
		s.bufs = append(s.bufs, nil)
	}
	bufs := s.bufs[:len(groups)]
	for i := range bufs {
		bufs[i] = slices.Grow(bufs[i][:0], kinds[0])
	}
	var best [][]int
	var d *weights
	if s.dual && s.byMet {
		var steps int
		d, steps = weigh(w, m, kinds, left, bound)
		s.budget -= steps
	}
	take := func(i, size int) bool {
		if !keep {
			return true
		}
		k := seat(es[i], size)
		if quota[k] == 0 {
			return false
		}
		quota[k]--
		return true
	}
	give := func(i, size int) {
		if keep {
			quota[seat(es[i], size)]++
		}
	}
	var open func(level, c int)
	var fill func(level, size, from, c int)
	open = func(level, c int) {
		first := slices.Index(seated, false)
		if first < 0 {
			best = make([][]int, level)
			for l, b := range bufs[:level] {
				best[l] = make([]int, len(b))
				for k, i := range b {
					best[l][k] = es[i]
				}
			}
			bound = c
			return
		}
		if d != nil && d.beyond(c, bound, left, nil, 0, w, m) {
			return
		}
		if s.bounded {
			size := 0
			for _, k := range kinds {
				if left[k] > 0 {
					size = k // the smallest table left
				}
			}
			lb, rest := lower(w, m, seated, size, least, s.rest)
			s.budget -= rest
			if c+lb >= bound {
				return
			}
		}
		seated[first] = true
		if d != nil {
			d.seat(first)
			defer d.unseat(first)
		}
		for _, size := range kinds {
			if left[size] == 0 || !take(first, size) {
				continue
			}
			left[size]--
			bufs[level] = append(bufs[level][:0], first)
			fill(level, size, first+1, c)
			left[size]++
			give(first, size)
		}
		seated[first] = false
	}
	fill = func(level, size, from, c int) {
		s.budget--
		if c >= bound || s.budget < 0 {
			return
		}
		tab := bufs[level]
		if d != nil && d.beyond(c, bound, left, tab, size, w, m) {
			return
		}
		if len(tab) == size {
			open(level+1, c)
			return
		}
		for i := from; i < m; i++ {
			if seated[i] || !take(i, size) {
				continue
			}
			add := 0
			for _, a := range tab {
				add += w[a*m+i]
			}
			seated[i] = true
			if d != nil {
				d.seat(i)
			}
			bufs[level] = append(tab, i)
			fill(level, size, i+1, c+add)
			bufs[level] = tab
			seated[i] = false
			if d != nil {
				d.unseat(i)
			}
			give(i, size)
		}
	}
	open(0, 0)
	return best
}

// lower is the fewest meetings the entrants not yet seated (of m, w their
// meetings) must still seat at tables of size or more: each sits with at
// least size-1 of the others, so with at least its size-1 least meetings
// with them, and a meeting counts for both of its entrants (Bound).
// least is scratch of capacity size-1, rest of capacity m. It returns
// the bound and the count of entrants not seated (the budget it costs).
func lower(w []int, m int, seated []bool, size int, least, rest []int) (int, int) {
	rest = rest[:0]
	for i := 0; i < m; i++ {
		if !seated[i] {
			rest = append(rest, i)
		}
	}
	sum := 0
	for _, i := range rest {
		least = least[:0]
		for _, j := range rest {
			if j == i {
				continue
			}
			v := w[i*m+j]
			if len(least) == size-1 {
				if v >= least[size-2] {
					continue
				}
				least = least[:size-2]
			}
			k := len(least)
			least = append(least, v)
			for k > 0 && least[k-1] > v {
				least[k] = least[k-1]
				k--
			}
			least[k] = v
			if len(least) == size-1 && least[size-2] == 0 {
				break // none of its mates need have met it
			}
		}
		for _, v := range least {
			sum += v
		}
	}
	return (sum + 1) / 2, len(rest)
}
