package store

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// What a move writes at scale (issue 25): every page a commit wrote is
// found by two readings of the file (PageReading, WrittenPages: the
// figures of referee bench --pages), and a move writes in each tree it
// touches one leaf (two when it splits, more when it overflows) and at
// most the branches above it, one a level (and the one a split adds). So
// the branch pages a move writes grow with the trees' depth, which the
// number of games sets: the cause of the move's cost at scale. Variation:
// 40 to 1,500 games, records and entries of generated sizes, moves in
// games drawn at random, with and without a mail and a wake-up.
func TestMoveWritesTheDepthOfItsTrees_Issue25(t *testing.T) {
	if testing.Short() {
		t.Skip("builds stores of up to 1,500 games")
	}
	if raceEnabled {
		t.Skip("one goroutine's commits, 28 s under the detector against 6 s: make check runs it without -race (make content)")
	}
	rng := rand.New(rand.NewPCG(25, 7))
	text := func(n int) []byte {
		var b strings.Builder
		for b.Len() < n {
			fmt.Fprintf(&b, `{"seat":%d,"card":"c%d","n":%d},`, rng.IntN(4), rng.IntN(90), rng.IntN(1e6))
		}
		return []byte(b.String()[:n])
	}
	var branches []float64
	for _, games := range []int{40, 300, 1500} {
		db, err := Open(filepath.Join(t.TempDir(), "referee.db"), &Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		recs := map[string][]byte{}
		for k := 0; k < games; k += 100 {
			if err := db.Update(func(tx *Tx) error {
				for j := k; j < min(games, k+100); j++ {
					id := fmt.Sprintf("s%d", j)
					recs[id] = append([]byte(`{"id":"`+id+`","table":[`), text(2000+rng.IntN(6000))...)
					if err := tx.PutGame(id, recs[id]); err != nil {
						return err
					}
					for e := 0; e < 2+rng.IntN(6); e++ {
						if _, err := tx.AppendLog(id, text(100+rng.IntN(500))); err != nil {
							return err
						}
					}
					if err := tx.MarkInbound(InboundRecord{Keys: []string{fmt.Sprintf("join:%s:%d", id, rng.Uint64())}, Game: id, Outcome: "applied"}); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
		page := int64(db.PageSize())
		moves, sum := 25, 0
		for m := 0; m < moves; m++ {
			id := fmt.Sprintf("s%d", rng.IntN(games))
			before, err := db.PageReading()
			if err != nil {
				t.Fatal(err)
			}
			ws0 := db.WriteStats()
			if err := db.Update(func(tx *Tx) error {
				rec := recs[id]
				at := 20 + rng.IntN(len(rec)-40)
				recs[id] = append(append(append([]byte{}, rec[:at]...), text(10+rng.IntN(60))...), rec[at+5:]...)
				if err := tx.PutGame(id, recs[id]); err != nil {
					return err
				}
				if _, err := tx.AppendLog(id, text(100+rng.IntN(500))); err != nil {
					return err
				}
				if err := tx.MarkInbound(InboundRecord{Keys: []string{fmt.Sprintf("move:%s:%d", id, m)}, Game: id, Outcome: "applied"}); err != nil {
					return err
				}
				if m%2 == 0 {
					if _, err := tx.Enqueue("outbox", Item{Key: id, To: "a@example.test", Payload: text(3000)}); err != nil {
						return err
					}
					return tx.SetWake(id, t0.Add(time.Duration(m)*time.Minute))
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			ws := db.WriteStats().Sub(ws0)
			after, err := db.PageReading()
			if err != nil {
				t.Fatal(err)
			}
			written, splits := WrittenPages(before, after)
			n := 0
			for _, c := range written {
				n += c
			}
			// Every page the commit wrote but its meta page is found.
			if int64(n+1)*page != ws.DiskBytes {
				t.Fatalf("%d games, move %d: %d pages found, the commit wrote %d bytes: %v", games, m, n, ws.DiskBytes, written)
			}
			depth := depths(db)
			for owner, c := range written {
				bucket, kind, _ := strings.Cut(owner, " ")
				if kind != "branch" {
					continue
				}
				if c > depth[bucket]-1+splits[bucket] {
					t.Errorf("%d games, move %d: %d branch pages of %s, %d levels deep, %d leaves added", games, m, c, bucket, depth[bucket], splits[bucket])
				}
				sum += c
			}
		}
		branches = append(branches, float64(sum)/float64(moves))
		if err := db.Check(); err != nil {
			t.Error(err)
		}
		db.Close()
	}
	// The branches a move writes grow with the number of games.
	if !(branches[0] < branches[1] && branches[1] < branches[2]) {
		t.Errorf("branch pages a move at 40, 300, 1,500 games: %.2f", branches)
	}
	t.Logf("branch pages a move at 40, 300, 1,500 games: %.2f", branches)
}

// depths returns each top-level bucket's depth (levels, a leaf alone 1).
func depths(db *DB) map[string]int {
	out := map[string]int{}
	db.View(func(tx *Tx) error {
		return tx.tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			out[string(name)] = b.Stats().Depth
			return nil
		})
	})
	return out
}
