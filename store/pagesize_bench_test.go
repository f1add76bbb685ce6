package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkPageSizeAtScale (issue 25, pagesize.go) compares the page
// sizes on a store of many live games, where a move lands in the middle
// of every bucket (not at its end, as in BenchmarkWritePerMove's few
// games): 20,000 games of records of 2-8 KB, a few log entries each, a
// de-duplication key and a mail each. Every op is one move of a random
// game in one commit (its record put, a log entry appended, a random
// de-duplication key and a VERP id recorded, a mail of 3.7 KB queued),
// then the reads of the next input of another random game (its record,
// its log, a de-duplication key looked up). disk-B/move is what the
// commits wrote, data-B/move the log entries and queue rows they added,
// file-MB the file after the load.
func BenchmarkPageSizeAtScale(b *testing.B) {
	const games = 20000
	for _, ps := range []int{4096, 1024} {
		b.Run(fmt.Sprint(ps), func(b *testing.B) {
			db, err := Open(filepath.Join(b.TempDir(), "s.db"), &Options{NoSync: true, PageSize: ps})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			rng := rand.New(rand.NewPCG(1, 25))
			recs := make([][]byte, games)
			var keys []string
			mail := bytes.Repeat([]byte("m"), 3700)
			for i := 0; i < games; i += 1000 {
				err := db.Update(func(tx *Tx) error {
					for g := i; g < i+1000; g++ {
						id := fmt.Sprintf("g%d", g)
						recs[g] = record(rng, 2000+rng.IntN(6000))
						if err := tx.PutGame(id, recs[g]); err != nil {
							return err
						}
						for range 3 {
							if _, err := tx.AppendLog(id, record(rng, 100+rng.IntN(400))); err != nil {
								return err
							}
						}
						k := fmt.Sprintf("msgid:<%x@players.test>", rng.Uint64())
						keys = append(keys, k)
						if err := tx.MarkInbound(InboundRecord{Keys: []string{k}, Game: id, Outcome: "applied"}); err != nil {
							return err
						}
						if _, err := tx.Enqueue("outbox", Item{Key: k, To: "ann@example.test", Payload: mail, Created: t0}); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			size, _ := db.Size()
			ws0 := db.WriteStats()
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				g := rng.IntN(games)
				id := fmt.Sprintf("g%d", g)
				recs[g] = mutate(rng, recs[g])
				err := db.Update(func(tx *Tx) error {
					if err := tx.PutGame(id, recs[g]); err != nil {
						return err
					}
					if _, err := tx.AppendLog(id, record(rng, 100+rng.IntN(400))); err != nil {
						return err
					}
					k := fmt.Sprintf("msgid:<%x@players.test>", rng.Uint64())
					if err := tx.MarkInbound(InboundRecord{Keys: []string{k}, Game: id, Outcome: "applied"}); err != nil {
						return err
					}
					if err := tx.PutVERP(fmt.Sprintf("%x", rng.Uint64()), VERPRecord{To: "ann@example.test", Key: k, Sent: t0}); err != nil {
						return err
					}
					_, err := tx.Enqueue("outbox", Item{Key: k, To: "ann@example.test", Payload: mail, Created: t0.Add(time.Duration(n) * time.Second)})
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
				r := fmt.Sprintf("g%d", rng.IntN(games))
				db.View(func(tx *Tx) error {
					if _, err := tx.Game(r); err != nil {
						b.Fatal(err)
					}
					tx.Log(r, 1, func(uint64, []byte) error { return nil })
					tx.Seen(keys[rng.IntN(len(keys))])
					return nil
				})
			}
			b.StopTimer()
			ws := db.WriteStats().Sub(ws0)
			b.ReportMetric(float64(ws.DiskBytes)/float64(b.N), "disk-B/move")
			b.ReportMetric(float64(ws.DataBytes)/float64(b.N), "data-B/move")
			b.ReportMetric(float64(ws.DiskBytes)/float64(max(1, ws.DataBytes)), "disk/data")
			b.ReportMetric(float64(size)/(1<<20), "file-MB")
		})
	}
}
