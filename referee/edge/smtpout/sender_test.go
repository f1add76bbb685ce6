package smtpout

import (
	"context"
	"errors"
	"fmt"
	"net/textproto"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

// fakeSender builds a Sender whose transport is fn, inside a synctest
// bubble, and runs it until the returned stop function is called.
func fakeSender(t *testing.T, o Options, fn deliverFunc) (*Sender, func()) {
	t.Helper()
	o.deliver = fn
	if o.Logger == nil {
		o.Logger = debugLogger(&testkit.SyncBuffer{})
	}
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return s, testkit.Run(t, s.Run)
}

func tempFail(text string) error {
	return &DeliveryError{Stage: stageRcpt, Code: 451, Err: &textproto.Error{Code: 451, Msg: text}}
}

// TestRetrySchedule checks, in fake time, that each attempt is recorded
// before the network I/O and that retries follow the jittered exponential
// backoff.
func TestRetrySchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		db := openStore(t)
		var calls []time.Time
		var results []Result
		var mu sync.Mutex
		id := enqueue(t, db, "<a@x>", "referee@example.test", "alice@example.test", []byte("Subject: x\r\n\r\nhi\r\n"), time.Now())
		_, stop := fakeSender(t, Options{Store: db, OnResult: func(r Result) {
			mu.Lock()
			results = append(results, r)
			mu.Unlock()
		}}, func(ctx context.Context, from, to string, msg []byte) (string, error) {
			now := time.Now()
			calls = append(calls, now)
			// The attempt is already on record, with a future due time;
			// the first, of an item this process enqueued, is presumed
			// and recorded with its outcome (store.DB.TakeFresh).
			it := item(t, db, id)
			if len(calls) == 1 {
				if it.Attempts != 0 {
					t.Errorf("call 1: the presumed attempt was recorded before I/O %+v", it)
				}
			} else if it.Attempts != len(calls) || it.LastError != "attempt in progress" || !it.Due.After(now) {
				t.Errorf("call %d: item before I/O %+v", len(calls), it)
			}
			if len(calls) <= 3 {
				return "", tempFail("busy")
			}
			return "250 2.0.0 Ok: queued", nil
		})
		time.Sleep(24 * time.Hour)
		synctest.Wait()
		stop()

		if len(calls) != 4 {
			t.Fatalf("%d calls, want 4", len(calls))
		}
		for i, base := range []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute} {
			gap := calls[i+1].Sub(calls[i])
			if gap < base/2 || gap > base {
				t.Errorf("gap %d = %v, want within [%v, %v]", i+1, gap, base/2, base)
			}
		}
		it := item(t, db, id)
		if it.State != store.Sent || it.Attempts != 4 || it.LastError != "" {
			t.Errorf("final item %+v", it)
		}
		var outcomes []string
		for _, r := range results {
			outcomes = append(outcomes, r.Outcome)
		}
		if got := strings.Join(outcomes, " "); got != "retry retry retry sent" {
			t.Errorf("outcomes %q", got)
		}
		if r := results[len(results)-1]; r.Latency != calls[3].Sub(calls[0]) || r.Reply != "250 2.0.0 Ok: queued" {
			t.Errorf("last result %+v", r)
		}
	})
}

func TestGiveUpAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		db := openStore(t)
		calls := 0
		var last Result
		s, stop := fakeSender(t, Options{Store: db, MinBackoff: time.Minute, MaxBackoff: 2 * time.Minute,
			GiveUpAfter: 10 * time.Minute, OnResult: func(r Result) { last = r }},
			func(context.Context, string, string, []byte) (string, error) {
				calls++
				return "", tempFail("mailbox busy")
			})
		id := enqueue(t, db, "<a@x>", "referee@example.test", "alice@example.test", []byte("x\r\n"), time.Now())
		s.Kick()
		time.Sleep(time.Hour)
		synctest.Wait()
		stop()
		it := item(t, db, id)
		if it.State != store.Failed || !strings.Contains(it.LastError, "gave up after") || !strings.Contains(it.LastError, "mailbox busy") {
			t.Errorf("item %+v", it)
		}
		if !last.GaveUp || last.Outcome != OutcomeFailed {
			t.Errorf("last result %+v", last)
		}
		// Between 10 min / 2 min and 10 min / 30 s attempts, plus the last.
		if calls < 6 || calls > 22 {
			t.Errorf("%d attempts in 10 minutes of backoff 30s..2m", calls)
		}
		if st := s.Stats(); st.Failed != 1 || st.Retried != uint64(calls-1) {
			t.Errorf("stats %+v after %d calls", st, calls)
		}
	})
}

