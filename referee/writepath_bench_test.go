package referee

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store"
	"github.com/pbem-referee/referee/store/pagefile"
)

// BenchmarkWritePerMove measures what the store writes to disk for one
// player's move (issue 25, "one lean write path"): disk-B/move is every
// page the commits wrote (bbolt's page allocations plus a meta page per
// commit: store.WriteStats), data-B/move the log entries and outbox rows
// the move created, and disk/data their ratio (the target: at most 4).
// Every game, two players, the moves of the greedy bot, games started
// again as they end (the starts are not counted). Then every mail queued
// is delivered as the dispatch loop records it (an item this process
// enqueued: its attempt with its outcome, one transaction):
// disk-B/delivery, against mail-B/delivery the mail's own size. Its log
// names the buckets a move touched and the pages it wrote in each (leaf,
// branch, nested: store.DB.PageOwners), the figures to choose by.
func BenchmarkWritePerMove(b *testing.B) {
	for _, name := range []string{"brewcrafters", "dicebrewing", "fromage", "heavenale"} {
		b.Run(name, func(b *testing.B) {
			h := newBenchHarness(b, &store.Options{NoSync: true, InitialMmapSize: 1 << 30})
			moves := h.newBenchMoves(name, "w")
			var sum store.WriteStats
			touched := map[string]int{}
			pages := map[string]int{}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				req := moves.next()
				ws0 := h.db.WriteStats()
				roots0, release := h.db.BucketRoots()
				pages0, err := h.db.PageOwners()
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := h.r.Process(context.Background(), req); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				roots1, release1 := h.db.BucketRoots()
				pages1, err := h.db.PageOwners()
				if err != nil {
					b.Fatal(err)
				}
				for name, n := range pagefile.Added(pages0, pages1) {
					pages[name] += n
				}
				for _, name := range store.Touched(roots0, roots1) {
					touched[name]++
				}
				release()
				release1()
				ws := h.db.WriteStats().Sub(ws0)
				sum.Commits += ws.Commits
				sum.DiskBytes += ws.DiskBytes
				sum.DataBytes += ws.DataBytes
				b.StartTimer()
			}
			// The mails' deliveries, as the dispatch loop records them:
			// one transaction each (the items are fresh).
			b.StopTimer()
			deliveries, delivered := 0, store.WriteStats{}
			for {
				var due []store.Item
				h.db.View(func(tx *store.Tx) error {
					due, _ = tx.Due(OutboxQueue, h.clock.Now().Add(1000*time.Hour), 100)
					return nil
				})
				if len(due) == 0 {
					break
				}
				for _, it := range due {
					ws0 := h.db.WriteStats()
					now := h.clock.Now()
					// A fresh item (store.DB.TakeFresh): its first attempt
					// is recorded with its outcome, in one transaction.
					if err := h.db.Update(func(tx *store.Tx) error {
						if _, err := tx.Attempt(OutboxQueue, it.ID, now, now.Add(time.Minute)); err != nil {
							return err
						}
						_, err := tx.Finish(OutboxQueue, it.ID, store.Sent, now, now.Add(time.Hour), "")
						return err
					}); err != nil {
						b.Fatal(err)
					}
					ws := h.db.WriteStats().Sub(ws0)
					delivered.DiskBytes += ws.DiskBytes
					delivered.DataBytes += int64(len(it.Payload))
					deliveries++
				}
			}
			b.ReportMetric(float64(delivered.DiskBytes)/float64(max(1, deliveries)), "disk-B/delivery")
			b.ReportMetric(float64(delivered.DataBytes)/float64(max(1, deliveries)), "mail-B/delivery")
			n := float64(b.N)
			b.ReportMetric(float64(sum.DiskBytes)/n, "disk-B/move")
			b.ReportMetric(float64(sum.DataBytes)/n, "data-B/move")
			b.ReportMetric(float64(sum.DiskBytes)/max(1, float64(sum.DataBytes)), "disk/data")
			b.ReportMetric(float64(sum.Commits)/n, "commits/move")
			b.ReportMetric(float64(len(touched)), "buckets")
			var per []string
			for name, c := range touched {
				per = append(per, fmt.Sprintf("%s %.2f", name, float64(c)/n))
			}
			slices.Sort(per)
			b.Logf("buckets touched per move (b.N=%d): %s", b.N, strings.Join(per, ", "))
			per = per[:0]
			for name, c := range pages {
				per = append(per, fmt.Sprintf("%s %.2f", name, float64(c)/n))
			}
			slices.Sort(per)
			b.Logf("pages written per move (b.N=%d; and a meta page per commit): %s", b.N, strings.Join(per, ", "))
		})
	}
}
