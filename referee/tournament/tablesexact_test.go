package tournament

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament/tables"
)

// tableCost is what the tables draw lowers: the meetings before this
// round of every two entrants seated at one table (a pair that met twice
// counts twice).
func tableCost(tabs [][]int, met map[[2]int]int) int { return tables.Cost(tabs, met) }

// shortSeats lists (sorted) how often the entrants seated at the tables
// smaller than the largest had sat at a small table before: the count the
// scaled draw keeps even (doc.go, "Tables of different sizes").
func shortSeats(tabs [][]int, h []seatHistory) []int {
	big := 0
	for _, tab := range tabs {
		big = max(big, len(tab))
	}
	var out []int
	for _, tab := range tabs {
		if len(tab) < big {
			for _, e := range tab {
				out = append(out, h[e].short)
			}
		}
	}
	slices.Sort(out)
	return out
}

// exactTables is the least tableCost over every partition of es into
// tables of sizes (brute force: the first entrant not yet seated takes a
// table of each size left with every choice of its mates). keep, when not
// nil, is the multiset of shortSeats the partition must have. It returns
// the least cost and a partition that has it, or -1 when no partition
// keeps it.
func exactTables(es, sizes []int, met map[[2]int]int, h []seatHistory, keep []int) (int, [][]int) {
	left := map[int]int{}
	for _, s := range sizes {
		left[s]++
	}
	seated := make([]bool, len(es))
	var tabs [][]int
	best := -1
	var bestTabs [][]int
	var rec func(cost int)
	rec = func(cost int) {
		if best >= 0 && cost >= best {
			return
		}
		first := slices.Index(seated, false)
		if first < 0 {
			if keep == nil || slices.Equal(shortSeats(tabs, h), keep) {
				best, bestTabs = cost, slices.Clone(tabs)
			}
			return
		}
		seated[first] = true
		for s, k := range left {
			if k == 0 {
				continue
			}
			left[s]--
			tab := []int{es[first]}
			var choose func(from, c int)
			choose = func(from, c int) {
				if len(tab) == s {
					tabs = append(tabs, slices.Clone(tab))
					rec(c)
					tabs = tabs[:len(tabs)-1]
					return
				}
				for i := from; i < len(es); i++ {
					if seated[i] {
						continue
					}
					add := 0
					for _, a := range tab {
						add += met[pairKey(a, es[i])]
					}
					seated[i] = true
					tab = append(tab, es[i])
					choose(i+1, c+add)
					tab = tab[:len(tab)-1]
					seated[i] = false
				}
			}
			choose(first+1, cost)
			left[s]++
		}
		seated[first] = false
	}
	rec(0)
	return best, bestTabs
}

// exactStats counts, over random tournaments at tables, the rounds a
// draw seats with more repeated meetings than the exact search
// (exactTables) and those where the exact search seats none.
type exactStats struct {
	rounds, withRematch int
	costly, gap         int      // rounds costlier than the exact search, by up to gap
	avoidable           []string // rounds with a repeated meeting the exact search avoids
	least               int      // rounds recorded PairingDual
}

// count compares a round's tables with the exact search's.
func (st *exactStats) count(name string, tabs [][]int, want, got int, best [][]int) {
	if got > want {
		st.costly++
		st.gap = max(st.gap, got-want)
		if want == 0 {
			st.avoidable = append(st.avoidable, fmt.Sprintf("%s: %v, not %v", name, tabs, best))
		}
	}
}