func TestPermanentFailureIsFinal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		db := openStore(t)
		calls := 0
		var last Result
		s, stop := fakeSender(t, Options{Store: db, OnResult: func(r Result) { last = r }},
			func(context.Context, string, string, []byte) (string, error) {
				calls++
				return "", classify(stageRcpt, &textproto.Error{Code: 550, Msg: "5.1.1 <bob@example.test>: Recipient address rejected"})
			})
		id := enqueue(t, db, "<a@x>", "referee@example.test", "bob@example.test", []byte("x\r\n"), time.Now())
		s.Kick()
		time.Sleep(24 * time.Hour)
		synctest.Wait()
		stop()
		if calls != 1 {
			t.Errorf("%d calls, want 1", calls)
		}
		it := item(t, db, id)
		if it.State != store.Failed || !strings.Contains(it.LastError, "550 5.1.1") {
			t.Errorf("item %+v", it)
		}
		if last.Err == nil || last.Err.Code != 550 || last.Err.Enhanced != "5.1.1" || !last.Err.Permanent {
			t.Errorf("result error %+v", last.Err)
		}
	})
}

func TestBadItemsFailPermanently(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		db := openStore(t)
		calls := 0
		s, stop := fakeSender(t, Options{Store: db}, func(context.Context, string, string, []byte) (string, error) {
			calls++
			return "250 ok", nil
		})
		bad := []uint64{
			enqueue(t, db, "<a@x>", "referee@example.test", "bob@example.test>\r\nRCPT TO:<eve@evil.test", []byte("x\r\n"), time.Now()),
			enqueue(t, db, "<b@x>", "referee@example.test", "", []byte("x\r\n"), time.Now()),
			enqueue(t, db, "<c@x>", "referee@example.test", "bob@example.test", nil, time.Now()),
		}
		// No Meta["from"] and no DefaultFrom.
		var noFrom uint64
		if err := db.Update(func(tx *store.Tx) error {
			var err error
			noFrom, err = tx.Enqueue(DefaultQueue, store.Item{Key: "<d@x>", To: "bob@example.test", Payload: []byte("x\r\n"), Created: time.Now()})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		s.Kick()
		time.Sleep(time.Minute)
		synctest.Wait()
		stop()
		if calls != 0 {
			t.Errorf("the transport was called %d times for invalid items", calls)
		}
		for _, id := range append(bad, noFrom) {
			if it := item(t, db, id); it.State != store.Failed {
				t.Errorf("item %d: %+v, want failed", id, it)
			}
		}
	})
}

// TestCrashedAttemptWaitsForItsDue: an attempt recorded by a sender that
// then crashed is retried at the recorded due time, not earlier.
func TestCrashedAttemptWaitsForItsDue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		db := openStore(t)
		start := time.Now()
		id := enqueue(t, db, "<a@x>", "referee@example.test", "alice@example.test", []byte("x\r\n"), start)
		if err := db.Update(func(tx *store.Tx) error {
			_, err := tx.Attempt(DefaultQueue, id, start, start.Add(45*time.Second))
			return err
		}); err != nil {
			t.Fatal(err)
		}
		var at time.Time
		_, stop := fakeSender(t, Options{Store: db}, func(context.Context, string, string, []byte) (string, error) {
			at = time.Now()
			return "250 ok", nil
		})
		time.Sleep(time.Hour)
		synctest.Wait()
		stop()
		if got := at.Sub(start); got != 45*time.Second {
			t.Errorf("delivered after %v, want exactly at the recorded due time (45s)", got)
		}
		if it := item(t, db, id); it.State != store.Sent || it.Attempts != 2 {
			t.Errorf("item %+v", it)
		}
	})
}

// TestTimerAndKick: a future item is sent when due without any kick; a new
// item is sent at once after Kick, and at once without: the commit that
// queued it wakes the loop (dispatch's rule on the wake-up, issue 25;
// before it, only the safety wake-up did).
func TestTimerAndKick(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		db := openStore(t)
		start := time.Now()
		sentAt := map[string]time.Time{}
		var mu sync.Mutex
		s, stop := fakeSender(t, Options{Store: db}, func(_ context.Context, _, to string, _ []byte) (string, error) {
			mu.Lock()
			sentAt[to] = time.Now()
			mu.Unlock()
			return "250 ok", nil
		})
		if err := db.Update(func(tx *store.Tx) error {
			_, err := tx.Enqueue(DefaultQueue, store.Item{Key: "<f@x>", To: "future@example.test", Payload: []byte("x\r\n"),
				Meta: map[string]string{"from": ""}, Created: start, Due: start.Add(5 * time.Minute)})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		s.Kick() // the loop re-reads the store and arms its timer for +5m
		time.Sleep(10 * time.Minute)
		enqueue(t, db, "<k@x>", "referee@example.test", "kicked@example.test", []byte("x\r\n"), time.Now())
		s.Kick()
		synctest.Wait()
		kickedAt := time.Now()
		enqueue(t, db, "<u@x>", "referee@example.test", "unkicked@example.test", []byte("x\r\n"), time.Now())
		time.Sleep(2 * time.Hour)
		synctest.Wait()
		stop()
		if got := sentAt["future@example.test"].Sub(start); got != 5*time.Minute {
			t.Errorf("future item sent after %v, want 5m", got)
		}
		if got := sentAt["kicked@example.test"]; !got.Equal(kickedAt) {
			t.Errorf("kicked item sent at %v, want at once (%v)", got, kickedAt)
		}
		if got := sentAt["unkicked@example.test"].Sub(kickedAt); got != 0 {
			t.Errorf("unkicked item sent %v after enqueue, want at once (its commit wakes the loop)", got)
		}
	})
}

