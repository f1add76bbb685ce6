// Package dispatch delivers a durable store queue: the worker loop shared
// by the outbox sender (referee/edge/smtpout) and the outgoing-webhook sender
// (referee/edge/hookout).
//
// The store is the queue (store.Tx.DueRows/Payload/Attempt/Retry/Finish):
// there is no queue in memory. The loop reads the due items' delivery
// state only, and the payload of each item it starts, once (store/doc.go,
// "Compression": payloads are kept compressed; the attempt's and the
// outcome's records neither read nor inflate them). The loop sleeps until the earliest due item, a Kick
// (after a commit that queued items) or an hour at most, as a safety net
// against clock jumps. For the due items it records the attempts in a
// transaction before any I/O (Attempt, with each item due again at now +
// backoff), so that a crash during delivery gives a delayed retry, never a
// lost item nor a hot loop; then it runs each delivery on a worker and
// commits its outcome: Finish(Sent), Retry with a jittered exponential
// backoff (never shorter than the receiver's Retry-After), or
// Finish(Failed) for a permanent failure or once the item is older than
// GiveUpAfter. Retired items are pruned after their retention. Every
// delivery recovers from panics.
//
// The transactions are grouped (store.DB.Group, issue 13.5): the attempts
// of all the items started together share one commit, and the outcomes
// that finish while a commit is being written share the next one (with
// the referee's own commits too). Each outcome is still committed before
// it is reported (Options.Done) and before its item leaves the loop's
// in-flight set, so that no item is started twice.
//
// Rule (issue 25, the wake-up): a running loop is woken by the commit
// that queues an item in its queue (store.DB.OnQueued), on the goroutine
// that wrote that commit and as soon as it is durable, not only by the
// Kick of the caller that queued it: in a group commit that caller is
// woken after its group's leader wrote it, and under load its wake-up
// took milliseconds before it could kick the loop
// (TestWokenByTheCommitThatQueues_Issue25).
//
// Rule (issue 25: the send wait): Options.Workers bounds the deliveries
// whose I/O is under way, not the outcomes waiting for their commit. A
// worker is free when its I/O ends, and the loop starts the next due item
// then, while the outcome before is committed; with the workers' slots
// held through the commits (a group commit's wait, its fsync) a mail
// queued behind two deliveries waited for their commits too.
//
// Rule (issue 25, the bound on what a crash resends): the loop's
// in-flight set (items whose I/O is under way plus items whose outcome
// waits for its commit) holds at most InFlightBound(Workers) = 2 x
// Workers items. So at most that many items are ever sent and not yet
// recorded, and a crash resends at most that many (a fresh item, sent
// with no attempt on record, is due at once after a restart; the others
// at their recorded attempt's backoff). While commits are slow or stuck,
// the loop starts every due item up to the bound, then none until an
// outcome is on record; in the normal case a freed worker still starts
// the next item while the outcome before commits
// (TestWorkerFreeWhileItsOutcomeCommits_Issue25,
// TestCrashDuringHeldCommitResendsAtMostTheBound_Issue25).
//
// Rule (issue 25, one write transaction per delivery): a fresh item's
// delivery is one Group call (its attempt with its outcome); any other
// attempt two (the attempt before the I/O, the outcome after). An item
// is fresh from its Enqueue on (store/doc.go): a loop that looked while
// the referee's commit that queued it was landing used to find it not
// fresh and pay the second call (7% of the bench's deliveries; none now,
// TestFreshFromItsFirstSight_Issue25 in store).
//
// Rule (issue 25, outcomes ride): an outcome's call is
// store.DB.GroupLater: it starts no commit of its own but rides in the
// store's next one (in the daemon, the intake's commit of the next mail),
// or is written store.LaterWithin after it when no other commit comes,
// at once when the loop stops, and at once when the in-flight set is full
// (store.DB.Hurry), so that a due item never waits for the timer. The
// item stays in the in-flight set until its outcome is on record, so the
// bound above on what a crash resends is unchanged; a crash loses no
// outcome but resends the item. In the bench this took the referee's
// commits a player mail from 1.25-1.28 to 1.06-1.08 (the echo's from
// 1.68-1.72 to 1.44) (TestOutcomesRideInTheNextCommit_Issue25).
//
// It owns the delivery loop of a durable queue: when an item is due, the
// attempt recorded before any I/O, the backoff and its jitter, retries,
// the give-up, the retirement of an item and the pruning of retired ones,
// and the grouping of those commits. It must not know what an item is or
// how it is delivered (its user's Deliver does: smtpout for mail, hookout
// for webhooks), keep a queue in memory, write anything in the store but
// the queue's own attempt and outcome records, or decide by itself what
// failure is permanent beyond the one shape the core defines
// (referee.IsPermanent).
package dispatch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"sync/atomic"
	"time"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/store"
)

