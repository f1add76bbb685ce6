package tournament

import (
	"slices"

	"github.com/crillab/gophersat/solver"
)

// seatBelow asks a SAT solver (gophersat, pseudo-Boolean constraints)
// whether es can be seated at tables of sizes with fewer repeated
// meetings than than (met the meetings before), giving the small tables'
// seats as keep says when keep is not nil (shortSeats): the test's second
// check, written apart from the draw and from certify. A variable says
// that an entrant sits at a table: each entrant at one table, each table
// full; a pair that met sits at one table only if its own variable is
// true, and those variables weighted by the meetings sum to less than
// than. Tables of one size are told apart by their first entrant (a
// table takes an entrant only if the one before it of its size took an
// earlier one), which prunes only copies of a seating. It returns the
// seating it found, or nil when the solver proves there is none.
func seatBelow(es, sizes []int, met map[[2]int]int, h []seatHistory, keep []int, than int) ([][]int, solver.Status) {
	n, nt := len(es), len(sizes)
	x := func(i, t int) int { return i*nt + t + 1 }
	next := n*nt + 1
	var cs []solver.PBConstr
	for i := range n {
		var lits []int
		for t := range nt {
			lits = append(lits, x(i, t))
		}
		cs = append(cs, solver.Eq(lits, ones(len(lits)), 1)...)
	}
	for t, s := range sizes {
		var lits []int
		for i := range n {
			lits = append(lits, x(i, t))
		}
		cs = append(cs, solver.Eq(lits, ones(len(lits)), s)...)
		// the table before of the same size took an earlier entrant
		prev := -1
		for p := t - 1; p >= 0; p-- {
			if sizes[p] == s {
				prev = p
				break
			}
		}
		if prev < 0 {
			continue
		}
		for i := range n {
			cl := []int{-x(i, t)}
			for k := range i {
				cl = append(cl, x(k, prev))
			}
			cs = append(cs, solver.PropClause(cl...))
		}
	}
	var ys, ws []int
	for i := range n {
		for j := i + 1; j < n; j++ {
			m := met[pairKey(es[i], es[j])]
			if m == 0 {
				continue
			}
			y := 0
			if than > 1 {
				y = next
				next++
				ys, ws = append(ys, y), append(ws, m)
			}
			for t := range nt {
				if y == 0 {
					cs = append(cs, solver.PropClause(-x(i, t), -x(j, t)))
				} else {
					cs = append(cs, solver.PropClause(-x(i, t), -x(j, t), y))
				}
			}
		}
	}
	if than > 1 {
		cs = append(cs, solver.LtEq(ys, ws, than-1))
	}
	if keep != nil {
		big := slices.Max(sizes)
		want := map[int]int{}
		for _, v := range keep {
			want[v]++
		}
		by := map[int][]int{}
		for i, e := range es {
			for t, s := range sizes {
				if s < big {
					by[h[e].short] = append(by[h[e].short], x(i, t))
				}
			}
		}
		for v, lits := range by {
			cs = append(cs, solver.Eq(lits, ones(len(lits)), want[v])...)
		}
	}
	pb := solver.ParsePBConstrs(cs)
	s := solver.New(pb)
	st := s.Solve()
	if st != solver.Sat {
		return nil, st
	}
	model := s.Model()
	tabs := make([][]int, nt)
	for i, e := range es {
		for t := range nt {
			if model[x(i, t)-1] {
				tabs[t] = append(tabs[t], e)
			}
		}
	}
	return tabs, st
}

// ones is n weights of 1 (gophersat's Eq wants them).
func ones(n int) []int {
	w := make([]int, n)
	for i := range w {
		w[i] = 1
	}
	return w
}
