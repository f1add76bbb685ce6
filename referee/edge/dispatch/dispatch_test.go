package dispatch

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pbem-referee/referee/store"
)

func openStore(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func enqueue(t *testing.T, db *store.DB, key string, at time.Time) uint64 {
	t.Helper()
	var id uint64
	if err := db.Update(func(tx *store.Tx) error {
		var err error
		id, err = tx.Enqueue("outbox", store.Item{Key: key, To: "x@example.test", Payload: []byte("m"), Created: at})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return id
}

func item(t *testing.T, db *store.DB, id uint64) store.Item {
	t.Helper()
	var it store.Item
	db.View(func(tx *store.Tx) error {
		var err error
		it, err = tx.QueueItem("outbox", id)
		return err
	})
	return it
}

func TestBackoff(t *testing.T) {
	for _, c := range []struct {
		n    int
		r    float64
		want time.Duration
	}{{1, 0, 30 * time.Second}, {2, 0, time.Minute}, {3, 0.5, 3 * time.Minute}, {20, 0, 3 * time.Hour}, {20, 0.999, 6*time.Hour - time.Duration(0.001*float64(3*time.Hour))}} {
		if got := Backoff(c.n, time.Minute, 6*time.Hour, c.r); got != c.want {
			t.Errorf("Backoff(%d, r=%v) = %v, want %v", c.n, c.r, got, c.want)
		}
	}
}

// The outbox's retry delays (1 min to 6 h).
func TestBackoffBounds(t *testing.T) {
	lo, hi := time.Minute, 6*time.Hour
	for n, want := range []time.Duration{1: time.Minute, 2: 2 * time.Minute, 3: 4 * time.Minute, 9: 256 * time.Minute, 10: 6 * time.Hour, 50: 6 * time.Hour} {
		if want == 0 {
			continue
		}
		if got := Backoff(n, lo, hi, 0); got != want/2 {
			t.Errorf("Backoff(%d, r=0) = %v, want %v", n, got, want/2)
		}
		if got := Backoff(n, lo, hi, 0.999999); got > want || got < want*99/100 {
			t.Errorf("Backoff(%d, r=1) = %v, want about %v", n, got, want)
		}
	}
}

// The watcher's reconnect delays (1 s to 5 min).
func TestBackoffReconnectBounds(t *testing.T) {
	for n, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 4: 8 * time.Second, 9: 256 * time.Second, 10: 5 * time.Minute, 60: 5 * time.Minute} {
		lo := Backoff(n, time.Second, 5*time.Minute, 0)
		hi := Backoff(n, time.Second, 5*time.Minute, 0.99999)
		if lo != want/2 || hi > want || hi < want*99/100 {
			t.Errorf("Backoff(%d) in [%v, %v], want [%v, %v]", n, lo, hi, want/2, want)
		}
	}
	if !slices.IsSorted([]time.Duration{Backoff(1, time.Second, time.Hour, 0.5), Backoff(2, time.Second, time.Hour, 0.5), Backoff(3, time.Second, time.Hour, 0.5)}) {
		t.Error("backoff does not grow")
	}
}

// The attempt is recorded before the delivery starts; a transient failure
// is retried after the backoff (or the receiver's Retry-After, when
// longer), then delivered; a permanent one is retired as failed at once.
func TestLoopOutcomes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		db := openStore(t)
		start := time.Now()
		flaky := enqueue(t, db, "flaky", start)
		bad := enqueue(t, db, "bad", start)
		var mu sync.Mutex
		calls := map[string]int{}
		var reports []Report
		l, err := New(Options{Store: db, Queue: "outbox", Workers: 2, MinBackoff: time.Minute, MaxBackoff: time.Hour,
			GiveUpAfter: 24 * time.Hour, Retention: time.Hour, ShutdownGrace: time.Second,
			Deliver: func(ctx context.Context, it store.Item) Attempt {
				mu.Lock()
				calls[it.Key]++
				n := calls[it.Key]
				mu.Unlock()
				if it.Attempts != n || it.LastError != "attempt in progress" {
					t.Errorf("%s: attempt %d not recorded before I/O: %+v", it.Key, n, it)
				}
				switch {
				case it.Key == "bad":
					return Attempt{Err: errors.New("550 no"), Permanent: true}
				case n == 1:
					return Attempt{Err: errors.New("451 later"), RetryAfter: 2 * time.Hour}
				}
				return Attempt{Detail: "250 ok"}
			},
			Done: func(r Report) { mu.Lock(); reports = append(reports, r); mu.Unlock() },
		})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		go l.Run(ctx)
		settle(l)
		if it := item(t, db, bad); it.State != store.Failed || it.LastError != "550 no" {
			t.Fatalf("permanent failure: %+v", it)
		}
		it := item(t, db, flaky)
		if it.State != store.Pending || it.Due.Sub(start) != 2*time.Hour {
			t.Fatalf("transient failure: due after %v: %+v", it.Due.Sub(start), it)
		}
		time.Sleep(2*time.Hour + time.Second)
		settle(l)
		if it := item(t, db, flaky); it.State != store.Sent {
			t.Fatalf("retry: %+v", it)
		}
		cancel()
		synctest.Wait()
		if st := l.Stats(); st.Sent != 1 || st.Failed != 1 || st.Retried != 1 || st.InFlight != 0 {
			t.Fatalf("stats %+v", st)
		}
		if len(reports) != 3 || reports[2].Attempt.Detail != "250 ok" {
			t.Fatalf("reports %+v", reports)
		}
	})
}