// againstExact plays iters random tournaments at tables (up to maxN
// entrants; tables of 3, 4 or 5; with and without the tables one short
// the game allows, scaled or not; two to six rounds of random results
// with shared places; a withdrawal now and then) and compares every
// round NextRound draws, and the one the single swaps alone draw
// (PairingExact) from the same record, with the exact search over every
// partition of the same seated entrants into tables of the same sizes,
// where the scaled draw's promise holds too (the small tables' seats go
// to entrants with the same history of small tables).
func againstExact(t *testing.T, iters, maxN int) (drawn, swaps exactStats) {
	r := rand.New(rand.NewPCG(24, 3))
	for iter := 0; iter < iters; iter++ {
		table := 3 + r.IntN(3)
		n := table + r.IntN(maxN+1-table)
		nr := 2 + r.IntN(5)
		tr := newT(t, n, Settings{Format: Tables, Table: table, NumRounds: nr})
		if r.IntN(3) == 0 {
			tr.MinTable = table // the game allows no smaller table: byes
		}
		if r.IntN(4) == 0 {
			tr.Scaled = false // a record from before scaled tables
		}
		tr.Seed = fmt.Sprint("tables", iter)
		tr.Commitment = engine.Commitment(tr.Seed)
		for round := 1; round <= nr; round++ {
			if r.IntN(8) == 0 && len(tr.ActiveIn(round)) > table {
				withdrawOne(tr, round, r)
			}
			rd, err := tr.NextRound()
			if err != nil {
				t.Fatalf("iter %d round %d: %v", iter, round, err)
			}
			old, err := tr.nextRound(PairingExact)
			if err != nil {
				t.Fatalf("iter %d round %d: %v", iter, round, err)
			}
			met, h := tr.meetings(), tr.seatHistories()
			var tabs, oldTabs [][]int
			var es, sizes []int
			for k, m := range rd.Matches {
				if m.State == MatchBye {
					continue
				}
				tabs = append(tabs, m.Seats)
				oldTabs = append(oldTabs, old.Matches[k].Seats)
				es = append(es, m.Seats...)
				sizes = append(sizes, len(m.Seats))
			}
			var keep []int
			if tr.Scaled {
				keep = shortSeats(tabs, h)
				if !slices.Equal(keep, shortSeats(oldTabs, h)) {
					t.Fatalf("iter %d round %d: the small tables' seats went to %v, the swaps give them to %v", iter, round, keep, shortSeats(oldTabs, h))
				}
			}
			want, best := exactTables(es, sizes, met, h, keep)
			got := tableCost(tabs, met)
			name := fmt.Sprintf("seed %q, %d entrants, tables of %d (min %d), scaled %v, round %d", tr.Seed, n, table, tr.MinTable, tr.Scaled, round)
			if want < 0 || want > got {
				t.Fatalf("%s: the exact search missed the draw's seating %v (%d against %d)", name, tabs, want, got)
			}
			for _, st := range []*exactStats{&drawn, &swaps} {
				st.rounds++
				if want > 0 {
					st.withRematch++
				}
			}
			drawn.count(name, tabs, want, got, best)
			swaps.count(name, oldTabs, want, tableCost(oldTabs, met), best)
			if rd.Pairing == PairingDual {
				drawn.least++
			} else if fmt.Sprint(rd.Matches) != fmt.Sprint(old.Matches) {
				t.Fatalf("%s: recorded %q but not drawn as the swaps draw it", name, rd.Pairing)
			}
			tr.Rounds = append(tr.Rounds, rd)
			play(tr, r)
		}
		if err := Replay(tr); err != nil {
			t.Fatalf("iter %d: %v", iter, err)
		}
	}
	t.Logf("%d rounds, %d where every seating repeats a meeting; drawn: %d with more than the exact search (by up to %d), %d of them avoidably, %d recorded %q; the swaps alone: %d (by up to %d), %d avoidably",
		drawn.rounds, drawn.withRematch, drawn.costly, drawn.gap, len(drawn.avoidable), drawn.least, PairingDual, swaps.costly, swaps.gap, len(swaps.avoidable))
	return drawn, swaps
}

// TestTablesAgainstExact_Issue24 holds the tables draw to issue 24's
// promise on 500 random tournaments of 3 to 13 entrants (againstExact):
// every round it seats has the least repeated meetings of any seating of
// its entrants (the field is searched whole, doc.go "Who sits with
// whom"), so none repeats a meeting another seating avoids
// (NoAvoidableRematch). Every tournament replays (Replay), its rounds
// recorded PairingDual or drawn as the single swaps draw them. The
// swaps alone cost more in about one round in 50, some with an avoidable
// repeated meeting; the test checks it still finds them.
func TestTablesAgainstExact_Issue24(t *testing.T) {
	drawn, swaps := againstExact(t, 500, 13)
	if swaps.costly == 0 || drawn.least == 0 {
		t.Fatalf("no round where the swaps alone are beaten (%d) or recorded %q (%d): the test compares nothing", swaps.costly, PairingDual, drawn.least)
	}
	if drawn.costly > 0 {
		t.Errorf("%d of %d rounds cost more than the exact search, by up to %d", drawn.costly, drawn.rounds, drawn.gap)
	}
	t.Run("NoAvoidableRematch", func(t *testing.T) {
		for _, a := range drawn.avoidable {
			t.Errorf("a repeated meeting the exact search avoids: %s", a)
		}
	})
}

// TestTablesResplitAgainstExact_Issue24 measures the search of a field
// too large to be searched whole (each table with a repeated meeting
// seated anew with one or two others) on the small fields of
// againstExact, where the exact search tells the least: it seats the
// least there too (measured: in every one of the 2,007 rounds).
func TestTablesResplitAgainstExact_Issue24(t *testing.T) {
	defer tables.WholeAtMost(0)()
	drawn, _ := againstExact(t, 500, 13)
	if drawn.costly > 0 {
		t.Errorf("%d of %d rounds cost more than the exact search, by up to %d", drawn.costly, drawn.rounds, drawn.gap)
	}
	for _, a := range drawn.avoidable {
		t.Errorf("a repeated meeting the exact search avoids: %s", a)
	}
}