// Store is the store that holds the queues, and Item one queued item: the
// senders (smtpout, hookout) name them through dispatch, the one edge that
// works on the store's queues.
type (
	Store = store.DB
	Item  = store.Item
)

// Outcomes of an attempt, in Report.Outcome.
const (
	Sent   = "sent"   // delivered; retired as store.Sent
	Failed = "failed" // permanent failure or given up; retired as store.Failed
	Retry  = "retry"  // transient failure; due again at Item.Due
)

// MaxWait caps a sleep between two looks at the store.
const MaxWait = time.Hour

// InFlightBound is the most items a loop of the given workers holds in
// flight: I/O under way or outcome not yet on record (the package doc's
// rule on what a crash resends).
func InFlightBound(workers int) int { return 2 * max(workers, 1) }

// storeErrorDelay is the pause after a store error.
const storeErrorDelay = 5 * time.Second

// Attempt is what one delivery reports.
type Attempt struct {
	// Err is nil when the item was delivered.
	Err error
	// Permanent: the failure can never succeed (no retry).
	Permanent bool
	// RetryAfter is the least delay before the next attempt (a receiver's
	// Retry-After); the backoff applies when it is shorter.
	RetryAfter time.Duration
	// Code and Detail describe the receiver's answer (an HTTP status, the
	// SMTP server's reply), for the sender's own report.
	Code   int
	Detail string
}

// Report is the committed outcome of one attempt.
type Report struct {
	// Item is the item as committed: retired, or pending with its next Due.
	Item    store.Item
	Outcome string
	Attempt Attempt
	// GaveUp: a transient failure became Failed because the item was older
	// than GiveUpAfter; Reason is the text recorded then.
	GaveUp bool
	Reason string
	// Duration is how long the attempt took; Latency the time from the
	// item's creation to the end of the attempt.
	Duration, Latency time.Duration
}

// Stats are a loop's counters since it was created.
type Stats struct {
	Sent     uint64 // items delivered
	Failed   uint64 // items retired as failed (permanent or given up)
	Retried  uint64 // transient failures scheduled for retry
	Panics   uint64 // deliveries that panicked (each also counts as a retry)
	InFlight int64  // deliveries in progress now (I/O under way or outcome not yet on record)
	// Delivering is the deliveries whose I/O is under way now (the
	// workers busy); InFlight - Delivering wait for their outcome's commit.
	Delivering int64
}

// Options configure a Loop. Store, Queue and Deliver are required; zero
// durations take the defaults the senders set.
type Options struct {
	Store *store.DB
	Queue string
	// Name prefixes log messages ("outbox", "hooks").
	Name    string
	Workers int
	// MinBackoff and MaxBackoff bound the jittered exponential delay after
	// a transient failure.
	MinBackoff, MaxBackoff time.Duration
	// GiveUpAfter retires an item as Failed when a transient failure
	// happens and the item is older than this.
	GiveUpAfter time.Duration
	// Retention is how long retired items are kept; PruneInterval how
	// often expired ones are deleted.
	Retention, PruneInterval time.Duration
	// ShutdownGrace is how long deliveries may go on after Run's context is
	// cancelled before their context is cancelled too.
	ShutdownGrace time.Duration
	Now           func() time.Time
	Logger        *slog.Logger
	// Deliver makes one attempt (the I/O). Its context ends when the
	// shutdown grace is over.
	Deliver func(ctx context.Context, it store.Item) Attempt
	// Done, if set, is told every outcome after it was committed, on the
	// delivery's goroutine; it must not block for long.
	Done func(Report)
}

// Loop delivers a queue.
type Loop struct {
	o       Options
	kick    chan struct{}
	running atomic.Bool

	sent, failed, retried, panics atomic.Uint64
	inflight                      atomic.Int64
	// delivering counts the items in flight whose I/O is under way (the
	// workers busy); the others of the loop's in-flight set wait for the
	// commit of their outcome.
	delivering atomic.Int64
	// stopping: Run's context ended; outcomes no longer wait to ride.
	stopping atomic.Bool
}

