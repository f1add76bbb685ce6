package tournament

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/crillab/gophersat/solver"

	"github.com/pbem-referee/referee/engine"
)

// certify looks for a seating of es at tables of sizes with fewer repeated
// meetings than than (a draw's), one that gives the small tables' seats
// as keep says when keep is not nil (exactTables), within limit branches.
// It is the test's own branch and bound, written apart from the draw's
// (package tables, seater.split): the entrants who met the most open the tables first,
// and a branch stops when its meetings and the fewest the entrants left
// must still seat (each sits with the smallest table's size less one of
// the others left, at its least meetings with them; each meeting counts
// for two) reach than, or when its meetings and the Lagrangian bound of
// the entrants left (newDual, its own weights) do. A root bound that
// reaches than certifies without a search. It returns a cheaper seating
// if it finds one, and
// whether the search was whole: nil and true certify that no seating
// costs less than than.
func certify(es, sizes []int, met map[[2]int]int, h []seatHistory, keep []int, than, limit int) ([][]int, bool) {
	es = slices.Clone(es)
	deg := map[int]int{}
	for _, a := range es {
		for _, b := range es {
			if a != b {
				deg[a] += met[pairKey(a, b)]
			}
		}
	}
	slices.SortStableFunc(es, func(a, b int) int { return deg[b] - deg[a] })
	m := len(es)
	w := make([][]int, m)
	for i := range w {
		w[i] = make([]int, m)
		for j := range w[i] {
			if i != j {
				w[i][j] = met[pairKey(es[i], es[j])]
			}
		}
	}
	left := map[int]int{}
	var kinds []int
	for _, s := range sizes {
		if left[s] == 0 {
			kinds = append(kinds, s)
		}
		left[s]++
	}
	slices.Sort(kinds)
	d := newDual(w, sizes, than, 300)
	if reaches(d.at, than) {
		return nil, true
	}
	seated := make([]bool, m)
	// free is the weights of the entrants not seated, and the least r of
	// the tables left (dual).
	free := func() float64 {
		f := 0.0
		for i, v := range d.u {
			if !seated[i] {
				f += v
			}
		}
		for s, k := range left {
			f += float64(k) * d.rmin[s]
		}
		return f
	}
	// rest is the fewest meetings the entrants not seated must still seat.
	rest := func() int {
		small := 0
		for s, k := range left {
			if k > 0 && (small == 0 || s < small) {
				small = s
			}
		}
		sum := 0
		for i := range m {
			if seated[i] {
				continue
			}
			var ws []int
			for j := range m {
				if j != i && !seated[j] {
					ws = append(ws, w[i][j])
				}
			}
			slices.Sort(ws)
			for _, v := range ws[:min(len(ws), small-1)] {
				sum += v
			}
		}
		return (sum + 1) / 2
	}
	var tabs [][]int
	var found [][]int
	steps := 0
	var open func(cost int) bool // true: stop (found, or out of steps)
	open = func(cost int) bool {
		steps++
		if steps > limit {
			return true
		}
		first := slices.Index(seated, false)
		if first < 0 {
			if keep == nil || slices.Equal(shortSeats(tabs, h), keep) {
				found = slices.Clone(tabs)
				return true
			}
			return false
		}
		if reaches(float64(cost)+free(), than) || cost+rest() >= than {
			return false
		}
		seated[first] = true
		defer func() { seated[first] = false }()
		for _, s := range kinds {
			if left[s] == 0 {
				continue
			}
			left[s]--
			idx := []int{first}
			uP := d.u[first]
			var choose func(from, c int) bool
			choose = func(from, c int) bool {
				steps++
				if steps > limit {
					return true
				}
				if c >= than {
					return false
				}
				// the open table's r is at least rmin, and at least its
				// r so far less the largest weights it may still add.
				rP := float64(c-cost) - uP
				if reaches(float64(cost)+uP+free()+max(d.rmin[s], rP-d.top[s-len(idx)]), than) {
					return false
				}
				if len(idx) == s {
					tab := make([]int, s)
					for k, i := range idx {
						tab[k] = es[i]
					}
					tabs = append(tabs, tab)
					stop := open(c)
					tabs = tabs[:len(tabs)-1]
					return stop
				}
				for i := from; i < m; i++ {
					if seated[i] {
						continue
					}
					add := 0
					for _, a := range idx {
						add += w[a][i]
					}
					seated[i] = true
					idx = append(idx, i)
					uP += d.u[i]
					stop := choose(i+1, c+add)
					uP -= d.u[i]
					idx = idx[:len(idx)-1]
					seated[i] = false
					if stop {
						return true
					}
				}
				return false
			}
			stop := choose(first+1, cost)
			left[s]++
			if stop {
				return true
			}
		}
		return false
	}
	open(0)
	return found, found != nil || steps <= limit
}

// middleStats counts, over the rounds of middle-sized fields, how each
// compares with certify.
type middleStats struct {
	rounds, zero, certified, cheaper, unknown int
	// of the unknown, missed: the solver (seatBelow) finds a seating with
	// no repeated meeting; unavoidable: it proves every seating has one.
	missed, unavoidable int
	drawn               int // repeated meetings seated
	names               []string
}

