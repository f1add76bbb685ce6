package tournament

import (
	"cmp"
	"math"
	"slices"
)

// dual is certify's second lower bound on the cost of a seating, a
// Lagrangian one written apart from the draw's (package tables, seater.lower): with a
// weight u[i] for each entrant, a seating's cost is the sum of every u
// plus, over its tables T, r(T) = cost(T) - u(T) (u(T) the weights of T's
// entrants, each entrant at one table), and each table's r is at least
// the least r of any table of its size among the entrants (rmin), so any
// seating costs at least sum(u) + the sum over the sizes of their count
// of tables times rmin. That holds for every u; newDual raises the bound
// by subgradient steps and keeps the best u. Its largest value is the
// bound of the linear relaxation of seating as a set partition (each
// table a column), far above the half-sum of cheapest meetings when
// everyone met many (the crowded late rounds).
type dual struct {
	u    []float64
	rmin map[int]float64 // by table size
	top  []float64       // top[k]: the k largest u summed
	at   float64         // the bound at the root
}

// cheapestTable is the least r = cost - u of a table of s entrants not
// seated (w their meetings), and the table: branch and bound over the
// entrants by u, largest first, where each entrant still to add adds at
// least -u (meetings are never negative).
func cheapestTable(w [][]int, u []float64, seated []bool, s int) (float64, []int) {
	var cand []int
	for i := range u {
		if seated == nil || !seated[i] {
			cand = append(cand, i)
		}
	}
	best := math.Inf(1)
	if len(cand) < s {
		return best, nil
	}
	slices.SortStableFunc(cand, func(a, b int) int { return cmp.Compare(u[b], u[a]) })
	var table []int
	idx := make([]int, 0, s)
	var add func(from int, r float64)
	add = func(from int, r float64) {
		if len(idx) == s {
			if r < best {
				best, table = r, slices.Clone(idx)
			}
			return
		}
		need := s - len(idx)
		for k := from; k+need <= len(cand); k++ {
			lb := r
			for _, j := range cand[k : k+need] {
				lb -= u[j]
			}
			if lb >= best {
				return // a later k has no larger u
			}
			i := cand[k]
			r2 := r - u[i]
			for _, a := range idx {
				r2 += float64(w[a][i])
			}
			idx = append(idx, i)
			add(k+1, r2)
			idx = idx[:len(idx)-1]
		}
	}
	add(0, 0)
	return best, table
}

// newDual raises the bound for m entrants (w their meetings) at tables
// of sizes toward than (a cost the bound tries to reach) by at most iters
// subgradient steps (Polyak's step, halved when ten steps bring no
// better bound), starting from each entrant's half-sum of its cheapest
// meetings at the smallest table.
func newDual(w [][]int, sizes []int, than, iters int) *dual {
	m := len(w)
	count := map[int]int{}
	small := sizes[0]
	for _, s := range sizes {
		count[s]++
		small = min(small, s)
	}
	kinds := make([]int, 0, len(count))
	for s := range count {
		kinds = append(kinds, s)
	}
	slices.Sort(kinds)
	u := make([]float64, m)
	for i := range u {
		ws := slices.Clone(w[i])
		ws = slices.Delete(ws, i, i+1)
		slices.Sort(ws)
		for _, v := range ws[:min(len(ws), small-1)] {
			u[i] += float64(v) / 2
		}
	}
	d := &dual{u: slices.Clone(u), rmin: map[int]float64{}, at: math.Inf(-1)}
	theta, stall := 1.0, 0
	g := make([]float64, m)
	for it := 0; it < iters; it++ {
		bound := 0.0
		for i := range g {
			g[i] = 1
			bound += u[i]
		}
		rmin := map[int]float64{}
		for _, s := range kinds {
			r, table := cheapestTable(w, u, nil, s)
			rmin[s] = r
			bound += float64(count[s]) * r
			for _, i := range table {
				g[i] -= float64(count[s])
			}
		}
		if bound > d.at+1e-9 {
			d.at, d.rmin, stall = bound, rmin, 0
			copy(d.u, u)
		} else if stall++; stall >= 10 {
			theta, stall = theta/2, 0
		}
		norm := 0.0
		for _, v := range g {
			norm += v * v
		}
		if reaches(d.at, than) || norm == 0 || theta < 1e-4 {
			break
		}
		step := theta * (float64(than) + 1 - bound) / norm
		for i := range u {
			u[i] += step * g[i]
		}
	}
	d.top = make([]float64, m+1)
	sorted := slices.Clone(d.u)
	slices.SortFunc(sorted, func(a, b float64) int { return cmp.Compare(b, a) })
	for k, v := range sorted {
		d.top[k+1] = d.top[k] + v
	}
	return d
}

// reaches reports whether a bound (a float, from sums of weights) shows
// that no seating costs less than than: costs are whole, so a bound above
// than-1 (less a rounding margin) does.
func reaches(bound float64, than int) bool {
	return bound > float64(than)-1+1e-6
}
