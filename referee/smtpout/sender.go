package smtpout

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/pbem-referee/referee/store"
)

// Outcomes of a delivery attempt, in Result.Outcome.
const (
	OutcomeSent   = "sent"   // accepted by the server; retired as store.Sent
	OutcomeFailed = "failed" // permanent failure or given up; retired as store.Failed
	OutcomeRetry  = "retry"  // transient failure; due again at Item.Due
)

// Result reports one delivery attempt after its outcome was committed.
type Result struct {
	// Item is the item as committed: retired (State store.Sent or
	// store.Failed) or still pending with its next Due.
	Item store.Item
	// Outcome is OutcomeSent, OutcomeFailed or OutcomeRetry.
	Outcome string
	// Reply is the server's reply to the message data (OutcomeSent).
	Reply string
	// Err describes the failure (nil for OutcomeSent). For a permanent
	// SMTP rejection Err.Code is 5xx and Err.Err carries the reply text.
	Err *DeliveryError
	// GaveUp is set when a transient failure was turned into
	// OutcomeFailed because the item was older than Options.GiveUpAfter.
	GaveUp bool
	// Duration is how long this attempt took.
	Duration time.Duration
	// Latency is the time from Item.Created to the end of this attempt.
	Latency time.Duration
}

// Stats are the Sender's counters since it was created.
type Stats struct {
	Sent     uint64 // items delivered
	Failed   uint64 // items retired as failed (permanent or given up)
	Retried  uint64 // transient failures scheduled for retry
	Panics   uint64 // deliveries that panicked (each also counts as a retry)
	InFlight int64  // deliveries in progress now
}

// storeErrorDelay is how long Run waits before touching the store again
// after a store error.
const storeErrorDelay = 5 * time.Second

// maxWait caps the sleep between two looks at the store, as a safety net
// against clock jumps; kicks and due times normally wake the loop first.
const maxWait = time.Hour

// Sender delivers the outbox. Create it with New and start it with Run.
type Sender struct {
	o       Options
	deliver deliverFunc
	kick    chan struct{}
	running atomic.Bool

	sent, failed, retried, panics atomic.Uint64
	inflight                      atomic.Int64
}

// New validates the options, fills in defaults and returns a Sender.
func New(o Options) (*Sender, error) {
	o.setDefaults()
	if err := o.validate(); err != nil {
		return nil, err
	}
	d := o.deliver
	if d == nil {
		var err error
		if d, err = o.smtpDeliver(); err != nil {
			return nil, err
		}
	}
	return &Sender{o: o, deliver: d, kick: make(chan struct{}, 1)}, nil
}

// Kick tells the Sender that new items may be due. It never blocks; the
// referee calls it after committing outbox rows.
func (s *Sender) Kick() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Stats returns the counters.
func (s *Sender) Stats() Stats {
	return Stats{
		Sent: s.sent.Load(), Failed: s.failed.Load(), Retried: s.retried.Load(),
		Panics: s.panics.Load(), InFlight: s.inflight.Load(),
	}
}

