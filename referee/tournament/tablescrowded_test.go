package tournament

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"testing"
)

// crowdedDigest is the digest of every round of tournaments at tables
// where most seatings repeat a meeting (those of BenchmarkTablesCrowded30
// and 60, and one at tables of 4), drawn by the newest method, computed
// by the code of commit e01eab29: TestDrawsUnchanged's fields seldom
// spend the whole search's budgets, so it cannot tell a change of what a
// step of the search costs; these do.
const crowdedDigest = "ac0a6eb3497fe07560b3447c548a8806a0acd75a3adf7e45bf690e5b0215c287"

// TestTablesCrowdedDrawsPinned_Issue24 holds the tables draw's search to
// its steps where its budgets run out (the least search's resplits, the
// search for a seating with none, the weighted whole search): a change
// that makes it faster must seat every round of these tournaments as the
// code of commit e01eab29 did (crowdedDigest).
func TestTablesCrowdedDrawsPinned_Issue24(t *testing.T) {
	if raceEnabled {
		t.Skip("one goroutine's searches, nothing to detect: make check runs it without -race (make content)")
	}
	h := sha256.New()
	for _, c := range []struct{ n, k, rounds int }{{30, 5, 9}, {60, 5, 13}, {44, 4, 11}} {
		tr := newT(t, c.n, Settings{Format: Tables, Table: c.k, NumRounds: c.rounds})
		r := rand.New(rand.NewPCG(1, uint64(c.n)))
		for round := 1; round <= c.rounds; round++ {
			rd, err := tr.NextRound()
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprint(h, rd.Pairing, pinned(rd.Matches))
			tr.Rounds = append(tr.Rounds, rd)
			play(tr, r)
		}
	}
	if got := fmt.Sprintf("%x", h.Sum(nil)); got != crowdedDigest {
		t.Errorf("the crowded tournaments' draws changed: digest %s, want %s", got, crowdedDigest)
	}
}
