package store

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"
)

// TestGameCountsKeptAtCommit_Issue24: the counts by status, kept in the
// transaction and written to games.count once before it commits, are the
// counts of the games' statuses, read in the transaction (after every
// change) and after it, through Update and Group, when a transaction
// fails (nothing of it kept), and after the indexes are forgotten and
// built again in the same transaction; GameCount is their sum.
func TestGameCountsKeptAtCommit_Issue24(t *testing.T) {
	db := open(t)
	statuses := []string{"forming", "running", "paused", "over", "aborted"}
	model := map[string]string{} // game -> status, committed
	want := func(m map[string]string) map[string]int {
		out := map[string]int{}
		for _, s := range m {
			out[s]++
		}
		return out
	}
	r := rand.New(rand.NewPCG(24, 25))
	bad := 0
	check := func(where string, got, w map[string]int) {
		if !maps.Equal(got, w) {
			if bad++; bad <= 3 {
				t.Errorf("%s: counts %v, want %v", where, got, w)
			}
		}
	}
	// GameCount sums the counts without their map (eachCount).
	checkSum := func(where string, tx *Tx, w int) {
		if got := tx.GameCount(); tx.GameIndexBuilt() && got != w {
			if bad++; bad <= 3 {
				t.Errorf("%s: GameCount %d, want %d", where, got, w)
			}
		}
	}
	errFail := errors.New("fail")
	for round := range 60 {
		next := maps.Clone(model)
		fail := r.IntN(6) == 0
		fn := func(tx *Tx) error {
			next = maps.Clone(model)
			for range r.IntN(40) {
				if r.IntN(60) == 0 {
					if err := tx.ForgetGameIndex(); err != nil {
						return err
					}
					for id, s := range next {
						if err := tx.IndexGame(id, GameIndex{Game: "toy", Status: s}); err != nil {
							return err
						}
					}
				}
				id := fmt.Sprintf("G%03d", r.IntN(120))
				s := statuses[r.IntN(len(statuses))]
				if err := tx.IndexGame(id, GameIndex{Game: "toy", Status: s}); err != nil {
					return err
				}
				next[id] = s
				check(fmt.Sprintf("round %d in the transaction", round), tx.GameCounts(), want(next))
				checkSum(fmt.Sprintf("round %d in the transaction", round), tx, len(next))
			}
			if fail {
				return errFail
			}
			return nil
		}
		var err error
		if r.IntN(2) == 0 {
			err = db.Update(fn)
		} else {
			err = db.Group(fn)
		}
		if fail != (err != nil) {
			t.Fatalf("round %d: %v", round, err)
		}
		if !fail {
			model = next
		}
		_ = db.View(func(tx *Tx) error {
			check(fmt.Sprintf("round %d after", round), tx.GameCounts(), want(model))
			checkSum(fmt.Sprintf("round %d after", round), tx, len(model))
			return nil
		})
	}
	if bad > 0 {
		t.Errorf("%d counts wrong", bad)
	}
}