// Run delivers due items until ctx is cancelled. On cancellation it stops
// starting deliveries, lets those in progress finish for up to
// Options.ShutdownGrace, then closes their connections, waits for them to
// record their outcome, and returns nil.
func (s *Sender) Run(ctx context.Context) error {
	if !s.running.CompareAndSwap(false, true) {
		return errors.New("smtpout: Run called twice")
	}
	defer s.running.Store(false)
	log := s.o.Logger
	log.Info("outbox sender started", slog.Any("smtp", s.o), slog.String("queue", s.o.Queue))

	// Deliveries outlive ctx by the shutdown grace.
	dctx, cancelDeliveries := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelDeliveries()

	done := make(chan uint64, s.o.Workers)
	inflight := make(map[uint64]bool)
	timer := time.NewTimer(maxWait)
	defer timer.Stop()
	prune := time.NewTicker(s.o.PruneInterval)
	defer prune.Stop()
	s.prune()

	for {
		wait, err := s.dispatch(dctx, inflight, done)
		if err != nil {
			log.Error("outbox: store error", slog.Any("err", err))
			wait = storeErrorDelay
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			s.drain(inflight, done, cancelDeliveries)
			log.Info("outbox sender stopped")
			return nil
		case <-s.kick:
		case <-timer.C:
		case id := <-done:
			delete(inflight, id)
		case <-prune.C:
			s.prune()
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

// drain waits for the deliveries in progress, closing their connections
// once the grace period is over.
func (s *Sender) drain(inflight map[uint64]bool, done <-chan uint64, cancel context.CancelFunc) {
	if len(inflight) == 0 {
		return
	}
	s.o.Logger.Info("outbox: waiting for deliveries in progress", slog.Int("count", len(inflight)))
	grace := time.NewTimer(s.o.ShutdownGrace)
	defer grace.Stop()
	for len(inflight) > 0 {
		select {
		case id := <-done:
			delete(inflight, id)
		case <-grace.C:
			s.o.Logger.Warn("outbox: shutdown grace over, closing connections", slog.Int("count", len(inflight)))
			cancel()
		}
	}
}

// dispatch starts deliveries for due items while workers are free, and
// returns how long to wait before the next item not in flight is due.
func (s *Sender) dispatch(ctx context.Context, inflight map[uint64]bool, done chan<- uint64) (time.Duration, error) {
	q := s.o.Queue
	now := s.o.Now()
	if free := s.o.Workers - len(inflight); free > 0 {
		var due []store.Item
		err := s.o.Store.View(func(tx *store.Tx) error {
			var err error
			due, err = tx.Due(q, now, free+len(inflight))
			return err
		})
		if err != nil {
			return 0, err
		}
		for _, it := range due {
			if free == 0 {
				break
			}
			if inflight[it.ID] {
				continue
			}
			// Record the attempt before any network I/O: after a crash
			// the item is due again at next, not lost and not hot-looped.
			next := now.Add(s.backoff(it.Attempts + 1))
			var cur store.Item
			err := s.o.Store.Update(func(tx *store.Tx) error {
				var err error
				cur, err = tx.Attempt(q, it.ID, now, next)
				return err
			})
			if errors.Is(err, store.ErrNotFound) {
				continue // retired meanwhile
			}
			if err != nil {
				return 0, err
			}
			inflight[it.ID] = true
			free--
			s.inflight.Add(1)
			go s.work(ctx, cur, done)
		}
	}
	if len(inflight) >= s.o.Workers {
		return maxWait, nil // a finishing delivery wakes the loop
	}
	var next time.Time
	found := false
	err := s.o.Store.View(func(tx *store.Tx) error {
		return tx.Items(q, func(it store.Item) error {
			if !inflight[it.ID] && (!found || it.Due.Before(next)) {
				next, found = it.Due, true
			}
			return nil
		})
	})
	if err != nil {
		return 0, err
	}
	if !found {
		return maxWait, nil
	}
	return min(max(next.Sub(s.o.Now()), 0), maxWait), nil
}

// backoff returns the delay before attempt n+1 after n attempts: MinBackoff
// doubled per attempt, capped at MaxBackoff, jittered to [d/2, d].
func (s *Sender) backoff(n int) time.Duration {
	return Backoff(n, s.o.MinBackoff, s.o.MaxBackoff, rand.Float64())
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
func (s *Sender) work(ctx context.Context, it store.Item, done chan<- uint64) {
	defer func() {
		s.inflight.Add(-1)
		done <- it.ID
	}()
	defer func() {
		// record and OnResult are guarded too: a panic here must not kill
		// the daemon. The item stays due at its Attempt time.
		if r := recover(); r != nil {
			s.panics.Add(1)
			s.o.Logger.Error("outbox: panic while recording a delivery", slog.Uint64("id", it.ID),
				slog.String("msgid", it.Key), slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
		}
	}()
	start := s.o.Now()
	reply, derr := s.attempt(ctx, it)
	s.record(it, start, reply, derr)
}

// attempt delivers one item, turning a panic into a transient failure.
func (s *Sender) attempt(ctx context.Context, it store.Item) (reply string, derr *DeliveryError) {
	defer func() {
		if r := recover(); r != nil {
			s.panics.Add(1)
			s.o.Logger.Error("outbox: delivery panicked", slog.Uint64("id", it.ID), slog.String("msgid", it.Key),
				slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
			derr = &DeliveryError{Stage: "panic", Err: fmt.Errorf("panic: %v", r)}
		}
	}()
	from, ok := it.Meta["from"]
	if !ok {
		from = s.o.DefaultFrom
		if from == "" {
			return "", permanentf(stageMail, "item has no envelope sender and there is no default")
		}
	}
	if err := checkAddr(from, true); err != nil {
		return "", permanentf(stageMail, "envelope sender: %v", err)
	}
	if err := checkAddr(it.To, false); err != nil {
		return "", permanentf(stageRcpt, "recipient: %v", err)
	}
	if len(it.Payload) == 0 {
		return "", permanentf(stageData, "empty message")
	}
	reply, err := s.deliver(ctx, from, it.To, it.Payload)
	if err != nil {
		return "", classify(stageConnect, err)
	}
	return reply, nil
}

// record commits the outcome of an attempt and reports it.
func (s *Sender) record(it store.Item, start time.Time, reply string, derr *DeliveryError) {
	log := s.o.Logger.With(slog.Uint64("id", it.ID), slog.String("msgid", it.Key), slog.String("to", it.To),
		slog.Int("attempt", it.Attempts))
	q := s.o.Queue
	now := s.o.Now()
	res := Result{Reply: reply, Err: derr, Duration: now.Sub(start), Latency: now.Sub(it.Created)}
	var cur store.Item
	var err error
	switch {
	case derr == nil:
		res.Outcome = OutcomeSent
		err = s.o.Store.Update(func(tx *store.Tx) error {
			cur, err = tx.Finish(q, it.ID, store.Sent, now, now.Add(s.o.Retention), "")
			return err
		})
		if err != nil {
			log.Error("outbox: mail was delivered but recording it failed; it may be sent again",
				slog.Any("err", err))
			return
		}
		s.sent.Add(1)
		log.Info("mail sent", slog.Duration("latency", res.Latency), slog.String("reply", reply))
	case derr.Permanent || now.Sub(it.Created) >= s.o.GiveUpAfter:
		res.Outcome = OutcomeFailed
		text := derr.Error()
		if !derr.Permanent {
			res.GaveUp = true
			text = fmt.Sprintf("gave up after %v: %s", now.Sub(it.Created).Round(time.Second), text)
		}
		err = s.o.Store.Update(func(tx *store.Tx) error {
			cur, err = tx.Finish(q, it.ID, store.Failed, now, now.Add(s.o.Retention), text)
			return err
		})
		if err != nil {
			log.Error("outbox: recording a failed delivery failed", slog.Any("err", err))
			return
		}
		s.failed.Add(1)
		log.Warn("mail failed permanently", slog.String("stage", derr.Stage), slog.Int("code", derr.Code),
			slog.String("enhanced", derr.Enhanced), slog.Bool("gave_up", res.GaveUp), slog.String("reason", text))
	default:
		res.Outcome = OutcomeRetry
		due := now.Add(s.backoff(it.Attempts))
		err = s.o.Store.Update(func(tx *store.Tx) error {
			cur, err = tx.Retry(q, it.ID, due, derr.Error())
			return err
		})
		if err != nil {
			log.Error("outbox: recording a transient failure failed", slog.Any("err", err))
			return
		}
		s.retried.Add(1)
		log.Info("mail delivery deferred", slog.String("stage", derr.Stage), slog.Int("code", derr.Code),
			slog.Time("due", due), slog.Any("err", derr.Err))
	}
	res.Item = cur
	if s.o.OnResult != nil {
		s.o.OnResult(res)
	}
}

// prune deletes retired items past their retention.
func (s *Sender) prune() {
	var n int
	err := s.o.Store.Update(func(tx *store.Tx) error {
		var err error
		n, err = tx.PruneRetired(s.o.Queue, s.o.Now())
		return err
	})
	if err != nil {
		s.o.Logger.Error("outbox: pruning retired items failed", slog.Any("err", err))
		return
	}
	if n > 0 {
		s.o.Logger.Debug("outbox: pruned retired items", slog.Int("count", n))
	}
}