// A delivery that panics is recovered and retried; an item older than
// GiveUpAfter is retired as failed on its next transient failure.
func TestLoopPanicsAndGivingUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		db := openStore(t)
		old := enqueue(t, db, "old", time.Now().Add(-48*time.Hour))
		boom := enqueue(t, db, "boom", time.Now())
		l, _ := New(Options{Store: db, Queue: "outbox", Workers: 1, MinBackoff: time.Minute, MaxBackoff: time.Hour,
			GiveUpAfter: 24 * time.Hour, Retention: time.Hour,
			Deliver: func(ctx context.Context, it store.Item) Attempt {
				if it.Key == "boom" {
					panic("kaboom")
				}
				return Attempt{Err: errors.New("421 busy")}
			},
		})
		ctx, cancel := context.WithCancel(t.Context())
		go l.Run(ctx)
		settle(l)
		if it := item(t, db, old); it.State != store.Failed || it.LastError == "" {
			t.Fatalf("old item: %+v", it)
		}
		if it := item(t, db, boom); it.State != store.Pending || it.LastError != "panic: kaboom" {
			t.Fatalf("panicking item: %+v", it)
		}
		cancel()
		synctest.Wait()
		if st := l.Stats(); st.Panics != 1 {
			t.Fatalf("stats %+v", st)
		}
	})
}

