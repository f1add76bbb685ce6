package smtpout

import (
	"context"
	"log/slog"
	"time"

	"github.com/pbem-referee/referee/referee/edge/dispatch"
)

// Outcomes of a delivery attempt, in Result.Outcome.
const (
	OutcomeSent   = dispatch.Sent   // accepted by the server; retired as store.Sent
	OutcomeFailed = dispatch.Failed // permanent failure or given up; retired as store.Failed
	OutcomeRetry  = dispatch.Retry  // transient failure; due again at Item.Due
)

// Result reports one delivery attempt after its outcome was committed.
type Result struct {
	// Item is the item as committed: retired (State store.Sent or
	// store.Failed) or still pending with its next Due.
	Item dispatch.Item
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
type Stats = dispatch.Stats

// Sender delivers the outbox. Create it with New and start it with Run.
// The loop itself (due items, the attempt recorded before I/O, backoff,
// retirement, shutdown) is referee/edge/dispatch; the Sender adds SMTP.
type Sender struct {
	o       Options
	deliver deliverFunc
	loop    *dispatch.Loop
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
	s := &Sender{o: o, deliver: d}
	loop, err := dispatch.New(dispatch.Options{
		Store: o.Store, Queue: o.Queue, Name: "outbox", Workers: o.Workers,
		MinBackoff: o.MinBackoff, MaxBackoff: o.MaxBackoff, GiveUpAfter: o.GiveUpAfter,
		Retention: o.Retention, PruneInterval: o.PruneInterval, ShutdownGrace: o.ShutdownGrace,
		Now: o.Now, Logger: o.Logger, Deliver: s.attempt, Done: s.done,
	})
	if err != nil {
		return nil, err
	}
	s.loop = loop
	return s, nil
}

// Kick tells the Sender that new items may be due. It never blocks; the
// referee calls it after committing outbox rows.
func (s *Sender) Kick() { s.loop.Kick() }

// Stats returns the counters.
func (s *Sender) Stats() Stats { return s.loop.Stats() }

// Settle waits until the outcome of every delivery whose I/O has ended
// is on record (dispatch.Loop.Settle), or ctx ends.
func (s *Sender) Settle(ctx context.Context) error { return s.loop.Settle(ctx) }

// Run delivers due items until ctx is cancelled. On cancellation it stops
// starting deliveries, lets those in progress finish for up to
// Options.ShutdownGrace, then closes their connections, waits for them to
// record their outcome, and returns nil.
func (s *Sender) Run(ctx context.Context) error {
	s.o.Logger.Info("outbox sender started", slog.Any("smtp", s.o), slog.String("queue", s.o.Queue))
	err := s.loop.Run(ctx)
	s.o.Logger.Info("outbox sender stopped")
	return err
}

// attempt delivers one item to its one recipient (dispatch.Options.Deliver).
func (s *Sender) attempt(ctx context.Context, it dispatch.Item) dispatch.Attempt {
	reply, derr := s.send(ctx, it)
	if derr != nil {
		return dispatch.Attempt{Err: derr, Permanent: derr.Permanent, Code: derr.Code}
	}
	return dispatch.Attempt{Detail: reply}
}

// send checks an item and hands it to the SMTP transport.
func (s *Sender) send(ctx context.Context, it dispatch.Item) (string, *DeliveryError) {
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

// done logs a committed outcome and reports it (dispatch.Options.Done).
func (s *Sender) done(r dispatch.Report) {
	it := r.Item
	log := s.o.Logger.With(slog.Uint64("id", it.ID), slog.String("msgid", it.Key), slog.String("to", it.To),
		slog.Int("attempt", it.Attempts))
	res := Result{Item: it, Outcome: r.Outcome, Reply: r.Attempt.Detail, GaveUp: r.GaveUp, Duration: r.Duration, Latency: r.Latency}
	derr, _ := r.Attempt.Err.(*DeliveryError)
	if r.Attempt.Err != nil && derr == nil {
		derr = &DeliveryError{Stage: "panic", Err: r.Attempt.Err}
	}
	res.Err = derr
	switch r.Outcome {
	case dispatch.Sent:
		log.Info("mail sent", slog.Duration("latency", r.Latency), slog.String("reply", r.Attempt.Detail))
	case dispatch.Failed:
		log.Warn("mail failed permanently", slog.String("stage", derr.Stage), slog.Int("code", derr.Code),
			slog.String("enhanced", derr.Enhanced), slog.Bool("gave_up", r.GaveUp), slog.String("reason", r.Reason))
	default:
		log.Info("mail delivery deferred", slog.String("stage", derr.Stage), slog.Int("code", derr.Code),
			slog.Time("due", it.Due), slog.Any("err", derr.Err))
	}
	if s.o.OnResult != nil {
		s.o.OnResult(res)
	}
}