// againstCertified plays iters random tournaments of 17 to 60 entrants at
// tables (of 3, 4 or 5; small tables of any size the game allows, one
// short only, or none and byes; scaled or not; withdrawals; four to ten
// rounds of random results) and checks every round pairing draws (pairing
// as Replay passes it) with certify: a round with no repeated meeting
// seats the least; one with some is certified the least when certify
// finds no cheaper seating of its entrants in a whole search of at most
// limit branches, counted cheaper when it finds one, unknown when the
// search is cut.
func againstCertified(t *testing.T, iters, limit int, pairing string) middleStats {
	r := rand.New(rand.NewPCG(24, 60))
	var st middleStats
	for iter := 0; iter < iters; iter++ {
		table := 3 + r.IntN(3)
		n := 17 + r.IntN(44)
		nr := 4 + r.IntN(7)
		tr := newT(t, n, Settings{Format: Tables, Table: table, NumRounds: nr})
		switch r.IntN(3) {
		case 0:
			tr.MinTable = table // byes
		case 1:
			tr.MinTable = table - 1
		}
		if r.IntN(4) == 0 {
			tr.Scaled = false
		}
		tr.Seed = fmt.Sprint("middle", iter)
		tr.Commitment = engine.Commitment(tr.Seed)
		for round := 1; round <= nr; round++ {
			if r.IntN(4) == 0 {
				withdrawOne(tr, round, r)
			}
			rd, err := tr.nextRound(pairing)
			if err != nil {
				t.Fatalf("iter %d round %d: %v", iter, round, err)
			}
			met, h := tr.meetings(), tr.seatHistories()
			var tabs [][]int
			var es, sizes []int
			for _, m := range rd.Matches {
				if m.State != MatchBye {
					tabs = append(tabs, m.Seats)
					es = append(es, m.Seats...)
					sizes = append(sizes, len(m.Seats))
				}
			}
			var keep []int
			if tr.Scaled {
				keep = shortSeats(tabs, h)
			}
			got := tableCost(tabs, met)
			st.rounds++
			st.drawn += got
			name := fmt.Sprintf("seed %q, %d entrants at tables of %d (min %d), scaled %v, round %d: %d repeated meetings", tr.Seed, n, table, tr.MinTable, tr.Scaled, round, got)
			if got == 0 {
				st.zero++
			} else {
				better, whole := certify(es, sizes, met, h, keep, got, limit)
				switch {
				case better != nil:
					st.cheaper++
					st.names = append(st.names, fmt.Sprintf("%s, %v seats %d", name, better, tableCost(better, met)))
				case whole:
					st.certified++
				default:
					st.unknown++
					free, status := seatBelow(es, sizes, met, h, keep, 1)
					switch status {
					case solver.Sat:
						st.missed++
						name = fmt.Sprintf("%s, not certified; the solver seats none: %v", name, free)
					case solver.Unsat:
						st.unavoidable++
						name += ", not certified; the solver proves one unavoidable"
					}
					st.names = append(st.names, name)
				}
			}
			tr.Rounds = append(tr.Rounds, rd)
			play(tr, r)
		}
		if pairing == pairingNewest {
			if err := Replay(tr); err != nil {
				t.Fatalf("seed %q: %v", tr.Seed, err)
			}
		}
	}
	t.Logf("%q: %d rounds of 17 to 60 entrants: %d with no repeated meeting, %d certified the least (%d repeated meetings in all), %d where a seating costs less, %d not certified (%d where a seating has none, %d where one is unavoidable)",
		pairing, st.rounds, st.zero, st.certified, st.drawn, st.cheaper, st.unknown, st.missed, st.unavoidable)
	return st
}

// TestTablesMiddleCertified_Issue24 holds the draw of the middle-sized
// fields (17 to 60 entrants: too many seatings to search whole, often
// too few tables for the Hajnal-Szemeredi bound of
// TestTablesNoRematchAtLarge_Issue24) to the least repeated meetings,
// round by round on 50 random tournaments (againstCertified): certify finds no
// cheaper seating of any round drawn now (PairingDual), and names by
// count the rounds it cannot certify; of those, a SAT solver (seatBelow)
// tells whether a seating with no repeated meeting exists, and in none
// does the draw miss it (package tables, seater.free). The draw of the method before
// (PairingLeast, resplits only) is checked too, and certify finds cheaper
// seatings of some of its rounds: the check finds them where they are.
func TestTablesMiddleCertified_Issue24(t *testing.T) {
	if raceEnabled {
		t.Skip("one goroutine's search, nothing to detect: make check runs it without -race (make content)")
	}
	st := againstCertified(t, 50, 300_000, pairingNewest)
	for _, n := range st.names {
		t.Log(n)
	}
	if st.cheaper > 0 {
		t.Errorf("%d of %d rounds seat more repeated meetings than a seating certify found", st.cheaper, st.rounds)
	}
	// The search for a seating with no repeated meeting (package tables, seater.free)
	// finds one wherever the solver does: without it the draw missed two
	// (seed "middle5" round 6, "middle40" round 8).
	if st.missed > 0 {
		t.Errorf("%d of %d rounds seat a repeated meeting where the solver seats none", st.missed, st.rounds)
	}
	if st.zero+st.certified < st.rounds*4/5 {
		t.Errorf("%d of %d rounds certified: the test proves little", st.zero+st.certified, st.rounds)
	}
	if old := againstCertified(t, 30, 300_000, PairingLeast); old.cheaper == 0 {
		t.Errorf("certify finds no cheaper seating of a round drawn by %q: the check compares nothing", PairingLeast)
	}
}