// One write transaction per delivery (issue 25): the first attempt of an
// item this process enqueued is presumed (store.DB.TakeFresh) and
// recorded with its outcome; an item of an earlier process (the store
// reopened, as after a crash) has its attempt on record before the I/O,
// a commit of its own. Each outcome (sent, failed, retried) records the
// attempt either way.
func TestOneCommitPerFreshDelivery(t *testing.T) {
	for _, reopen := range []bool{false, true} {
		for _, outcome := range []string{"sent", "failed", "retry"} {
			t.Run(fmt.Sprintf("reopen-%v-%s", reopen, outcome), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					path := filepath.Join(t.TempDir(), "d.db")
					db, err := store.Open(path, &store.Options{NoSync: true})
					if err != nil {
						t.Fatal(err)
					}
					const n = 3
					var ids []uint64
					for i := range n {
						ids = append(ids, enqueue(t, db, fmt.Sprintf("k%d", i), time.Now()))
					}
					if reopen {
						db.Close()
						if db, err = store.Open(path, &store.Options{NoSync: true}); err != nil {
							t.Fatal(err)
						}
					}
					defer db.Close()
					before := db.WriteStats().Commits
					l, err := New(Options{Store: db, Queue: "outbox", Workers: 1, MinBackoff: time.Minute, MaxBackoff: time.Hour,
						GiveUpAfter: 24 * time.Hour, Retention: time.Hour, ShutdownGrace: time.Second,
						Deliver: func(ctx context.Context, it store.Item) Attempt {
							if got := item(t, db, it.ID).Attempts; reopen != (got == 1) {
								t.Errorf("%s: %d attempts on record during the I/O (reopened %v)", it.Key, got, reopen)
							}
							switch outcome {
							case "failed":
								return Attempt{Err: errors.New("550 no"), Permanent: true}
							case "retry":
								return Attempt{Err: errors.New("451 later")}
							}
							return Attempt{}
						}})
					if err != nil {
						t.Fatal(err)
					}
					ctx, cancel := context.WithCancel(t.Context())
					go l.Run(ctx)
					synctest.Wait()
					cancel()
					synctest.Wait()
					// Besides the deliveries: the prune at the start. At
					// most: a worker is free while its outcome commits, so
					// the next delivery's records may share that commit.
					got, want := db.WriteStats().Commits-before, int64(n+1)
					if reopen {
						want = 2*n + 1
					}
					if got > want {
						t.Errorf("%d commits for %d deliveries, want at most %d", got, n, want)
					}
					for _, id := range ids {
						if it := item(t, db, id); it.Attempts != 1 || (outcome == "retry") != (it.State == store.Pending) {
							t.Errorf("item %d after the delivery: %+v", id, it)
						}
					}
				})
			})
		}
	}
}

