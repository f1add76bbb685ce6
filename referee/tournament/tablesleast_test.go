package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/crillab/gophersat/solver"

	"github.com/pbem-referee/referee/engine"
)

// mostMet is the most entrants among es that one of es met before
// (distinct opponents, met holds the meetings before the round).
func mostMet(es []int, met map[[2]int]int) int {
	in := map[int]bool{}
	for _, e := range es {
		in[e] = true
	}
	deg := map[int]int{}
	for k := range met {
		if in[k[0]] && in[k[1]] {
			deg[k[0]]++
			deg[k[1]]++
		}
	}
	most := 0
	for _, d := range deg {
		most = max(most, d)
	}
	return most
}

// TestTablesNoRematchAtLarge_Issue24 plays 24 random tournaments, half of
// 16 to 200 entrants and half of 200 to 1,000, at tables of 3, 4 or 5 (small tables or byes, scaled or
// not, withdrawals, 6 to 9 rounds of random results): a field far too
// large to be searched whole. In every round with more tables than the
// most opponents one of its entrants has met, a seating with no repeated
// meeting exists (an equitable colouring of the meetings' graph with as
// many colours as tables, by the Hajnal-Szemeredi theorem, has the tables'
// sizes), and the draw seats none; the swaps alone seat some (counted).
func TestTablesNoRematchAtLarge_Issue24(t *testing.T) {
	if raceEnabled {
		t.Skip("one goroutine's draws and searches, nothing to detect: make check runs it without -race (make content)")
	}
	r := rand.New(rand.NewPCG(24, 1000))
	var rounds, checked, drawn, swaps, swapRounds, swapChecked, searched int
	var unavoidable, least int // repeated meetings in the rounds not checked
	for iter := 0; iter < 24; iter++ {
		table := 3 + iter%3
		n := 200 + r.IntN(801)
		if iter%2 == 1 {
			n = 16 + r.IntN(185)
		}
		nr := 6 + r.IntN(4)
		tr := newT(t, n, Settings{Format: Tables, Table: table, NumRounds: nr})
		if iter%4 == 3 {
			tr.MinTable = table // byes
		}
		if iter%5 == 4 {
			tr.Scaled = false
		}
		tr.Seed = fmt.Sprint("large", iter)
		tr.Commitment = engine.Commitment(tr.Seed)
		for round := 1; round <= nr; round++ {
			for range r.IntN(3) {
				withdrawOne(tr, round, r)
			}
			rd, err := tr.NextRound()
			if err != nil {
				t.Fatal(err)
			}
			old, err := tr.nextRound(PairingExact)
			if err != nil {
				t.Fatal(err)
			}
			met := tr.meetings()
			var tabs, oldTabs [][]int
			var es, sizes []int
			for k, m := range rd.Matches {
				if m.State != MatchBye {
					tabs = append(tabs, m.Seats)
					oldTabs = append(oldTabs, old.Matches[k].Seats)
					es = append(es, m.Seats...)
					sizes = append(sizes, len(m.Seats))
				}
			}
			rounds++
			got, before := tableCost(tabs, met), tableCost(oldTabs, met)
			drawn += got
			swaps += before
			if before > 0 {
				swapRounds++
			}
			if rd.Pairing == PairingDual {
				searched++
			}
			if len(tabs) > mostMet(es, met) {
				checked++
				if before > 0 {
					swapChecked++
				}
				if got > 0 {
					t.Errorf("seed %q, %d entrants at tables of %d, round %d: %d repeated meetings where a seating has none", tr.Seed, n, table, round, got)
				}
			} else if got > 0 {
				var keep []int
				if tr.Scaled {
					keep = shortSeats(tabs, tr.seatHistories())
				}
				// Where Hajnal-Szemeredi says nothing, the solver tells
				// whether a seating with none exists, and certify whether
				// one with fewer does.
				h := tr.seatHistories()
				if free, status := seatBelow(es, sizes, met, h, keep, 1); status != solver.Unsat {
					t.Errorf("seed %q, %d entrants at tables of %d, round %d: %d repeated meetings where the solver seats none (%v: %v)", tr.Seed, len(es), table, round, got, status, free)
				}
				unavoidable += got
				if better, whole := certify(es, sizes, met, h, keep, got, 300_000); better != nil {
					t.Errorf("seed %q, round %d: %d repeated meetings where %v seats %d", tr.Seed, round, got, better, tableCost(better, met))
				} else if whole {
					least += got
				}
			}
			tr.Rounds = append(tr.Rounds, rd)
			play(tr, r)
		}
		if err := Replay(tr); err != nil {
			t.Fatalf("seed %q: %v", tr.Seed, err)
		}
	}
	t.Logf("%d rounds (%d with more tables than anyone's opponents): %d repeated meetings drawn, %d recorded %q; the swaps alone: %d in %d rounds (%d of those checked); in the other rounds %d repeated meetings, each round with one proven unavoidable by the solver, %d of them in rounds certified the least", rounds, checked, drawn, searched, PairingDual, swaps, swapRounds, swapChecked, unavoidable, least)
	if checked*2 < rounds || swapChecked == 0 {
		t.Fatalf("%d of %d rounds checked, %d where the swaps alone seat a repeated meeting: the test proves little", checked, rounds, swapRounds)
	}
}

