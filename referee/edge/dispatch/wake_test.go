package dispatch

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pbem-referee/referee/store"
)

// The wake-up (the package doc's rule, issue 25): a running loop is woken
// by the commit that queues an item, with no Kick from the caller: the
// items queued go out at once, not at the loop's next look (MaxWait). In
// a synctest bubble, at 1 to 3 workers, 1 to 5 items, queued by each of
// the store's three ways to commit (Update, Group, a speculation's
// Commit), one transaction or one each; and a loop that stopped is no
// longer woken.
func TestWokenByTheCommitThatQueues_Issue25(t *testing.T) {
	ways := map[string]func(db *store.DB, fn func(tx *store.Tx) error) error{
		"update": (*store.DB).Update,
		"group":  (*store.DB).Group,
		"speculation": func(db *store.DB, fn func(tx *store.Tx) error) error {
			s, err := db.Speculate(fn)
			if err != nil {
				return err
			}
			return db.Commit(s, nil)
		},
	}
	for workers := 1; workers <= 3; workers++ {
		for n := 1; n <= 5; n++ {
			for way, commit := range ways {
				for _, one := range []bool{true, false} {
					t.Run(fmt.Sprintf("%d-%d-%s-%v", workers, n, way, one), func(t *testing.T) {
						synctest.Test(t, func(t *testing.T) {
							db := openStore(t)
							var delivered atomic.Int64
							l, err := New(Options{Store: db, Queue: "outbox", Workers: workers, MinBackoff: time.Minute,
								MaxBackoff: time.Hour, GiveUpAfter: time.Hour, Retention: time.Hour, ShutdownGrace: time.Second,
								Deliver: func(context.Context, store.Item) Attempt { delivered.Add(1); return Attempt{} }})
							if err != nil {
								t.Fatal(err)
							}
							ctx, cancel := context.WithCancel(t.Context())
							stopped := make(chan struct{})
							go func() { l.Run(ctx); close(stopped) }()
							synctest.Wait() // the loop sleeps: nothing is due
							start := time.Now()
							queue := func(from, to int) {
								err := commit(db, func(tx *store.Tx) error {
									for i := from; i < to; i++ {
										if _, err := tx.Enqueue("outbox", store.Item{Key: fmt.Sprintf("k%d", i), To: "x@example.test",
											Payload: []byte("m"), Created: start}); err != nil {
											return err
										}
									}
									return nil
								})
								if err != nil {
									t.Fatal(err)
								}
							}
							if one {
								queue(0, n)
							} else {
								for i := range n {
									queue(i, i+1)
								}
							}
							synctest.Wait()
							if got := delivered.Load(); got != int64(n) || !time.Now().Equal(start) {
								t.Fatalf("%d of %d items delivered after %v, want all at once", got, n, time.Since(start))
							}
							cancel()
							<-stopped
							queue(n, n+1)
							synctest.Wait()
							if got := delivered.Load(); got != int64(n) {
								t.Fatalf("a stopped loop delivered %d items, want %d", got, n)
							}
						})
					})
				}
			}
		}
	}
}