// A worker is free once its I/O ended, within the in-flight bound (the
// package doc's rules, issue 25): with the store's commits held from the
// first delivery's I/O on, so that no outcome can be committed, every due
// item up to InFlightBound(workers) is started and none beyond, at 1, 2
// and 3 workers; once the store is released every outcome is committed,
// every item is delivered once.
func TestWorkerFreeWhileItsOutcomeCommits_Issue25(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		t.Run(fmt.Sprintf("workers-%d", workers), func(t *testing.T) {
			db := openStore(t)
			bound := InFlightBound(workers)
			n := bound + 3
			var ids []uint64
			for i := range n {
				ids = append(ids, enqueue(t, db, fmt.Sprintf("k%d", i), time.Now()))
			}
			held, release := make(chan struct{}), make(chan struct{})
			var mu sync.Mutex
			started := map[string]int{}
			l, err := New(Options{Store: db, Queue: "outbox", Workers: workers, MinBackoff: time.Minute, MaxBackoff: time.Hour,
				GiveUpAfter: 24 * time.Hour, Retention: time.Hour, ShutdownGrace: time.Second,
				Deliver: func(ctx context.Context, it store.Item) Attempt {
					mu.Lock()
					started[it.Key]++
					first := len(started) == 1
					mu.Unlock()
					if first {
						// From now on no commit of the store ends until release.
						go db.Group(func(tx *store.Tx) error { close(held); <-release; return nil })
					}
					// No delivery ends before the hold (a worker started
					// with the first could else record its outcome first).
					<-held
					return Attempt{}
				}})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			go l.Run(ctx)
			count := func() int {
				mu.Lock()
				defer mu.Unlock()
				return len(started)
			}
			for end := time.Now().Add(10 * time.Second); count() < bound && time.Now().Before(end); {
				time.Sleep(5 * time.Millisecond)
			}
			// Give the loop time to start more than the bound, if it would.
			time.Sleep(150 * time.Millisecond)
			if got := count(); got != bound {
				t.Errorf("with the store's commits held, %d of %d deliveries started (%d workers), want the bound %d",
					got, n, workers, bound)
			}
			if st := l.Stats(); st.InFlight > int64(bound) {
				t.Errorf("%d in flight, bound %d", st.InFlight, bound)
			}
			close(release)
			for end := time.Now().Add(10 * time.Second); l.Stats().Sent < uint64(n) && time.Now().Before(end); {
				time.Sleep(5 * time.Millisecond)
			}
			cancel()
			for _, id := range ids {
				if it := item(t, db, id); it.State != store.Sent || it.Attempts != 1 {
					t.Errorf("item %d: %+v, want sent after one attempt", id, it)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if len(started) != n {
				t.Errorf("%d of %d items delivered after the release", len(started), n)
			}
			for k, c := range started {
				if c != 1 {
					t.Errorf("%s delivered %d times", k, c)
				}
			}
		})
	}
}

// settle waits (in a synctest bubble) until the loop's outcomes are on
// record (Loop.Settle: they ride in the store's next commit, written at
// the latest store.LaterWithin after them, the package doc's rule on
// outcomes) and what follows them has run.
func settle(l *Loop) {
	synctest.Wait()
	l.Settle(context.Background())
	synctest.Wait()
}

// TestSettleWaitsForTheOutcomesToRide_Issue25 (the rule on outcomes):
// once a delivery's I/O has ended its outcome may not be on record yet (it
// waits for the store's next commit); Loop.Settle returns when it is, and
// does not wait for a delivery still under way; a cancelled context ends
// the wait. Variation: one to four workers, each item sent or failed.
func TestSettleWaitsForTheOutcomesToRide_Issue25(t *testing.T) {
	for workers := 1; workers <= 4; workers++ {
		synctest.Test(t, func(t *testing.T) {
			db := openStore(t)
			var ids []uint64
			for i := range workers {
				ids = append(ids, enqueue(t, db, fmt.Sprint("m", i), time.Now()))
			}
			held := enqueue(t, db, "held", time.Now())
			release := make(chan struct{})
			l, err := New(Options{Store: db, Queue: "outbox", Workers: workers + 1, MinBackoff: time.Minute, MaxBackoff: time.Hour,
				GiveUpAfter: 24 * time.Hour, Retention: time.Hour, ShutdownGrace: time.Second,
				Deliver: func(ctx context.Context, it store.Item) Attempt {
					switch {
					case it.Key == "held":
						<-release
					case it.ID%2 == 0:
						return Attempt{Err: errors.New("550 no"), Permanent: true}
					}
					return Attempt{Detail: "250 ok"}
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			go l.Run(ctx)
			synctest.Wait()
			waiting := 0
			for _, id := range ids {
				if it := item(t, db, id); it.State == store.Pending {
					waiting++
				}
			}
			if st := l.Stats(); waiting == 0 || st.InFlight != int64(workers+1) || st.Delivering != 1 {
				t.Fatalf("%d of %d outcomes waiting to ride, stats %+v: the test sees no wait", waiting, workers, st)
			}
			if err := l.Settle(t.Context()); err != nil {
				t.Fatal(err)
			}
			for _, id := range ids {
				if it := item(t, db, id); it.State != store.Sent && it.State != store.Failed {
					t.Errorf("after Settle, item %d: %+v", id, it)
				}
			}
			if it := item(t, db, held); it.State != store.Pending || l.Stats().Delivering != 1 {
				t.Errorf("the held delivery: %+v, stats %+v", it, l.Stats())
			}
			close(release)
			synctest.Wait() // the released outcome waits to ride
			stop, cancelStop := context.WithCancel(t.Context())
			cancelStop()
			if err := l.Settle(stop); !errors.Is(err, context.Canceled) {
				t.Errorf("Settle with a cancelled context: %v", err)
			}
			settle(l)
			if it := item(t, db, held); it.State != store.Sent {
				t.Errorf("the released delivery after settle: %+v", it)
			}
			cancel()
			synctest.Wait()
		})
	}
}
