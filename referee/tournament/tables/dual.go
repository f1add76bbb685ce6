package tables

// The weights of the whole-field search (Dual): a Lagrangian lower
// bound on the repeated meetings the entrants not yet seated must still
// seat, far above seater.lower's when everyone met many (doc.go, "Who
// sits with whom"). Whole numbers only (meetings times dualScale), so a
// draw replays the same on every machine.

import "slices"

// Dual is recorded with a tables round whose seating the least
// search changed when the search of the whole field bounds its branches
// by the entrants' weights too (seater.weigh): Bound's search
// otherwise, and the method of every round drawn now.
const Dual = "dual"

// The weights' reach: meetings count dualScale each, the weights take at
// most dualRounds steps, and the tables sought in them at most dualSteps
// branches in all (part of Dual: changing them is a new method).
const (
	dualScale  = 64
	dualRounds = 60
	dualSteps  = 400_000
)

// weights is a bound of the search of a whole field: u an integer weight
// of each entrant (of es, as split orders them) and rmin, by table size,
// the least of (the meetings of a table's entrants times dualScale less
// their weights) over every table of that size. Any seating of the
// entrants not seated then seats at least the sum of their weights (free)
// plus, for each table left, its size's rmin (over dualScale); a table
// being filled, at least its r so far less the largest weights (top) it
// may still take, and at least rmin.
type weights struct {
	u    []int
	rmin []int // by size
	top  []int // top[k]: the k largest weights summed
	free int
}

// seat and unseat keep free as split seats entrant i and takes it back.
func (d *weights) seat(i int)   { d.free -= d.u[i] }
func (d *weights) unseat(i int) { d.free += d.u[i] }

// beyond reports whether the entrants not seated cannot be seated below
// bound with c seated (the tables left counted in left), when tab (of w,
// m entrants), seated already, is being filled to size (nil: none is).
func (d *weights) beyond(c, bound int, left []int, tab []int, size int, w []int, m int) bool {
	at := c*dualScale + d.free
	for s, k := range left {
		at += k * d.rmin[s]
	}
	if tab != nil {
		in, u := 0, 0 // tab's meetings, and its weights
		for k, a := range tab {
			u += d.u[a]
			for _, b := range tab[:k] {
				in += w[a*m+b]
			}
		}
		at += u - in*dualScale + max(d.rmin[size], in*dualScale-u-d.top[size-len(tab)])
	}
	return at > (bound-1)*dualScale
}

// weigh finds the weights of the m entrants of w (their meetings, m by m)
// for tables of the kinds' sizes, count of each in left, by subgradient
// steps from each entrant's half of its meetings with the entrants it met
// least (as seater.lower), toward a bound of than: each step lowers the
// weight of an entrant at the least-r tables and raises the others'. It
// keeps the weights of the best bound (nil when no table search finished
// within dualSteps) and returns the steps it took.
func weigh(w []int, m int, kinds []int, left []int, than int) (*weights, int) {
	u := make([]int, m)
	small := kinds[len(kinds)-1]
	for i := range m {
		ws := slices.Clone(w[i*m : i*m+m])
		ws = slices.Delete(ws, i, i+1)
		slices.Sort(ws)
		for _, v := range ws[:min(len(ws), small-1)] {
			u[i] += v * dualScale / 2
		}
	}
	var best *weights
	bestAt, steps, stall, shift := 0, dualSteps, 0, 0
	g := make([]int, m)
steps:
	for range dualRounds {
		at := 0
		for i := range g {
			g[i] = 1
			at += u[i]
		}
		rmin := make([]int, len(left))
		for _, size := range kinds {
			r, tab := cheapestOf(w, m, u, size, &steps)
			if steps < 0 {
				steps = 0
				break steps // rmin unknown: these weights bound nothing
			}
			rmin[size] = r
			at += left[size] * r
			for _, i := range tab {
				g[i] -= left[size]
			}
		}
		if best == nil || at > bestAt {
			best, bestAt, stall = &weights{u: slices.Clone(u), rmin: rmin}, at, 0
			for _, v := range u {
				best.free += v
			}
		} else if stall++; stall >= 5 {
			shift, stall = shift+1, 0
		}
		norm := 0
		for _, v := range g {
			norm += v * v
		}
		gap := (than+1)*dualScale - at
		if bestAt > (than-1)*dualScale || norm == 0 || gap <= 0 || shift > 8 {
			break
		}
		for i := range u {
			u[i] += (gap * g[i] / norm) >> shift
		}
	}
	if best != nil {
		sorted := slices.Clone(best.u)
		slices.Sort(sorted)
		slices.Reverse(sorted)
		best.top = make([]int, m+1)
		for k, v := range sorted {
			best.top[k+1] = best.top[k] + v
		}
	}
	return best, dualSteps - steps
}

// cheapestOf is the least r (meetings times dualScale less the weights)
// of a table of size among the m entrants, and its entrants: branch and
// bound where a table open takes next each entrant left in order of what
// it adds (its meetings with those at the table less its weight), least
// first, each of the others still coming after it only; a branch stops
// when its r and the least the entrants still to add can bring (the
// fewest of what each adds now, meetings among them left out) reach the
// least found. Each entrant looked at costs a step.
func cheapestOf(w []int, m int, u []int, size int, steps *int) (int, []int) {
	all := make([]int, m)
	for i := range all {
		all[i] = i
	}
	best, found := 0, false
	var tab []int
	idx := make([]int, 0, size)
	bys := make([][][2]int, size) // scratch by depth
	nexts := make([][]int, size)
	var add func(cand []int, r int)
	add = func(cand []int, r int) {
		if len(idx) == size {
			if !found || r < best {
				best, found, tab = r, true, slices.Clone(idx)
			}
			return
		}
		need := size - len(idx)
		*steps -= len(cand)
		if len(cand) < need || *steps < 0 {
			return
		}
		by := slices.Grow(bys[len(idx)][:0], len(cand))[:len(cand)] // what it adds, and the entrant
		bys[len(idx)] = by
		for k, i := range cand {
			v := -u[i]
			for _, e := range idx {
				v += w[e*m+i] * dualScale
			}
			by[k] = [2]int{v, i}
		}
		slices.SortFunc(by, func(a, b [2]int) int {
			if a[0] != b[0] {
				return a[0] - b[0]
			}
			return a[1] - b[1]
		})
		next := slices.Grow(nexts[len(idx)][:0], len(by))[:len(by)]
		nexts[len(idx)] = next
		for k, p := range by {
			next[k] = p[1]
		}
		for k := 0; k+need <= len(by); k++ {
			lb := r
			for _, p := range by[k : k+need] {
				lb += p[0]
			}
			if found && lb >= best {
				return // a later entrant adds no less
			}
			idx = append(idx, by[k][1])
			add(next[k+1:], r+by[k][0])
			idx = idx[:len(idx)-1]
		}
	}
	add(all, 0)
	return best, tab
}