func TestPanicIsRecovered(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		db := openStore(t)
		calls := 0
		var logs testkit.SyncBuffer
		s, stop := fakeSender(t, Options{Store: db, Logger: debugLogger(&logs)}, func(context.Context, string, string, []byte) (string, error) {
			calls++
			if calls == 1 {
				panic("boom")
			}
			return "250 ok", nil
		})
		id := enqueue(t, db, "<a@x>", "referee@example.test", "alice@example.test", []byte("x\r\n"), time.Now())
		s.Kick()
		time.Sleep(time.Hour)
		synctest.Wait()
		stop()
		if st := s.Stats(); st.Panics != 1 || st.Sent != 1 || st.Retried != 1 {
			t.Errorf("stats %+v", st)
		}
		if it := item(t, db, id); it.State != store.Sent {
			t.Errorf("item %+v", it)
		}
		if !strings.Contains(logs.String(), "boom") {
			t.Errorf("the panic was not logged:\n%s", logs.String())
		}
	})
}

func TestWorkerLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		db := openStore(t)
		release := make(chan struct{})
		var mu sync.Mutex
		cur, peak, total := 0, 0, 0
		s, stop := fakeSender(t, Options{Store: db, Workers: 2}, func(context.Context, string, string, []byte) (string, error) {
			mu.Lock()
			cur++
			total++
			peak = max(peak, cur)
			mu.Unlock()
			<-release
			mu.Lock()
			cur--
			mu.Unlock()
			return "250 ok", nil
		})
		for i := range 5 {
			enqueue(t, db, fmt.Sprintf("<%d@x>", i), "referee@example.test", "alice@example.test", []byte("x\r\n"), time.Now())
		}
		s.Kick()
		synctest.Wait()
		if st := s.Stats(); st.InFlight != 2 {
			t.Errorf("in flight %d, want 2", st.InFlight)
		}
		close(release)
		synctest.Wait()
		stop()
		if peak != 2 || total != 5 {
			t.Errorf("peak concurrency %d (want 2), deliveries %d (want 5)", peak, total)
		}
	})
}

func TestShutdownGrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		db := openStore(t)
		// One delivery ends within the grace period, one never ends by
		// itself: it is cut when the grace period is over.
		s, stop := fakeSender(t, Options{Store: db, Workers: 2, ShutdownGrace: 10 * time.Second},
			func(ctx context.Context, _, to string, _ []byte) (string, error) {
				if to == "quick@example.test" {
					time.Sleep(3 * time.Second)
					return "250 ok", nil
				}
				<-ctx.Done()
				return "", classify(stageData, ctx.Err())
			})
		quick := enqueue(t, db, "<q@x>", "referee@example.test", "quick@example.test", []byte("x\r\n"), time.Now())
		stuck := enqueue(t, db, "<s@x>", "referee@example.test", "stuck@example.test", []byte("x\r\n"), time.Now())
		s.Kick()
		synctest.Wait()
		begin := time.Now()
		stop()
		if got := time.Since(begin); got != 10*time.Second {
			t.Errorf("Run returned %v after cancel, want the 10s grace", got)
		}
		if it := item(t, db, quick); it.State != store.Sent {
			t.Errorf("quick item %+v, want sent during the grace period", it)
		}
		if it := item(t, db, stuck); it.State != store.Pending || it.Attempts != 1 || !strings.Contains(it.LastError, "context canceled") {
			t.Errorf("stuck item %+v, want pending for a retry", it)
		}
	})
}

func TestPruneRetired(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		db := openStore(t)
		s, stop := fakeSender(t, Options{Store: db, Retention: time.Hour, PruneInterval: 30 * time.Minute},
			func(context.Context, string, string, []byte) (string, error) { return "250 ok", nil })
		id := enqueue(t, db, "<a@x>", "referee@example.test", "alice@example.test", []byte("x\r\n"), time.Now())
		s.Kick()
		time.Sleep(10 * time.Minute)
		synctest.Wait()
		if it := item(t, db, id); it.State != store.Sent {
			t.Fatalf("item %+v", it)
		}
		time.Sleep(2 * time.Hour)
		synctest.Wait()
		stop()
		err := db.View(func(tx *store.Tx) error {
			_, err := tx.QueueItem(DefaultQueue, id)
			return err
		})
		if !errors.Is(err, store.ErrNotFound) {
			t.Errorf("retired item still there after its retention: %v", err)
		}
	})
}

func TestRunTwice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, stop := fakeSender(t, Options{Store: openStore(t)}, func(context.Context, string, string, []byte) (string, error) { return "", nil })
		synctest.Wait()
		if err := s.Run(context.Background()); err == nil {
			t.Error("second Run did not fail")
		}
		stop()
	})
}
