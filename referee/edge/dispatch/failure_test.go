package dispatch

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/store"
)

// TestLoopReadsTheFailureShape: an attempt whose error is permanent in the
// core's one shape (referee.IsPermanent) is retired as failed even when
// the sender did not set Attempt.Permanent; a transient one is retried.
func TestLoopReadsTheFailureShape(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		db := openStore(t)
		start := time.Now()
		perm := enqueue(t, db, "perm", start)
		temp := enqueue(t, db, "temp", start)
		l, err := New(Options{Store: db, Queue: "outbox", Workers: 1, MinBackoff: time.Minute, MaxBackoff: time.Hour,
			GiveUpAfter: 24 * time.Hour, Retention: time.Hour, ShutdownGrace: time.Second,
			Deliver: func(ctx context.Context, it store.Item) Attempt {
				if it.Key == "perm" {
					return Attempt{Err: fmt.Errorf("send: %w", referee.Permanent("no such recipient"))}
				}
				return Attempt{Err: fmt.Errorf("connect: refused")}
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		go l.Run(ctx)
		settle(l) // the outcomes ride in a later commit
		if it := item(t, db, perm); it.State != store.Failed {
			t.Errorf("permanent by shape: %+v", it)
		}
		if it := item(t, db, temp); it.State != store.Pending {
			t.Errorf("transient: %+v", it)
		}
		cancel()
		synctest.Wait()
	})
}
