package dispatch

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pbem-referee/referee/store"
)

// Outcomes ride (the package doc's rule, issue 25): a delivery's outcome
// starts no commit of its own; it is written by the store's next commit
// (the intake's, here a Group call), or LaterWithin after it when none
// comes, or at once when the loop's in-flight set is full (the bound on
// what a crash resends is unchanged: the items stay in the set until
// their outcomes are on record). In a synctest bubble, at 1 to 3
// workers, for each of the three ways.
func TestOutcomesRideInTheNextCommit_Issue25(t *testing.T) {
	for workers := 1; workers <= 3; workers++ {
		for _, by := range []string{"intake", "timer", "full"} {
			t.Run(fmt.Sprintf("%d-%s", workers, by), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					db := openStore(t)
					bound := InFlightBound(workers)
					n := workers // every one delivered at once, the set not full
					if by == "full" {
						n = bound + 1
					}
					var ids []uint64
					for i := range n {
						ids = append(ids, enqueue(t, db, fmt.Sprintf("k%d", i), time.Now()))
					}
					l, err := New(Options{Store: db, Queue: "outbox", Workers: workers, MinBackoff: time.Minute,
						MaxBackoff: time.Hour, GiveUpAfter: time.Hour, Retention: time.Hour, ShutdownGrace: time.Second,
						Deliver: func(context.Context, store.Item) Attempt { return Attempt{} }})
					if err != nil {
						t.Fatal(err)
					}
					before := db.WriteStats()
					ctx, cancel := context.WithCancel(t.Context())
					defer cancel()
					go l.Run(ctx)
					synctest.Wait()
					sent := func() (k int) {
						for _, id := range ids {
							if item(t, db, id).State == store.Sent {
								k++
							}
						}
						return k
					}
					// The loop's first prune is a commit of its own.
					commits := func() int64 { return db.WriteStats().Sub(before).Commits - 1 }
					start := time.Now()
					switch by {
					case "full":
						// The outcomes of the full set were written at once,
						// with no wait for the timer, and the last item
						// went out: at most the bound waits in flight, so at
						// least n-bound outcomes are on record (more when
						// the hurried commit found them all; outcomes that
						// arrive while it runs ride in the next).
						if st, got := l.Stats(), sent(); got < n-bound || st.InFlight > int64(bound) || st.Delivering != 0 ||
							int(st.Sent)+int(st.InFlight) != n || !time.Now().Equal(start) {
							t.Fatalf("full set: %d on record, %+v after %v, want %d or more at once and all %d out",
								got, st, time.Since(start), n-bound, n)
						}
						return
					default:
						if got, c := sent(), commits(); got != 0 || c != 0 {
							t.Fatalf("%d outcomes on record in %d commits before any other commit, want none", got, c)
						}
						if st := l.Stats(); st.InFlight != int64(n) || st.Delivering != 0 {
							t.Fatalf("stats %+v, want %d outcomes waiting", st, n)
						}
					}
					if by == "intake" {
						if err := db.Group(func(tx *store.Tx) error { return tx.PutGame("g", []byte(`{}`)) }); err != nil {
							t.Fatal(err)
						}
					} else {
						time.Sleep(store.LaterWithin)
					}
					synctest.Wait()
					if got, c := sent(), commits(); got != n || c != 1 {
						t.Errorf("%s: %d of %d outcomes on record in %d commits, want all in 1", by, got, n, c)
					}
				})
			})
		}
	}
}