// New returns a Loop.
func New(o Options) (*Loop, error) {
	if o.Store == nil || o.Queue == "" || o.Deliver == nil {
		return nil, errors.New("dispatch: Store, Queue and Deliver are required")
	}
	if o.Workers <= 0 {
		o.Workers = 1
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Name == "" {
		o.Name = o.Queue
	}
	if o.PruneInterval <= 0 {
		o.PruneInterval = time.Hour
	}
	return &Loop{o: o, kick: make(chan struct{}, 1)}, nil
}

// Kick tells the loop new items may be due. It never blocks.
func (l *Loop) Kick() {
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// Stats returns the counters.
func (l *Loop) Stats() Stats {
	return Stats{Sent: l.sent.Load(), Failed: l.failed.Load(), Retried: l.retried.Load(),
		Panics: l.panics.Load(), InFlight: l.inflight.Load(), Delivering: l.delivering.Load()}
}

// Settle waits until every delivery whose I/O has ended has its outcome
// on record: outcomes ride in the store's next commit, written at the
// latest store.LaterWithin after them (the rule on outcomes above), so a
// test or a tool that reads a delivery's state, or the store's writes,
// right after it saw the delivery (a mail in a mailbox, a call at a hook's
// server) waits here first (TestSettleWaitsForTheOutcomesToRide_Issue25).
// A delivery still under way is not waited for. It returns ctx's error
// when ctx ends first.
func (l *Loop) Settle(ctx context.Context) error {
	// inflight is read first: an outcome recorded between the two reads
	// makes the loop wait once more, never return early.
	for l.inflight.Load() > l.delivering.Load() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Millisecond):
		}
	}
	return nil
}