// TestTablesOldRoundsReplay_Issue24 draws tournaments at tables as the
// code before each newer method did: every round by the single swaps
// (PairingExact, before the least search), by the least search without
// lower bounds (PairingLeast, before PairingBound), then without the
// entrants' weights (PairingBound, before PairingDual). Each replays,
// although the newest draw now seats some of their rounds otherwise
// (counted), and a round the newest draw seats otherwise fails to replay
// when recorded with the newest draw's method.
func TestTablesOldRoundsReplay_Issue24(t *testing.T) {
	if raceEnabled {
		t.Skip("one goroutine's draws and searches, nothing to detect: make check runs it without -race (make content)")
	}
	for _, old := range []string{PairingExact, PairingLeast, PairingBound} {
		r := rand.New(rand.NewPCG(24, 7))
		differ, recorded := 0, 0
		for iter := 0; iter < 40; iter++ {
			table := 3 + iter%3
			n := table + 2 + r.IntN(60)
			nr := 3 + r.IntN(7)
			tr := newT(t, n, Settings{Format: Tables, Table: table, NumRounds: nr})
			if iter%4 == 3 {
				tr.MinTable = table
			}
			tr.Seed = fmt.Sprint("old", iter)
			tr.Commitment = engine.Commitment(tr.Seed)
			for round := 1; round <= nr; round++ {
				rd, err := tr.nextRound(old)
				if err != nil {
					t.Fatal(err)
				}
				now, err := tr.NextRound()
				if err != nil {
					t.Fatal(err)
				}
				if rd.Pairing != PairingExact && rd.Pairing != old {
					t.Fatalf("seed %q round %d: %q recorded %q", tr.Seed, round, old, rd.Pairing)
				}
				if rd.Pairing == old {
					recorded++
				}
				tr.Rounds = append(tr.Rounds, rd)
				if fmt.Sprint(now.Matches) != fmt.Sprint(rd.Matches) {
					differ++
					tr.Rounds[round-1].Pairing = now.Pairing
					if Replay(tr) == nil {
						t.Errorf("seed %q round %d: replays recorded %q though that draw seats it otherwise", tr.Seed, round, now.Pairing)
					}
					tr.Rounds[round-1].Pairing = rd.Pairing
				}
				play(tr, r)
			}
			if err := Replay(tr); err != nil {
				t.Errorf("%q, seed %q: %v", old, tr.Seed, err)
			}
		}
		t.Logf("%q: %d rounds recorded so, %d the newest draw seats otherwise, each replayed as drawn", old, recorded, differ)
		if differ == 0 || recorded == 0 {
			t.Fatalf("%q: no round the newest draw seats otherwise: the test proves nothing", old)
		}
	}
}