// Run delivers due items until ctx is cancelled. On cancellation it starts
// no new delivery, lets those in progress finish for up to ShutdownGrace,
// then cancels them, waits for their outcomes to be recorded, and returns
// nil.
func (l *Loop) Run(ctx context.Context) error {
	if !l.running.CompareAndSwap(false, true) {
		return fmt.Errorf("dispatch %s: Run called twice", l.o.Name)
	}
	defer l.running.Store(false)
	l.stopping.Store(false)
	// Woken by the commit that queues an item (the package doc's rule on
	// the wake-up), besides the Kick of the one that queued it.
	defer l.o.Store.OnQueued(l.o.Queue, l.Kick)()
	// Deliveries outlive ctx by the shutdown grace.
	dctx, cancelDeliveries := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelDeliveries()
	done := make(chan uint64, InFlightBound(l.o.Workers))
	inflight := map[uint64]bool{}
	timer := time.NewTimer(MaxWait)
	defer timer.Stop()
	prune := time.NewTicker(l.o.PruneInterval)
	defer prune.Stop()
	l.prune()
	for {
		wait, err := l.dispatch(dctx, inflight, done)
		if err != nil {
			l.o.Logger.Error(l.o.Name+": store error", slog.Any("err", err))
			wait = storeErrorDelay
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			l.drain(inflight, done, cancelDeliveries)
			return nil
		case <-l.kick:
		case <-timer.C:
		case id := <-done:
			delete(inflight, id)
		case <-prune.C:
			l.prune()
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

// drain waits for the deliveries in progress, cancelling them after the
// grace.
func (l *Loop) drain(inflight map[uint64]bool, done <-chan uint64, cancel context.CancelFunc) {
	if len(inflight) == 0 {
		return
	}
	l.stopping.Store(true) // outcomes from now on are written at once
	l.o.Store.Hurry()
	grace := time.NewTimer(l.o.ShutdownGrace)
	defer grace.Stop()
	for len(inflight) > 0 {
		select {
		case id := <-done:
			delete(inflight, id)
		case <-grace.C:
			l.o.Logger.Warn(l.o.Name+": shutdown grace over, aborting deliveries", slog.Int("count", len(inflight)))
			cancel()
		}
	}
}

// dispatch starts deliveries for due items while workers are free and
// returns how long to wait until the next item not in flight is due.
func (l *Loop) dispatch(ctx context.Context, inflight map[uint64]bool, done chan<- uint64) (time.Duration, error) {
	q := l.o.Queue
	now := l.o.Now()
	// Free slots: workers whose I/O ended, within the in-flight bound
	// (the package doc's rules).
	if free := min(l.o.Workers-int(l.delivering.Load()), InFlightBound(l.o.Workers)-len(inflight)); free > 0 {
		// The due rows are read without their payloads, and only the
		// items started get theirs (store/doc.go, "Compression"): an item
		// in flight or beyond the free workers is not inflated, nor is any
		// by the attempt's or the outcome's bookkeeping.
		var start []store.Item
		if err := l.o.Store.View(func(tx *store.Tx) error {
			due, err := tx.DueRows(q, now, free+len(inflight))
			start = start[:0]
			for _, it := range due {
				if len(start) == free {
					break
				}
				if !inflight[it.ID] {
					it.Payload = tx.Payload(q, it.ID)
					start = append(start, it)
				}
			}
			return err
		}); err != nil {
			return 0, err
		}
		// The attempts are recorded before any I/O, all in one
		// transaction: after a crash each item is due again at its next,
		// neither lost nor hot-looped.
		//
		// An item this process enqueued and never attempted is fresh
		// (store.DB.TakeFresh): its first attempt is recorded with its
		// outcome, in the one commit of the delivery (issue 25); after a
		// crash no item is fresh.
		var started, presumed []store.Item
		start = slices.DeleteFunc(start, func(it store.Item) bool {
			if it.Attempts > 0 || !l.o.Store.TakeFresh(q, it.ID) {
				return false
			}
			it.Attempts, it.LastAttempt, it.Due, it.LastError = 1, now, now.Add(l.backoff(1)), "attempt in progress"
			presumed = append(presumed, it)
			return true
		})
		if len(start) > 0 {
			next := make([]time.Time, len(start))
			for i, it := range start {
				next[i] = now.Add(l.backoff(it.Attempts + 1))
			}
			err := l.o.Store.Group(func(tx *store.Tx) error {
				started = started[:0]
				for i, it := range start {
					cur, err := tx.Attempt(q, it.ID, now, next[i])
					if errors.Is(err, store.ErrNotFound) {
						continue // retired meanwhile
					}
					if err != nil {
						return err
					}
					cur.Payload = it.Payload // written once, never changed
					started = append(started, cur)
				}
				return nil
			})
			if err != nil {
				return 0, err
			}
		}
		for i, cur := range append(presumed, started...) {
			inflight[cur.ID] = true
			l.inflight.Add(1)
			l.delivering.Add(1)
			go l.work(ctx, cur, done, i < len(presumed))
		}
	}
	if len(inflight) >= InFlightBound(l.o.Workers) {
		// Full: the outcomes waiting to ride in a commit are written now
		// (the package doc's rule on outcomes).
		l.o.Store.Hurry()
	}
	if int(l.delivering.Load()) >= l.o.Workers || len(inflight) >= InFlightBound(l.o.Workers) {
		return MaxWait, nil // a delivery whose I/O ends, or whose outcome is on record, wakes the loop
	}
	var next time.Time
	found := false
	if err := l.o.Store.View(func(tx *store.Tx) error {
		return tx.DueOrder(q, func(due time.Time, id uint64) (bool, error) {
			if inflight[id] {
				return true, nil
			}
			next, found = due, true
			return false, nil
		})
	}); err != nil {
		return 0, err
	}
	if !found {
		return MaxWait, nil
	}
	return min(max(next.Sub(l.o.Now()), 0), MaxWait), nil
}

func (l *Loop) backoff(n int) time.Duration {
	return Backoff(n, l.o.MinBackoff, l.o.MaxBackoff, rand.Float64())
}

// Backoff returns the jittered exponential delay after n attempts (n >= 1):
// d = lo * 2^(n-1), capped at hi, scaled to d/2 + r*d/2 for r in [0, 1).
func Backoff(n int, lo, hi time.Duration, r float64) time.Duration {
	d := lo
	for i := 1; i < n && d < hi; i++ {
		d *= 2
	}
	d = min(d, hi)
	return d/2 + time.Duration(r*float64(d/2))
}

// work runs one delivery and records its outcome.
func (l *Loop) work(ctx context.Context, it store.Item, done chan<- uint64, presumed bool) {
	defer func() {
		l.inflight.Add(-1)
		done <- it.ID
	}()
	defer func() {
		// Recording and Done are guarded too: a panic here must not kill
		// the daemon. The item stays due at its Attempt time.
		if r := recover(); r != nil {
			l.panics.Add(1)
			l.o.Logger.Error(l.o.Name+": panic while recording a delivery", slog.Uint64("id", it.ID),
				slog.String("key", it.Key), slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
		}
	}()
	start := l.o.Now()
	a := l.attempt(ctx, it)
	// The worker is free once the I/O ended (the rule of the package
	// doc): the next due item starts while this outcome is committed; the
	// item stays in the loop's in-flight set until it is.
	l.delivering.Add(-1)
	l.Kick()
	l.record(it, start, a, presumed)
}

// attempt delivers one item, turning a panic into a transient failure.
func (l *Loop) attempt(ctx context.Context, it store.Item) (a Attempt) {
	defer func() {
		if r := recover(); r != nil {
			l.panics.Add(1)
			l.o.Logger.Error(l.o.Name+": delivery panicked", slog.Uint64("id", it.ID), slog.String("key", it.Key),
				slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
			a = Attempt{Err: fmt.Errorf("panic: %v", r)}
		}
	}()
	return l.o.Deliver(ctx, it)
}

// record commits the outcome of an attempt and reports it; with presumed,
// the attempt itself too (it was not recorded before the I/O).
func (l *Loop) record(it store.Item, start time.Time, a Attempt, presumed bool) {
	q := l.o.Queue
	a.Permanent = a.Permanent || referee.IsPermanent(a.Err) // the one shape of failures (referee/failure.go)
	now := l.o.Now()
	rep := Report{Attempt: a, Duration: now.Sub(start), Latency: now.Sub(it.Created)}
	log := l.o.Logger.With(slog.Uint64("id", it.ID), slog.String("key", it.Key), slog.Int("attempt", it.Attempts))
	var cur store.Item
	var err error
	switch {
	case a.Err == nil:
		rep.Outcome = Sent
		err = l.group(func(tx *store.Tx) error {
			if err := l.presume(tx, it, presumed); err != nil {
				return err
			}
			cur, err = tx.Finish(q, it.ID, store.Sent, now, now.Add(l.o.Retention), "")
			return err
		})
		if err != nil {
			log.Error(l.o.Name+": delivered but recording it failed; it may be delivered again", slog.Any("err", err))
			return
		}
		l.sent.Add(1)
	case a.Permanent || now.Sub(it.Created) >= l.o.GiveUpAfter:
		rep.Outcome, rep.Reason = Failed, a.Err.Error()
		if !a.Permanent {
			rep.GaveUp = true
			rep.Reason = fmt.Sprintf("gave up after %v: %s", now.Sub(it.Created).Round(time.Second), rep.Reason)
		}
		err = l.group(func(tx *store.Tx) error {
			if err := l.presume(tx, it, presumed); err != nil {
				return err
			}
			cur, err = tx.Finish(q, it.ID, store.Failed, now, now.Add(l.o.Retention), rep.Reason)
			return err
		})
		if err != nil {
			log.Error(l.o.Name+": recording a failed delivery failed", slog.Any("err", err))
			return
		}
		l.failed.Add(1)
	default:
		rep.Outcome = Retry
		due := now.Add(max(l.backoff(it.Attempts), a.RetryAfter))
		err = l.group(func(tx *store.Tx) error {
			if err := l.presume(tx, it, presumed); err != nil {
				return err
			}
			cur, err = tx.Retry(q, it.ID, due, a.Err.Error())
			return err
		})
		if err != nil {
			log.Error(l.o.Name+": recording a transient failure failed", slog.Any("err", err))
			return
		}
		l.retried.Add(1)
	}
	cur.Payload = it.Payload // the outcome's record returns the state only
	rep.Item = cur
	if l.o.Done != nil {
		l.o.Done(rep)
	}
}

// prune deletes retired items past their retention.
func (l *Loop) prune() {
	var n int
	err := l.o.Store.Update(func(tx *store.Tx) error {
		var err error
		n, err = tx.PruneRetired(l.o.Queue, l.o.Now())
		return err
	})
	if err != nil {
		l.o.Logger.Error(l.o.Name+": pruning retired items failed", slog.Any("err", err))
		return
	}
	if n > 0 {
		l.o.Logger.Debug(l.o.Name+": pruned retired items", slog.Int("count", n))
	}
}

// group commits an outcome: riding in the next commit of the store
// (store.DB.GroupLater, the package doc's rule on outcomes), or at once
// when the loop stops.
func (l *Loop) group(fn func(tx *store.Tx) error) error {
	if l.stopping.Load() {
		return l.o.Store.Group(fn)
	}
	return l.o.Store.GroupLater(fn)
}

// presume records a presumed first attempt, in the transaction of its
// outcome.
func (l *Loop) presume(tx *store.Tx, it store.Item, presumed bool) error {
	if !presumed {
		return nil
	}
	_, err := tx.Attempt(l.o.Queue, it.ID, it.LastAttempt, it.Due)
	return err
}
