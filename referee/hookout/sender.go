package hookout

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/store"
)

// Outcomes of an attempt, in Result.Outcome.
const (
	OutcomeSent   = "sent"   // 2xx; retired as store.Sent
	OutcomeFailed = "failed" // permanent failure or given up; retired as store.Failed
	OutcomeRetry  = "retry"  // transient failure; due again at Item.Due
)

// Result reports one attempt after its outcome was committed.
type Result struct {
	// Item is the item as committed (retired, or pending with its next Due).
	Item    store.Item
	Outcome string
	// Status is the HTTP status received (0 when no response came).
	Status int
	// Err describes the failure (nil when sent).
	Err error
	// GaveUp: a transient failure turned into OutcomeFailed because the
	// call was older than Options.GiveUpAfter.
	GaveUp bool
	// Duration is how long this attempt took; Latency the time from the
	// item's creation to the end of this attempt.
	Duration, Latency time.Duration
}

// Stats are the Sender's counters since it was created.
type Stats struct {
	Sent, Failed, Retried, Panics uint64
	InFlight                      int64
}

// storeErrorDelay is the pause after a store error; maxWait caps a sleep
// (a safety net against clock jumps; kicks and due times wake the loop).
const (
	storeErrorDelay = 5 * time.Second
	maxWait         = time.Hour
	// maxRetryAfter caps a receiver's Retry-After.
	maxRetryAfter = 24 * time.Hour
	// maxErrorBody is how much of an error response is kept.
	maxErrorBody = 512
)

// Sender delivers the hooks queue. Create it with New, start it with Run.
type Sender struct {
	o       Options
	client  *http.Client
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
	rt := o.Transport
	if rt == nil {
		g := guard{allow: o.Allow}
		rt = &http.Transport{
			Proxy:                 nil, // a proxy would dial for us, past the address checks
			DialContext:           g.dialContext(o.Timeout),
			ForceAttemptHTTP2:     true,
			TLSHandshakeTimeout:   o.Timeout,
			ResponseHeaderTimeout: o.Timeout,
			MaxIdleConns:          16,
			MaxIdleConnsPerHost:   2,
			IdleConnTimeout:       90 * time.Second,
		}
	}
	c := &http.Client{
		Transport: rt,
		Timeout:   o.Timeout,
		// Redirects are not followed: a redirect could lead past the
		// address checks, and a hook URL that moved is the organiser's to fix.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return &Sender{o: o, client: c, kick: make(chan struct{}, 1)}, nil
}

// Kick tells the Sender that new calls may be due. It never blocks.
func (s *Sender) Kick() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Stats returns the counters.
func (s *Sender) Stats() Stats {
	return Stats{Sent: s.sent.Load(), Failed: s.failed.Load(), Retried: s.retried.Load(),
		Panics: s.panics.Load(), InFlight: s.inflight.Load()}
}

// Run delivers due calls until ctx is cancelled. On cancellation it starts
// no new call, lets those in progress finish for up to
// Options.ShutdownGrace, then aborts them, waits for their outcome to be
// recorded, and returns nil.
func (s *Sender) Run(ctx context.Context) error {
	if !s.running.CompareAndSwap(false, true) {
		return errors.New("hookout: Run called twice")
	}
	defer s.running.Store(false)
	log := s.o.Logger
	log.Info("hook sender started", slog.String("queue", s.o.Queue), slog.Int("workers", s.o.Workers))

	cctx, cancelCalls := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelCalls()
	done := make(chan uint64, s.o.Workers)
	inflight := map[uint64]bool{}
	timer := time.NewTimer(maxWait)
	defer timer.Stop()
	prune := time.NewTicker(s.o.PruneInterval)
	defer prune.Stop()
	s.prune()
	for {
		wait, err := s.dispatch(cctx, inflight, done)
		if err != nil {
			log.Error("hooks: store error", slog.Any("err", err))
			wait = storeErrorDelay
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			s.drain(inflight, done, cancelCalls)
			log.Info("hook sender stopped")
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

// drain waits for the calls in progress, aborting them after the grace.
func (s *Sender) drain(inflight map[uint64]bool, done <-chan uint64, cancel context.CancelFunc) {
	if len(inflight) == 0 {
		return
	}
	grace := time.NewTimer(s.o.ShutdownGrace)
	defer grace.Stop()
	for len(inflight) > 0 {
		select {
		case id := <-done:
			delete(inflight, id)
		case <-grace.C:
			s.o.Logger.Warn("hooks: shutdown grace over, aborting calls", slog.Int("count", len(inflight)))
			cancel()
		}
	}
}

// dispatch starts calls for due items while workers are free and returns
// how long to wait until the next item not in flight is due.
func (s *Sender) dispatch(ctx context.Context, inflight map[uint64]bool, done chan<- uint64) (time.Duration, error) {
	q := s.o.Queue
	now := s.o.Now()
	if free := s.o.Workers - len(inflight); free > 0 {
		var due []store.Item
		if err := s.o.Store.View(func(tx *store.Tx) error {
			var err error
			due, err = tx.Due(q, now, free+len(inflight))
			return err
		}); err != nil {
			return 0, err
		}
		for _, it := range due {
			if free == 0 {
				break
			}
			if inflight[it.ID] {
				continue
			}
			// The attempt is recorded before any I/O: after a crash the
			// call is due again at next, neither lost nor hot-looped.
			next := now.Add(s.backoff(it.Attempts + 1))
			var cur store.Item
			err := s.o.Store.Update(func(tx *store.Tx) error {
				var err error
				cur, err = tx.Attempt(q, it.ID, now, next)
				return err
			})
			if errors.Is(err, store.ErrNotFound) {
				continue
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
		return maxWait, nil
	}
	var next time.Time
	found := false
	if err := s.o.Store.View(func(tx *store.Tx) error {
		return tx.Items(q, func(it store.Item) error {
			if !inflight[it.ID] && (!found || it.Due.Before(next)) {
				next, found = it.Due, true
			}
			return nil
		})
	}); err != nil {
		return 0, err
	}
	if !found {
		return maxWait, nil
	}
	return min(max(next.Sub(s.o.Now()), 0), maxWait), nil
}

// backoff is the jittered delay after n attempts: MinBackoff doubled per
// attempt, capped at MaxBackoff, scaled into [d/2, d).
func (s *Sender) backoff(n int) time.Duration {
	return Backoff(n, s.o.MinBackoff, s.o.MaxBackoff, rand.Float64())
}

// Backoff returns lo*2^(n-1) capped at hi, scaled to d/2 + r*d/2 for r in
// [0, 1).
func Backoff(n int, lo, hi time.Duration, r float64) time.Duration {
	d := lo
	for i := 1; i < n && d < hi; i++ {
		d *= 2
	}
	d = min(d, hi)
	return d/2 + time.Duration(r*float64(d/2))
}

// callError is a failed attempt.
type callError struct {
	permanent  bool
	status     int
	retryAfter time.Duration
	err        error
}

func (e *callError) Error() string { return e.err.Error() }
func (e *callError) Unwrap() error { return e.err }

func permanent(format string, args ...any) *callError {
	return &callError{permanent: true, err: fmt.Errorf(format, args...)}
}

// work runs one call and records its outcome.
func (s *Sender) work(ctx context.Context, it store.Item, done chan<- uint64) {
	defer func() {
		s.inflight.Add(-1)
		done <- it.ID
	}()
	defer func() {
		if r := recover(); r != nil {
			s.panics.Add(1)
			s.o.Logger.Error("hooks: panic while recording a call", slog.Uint64("id", it.ID), slog.String("key", it.Key),
				slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
		}
	}()
	start := s.o.Now()
	status, cerr := s.attempt(ctx, it)
	s.record(it, start, status, cerr)
}

// attempt makes one call, turning a panic into a transient failure.
func (s *Sender) attempt(ctx context.Context, it store.Item) (status int, cerr *callError) {
	defer func() {
		if r := recover(); r != nil {
			s.panics.Add(1)
			s.o.Logger.Error("hooks: call panicked", slog.Uint64("id", it.ID), slog.String("key", it.Key),
				slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
			cerr = &callError{err: fmt.Errorf("panic: %v", r)}
		}
	}()
	u, err := url.Parse(it.To)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return 0, permanent("not an http(s) URL")
	}
	secret := it.Meta[referee.MetaHookSecret]
	if secret == "" {
		return 0, permanent("no signing secret")
	}
	body := it.Payload
	switch f := it.Meta[referee.MetaHookFormat]; f {
	case "", "generic":
	case "discord":
		if body, err = discordBody(it.Payload); err != nil {
			return 0, permanent("%v", err)
		}
	default:
		return 0, permanent("unknown hook format %q", f)
	}
	ts := strconv.FormatInt(s.o.Now().Unix(), 10)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return 0, permanent("%v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", s.o.UserAgent)
	req.Header.Set(HeaderID, it.Key)
	req.Header.Set(HeaderHook, it.Meta[referee.MetaHookID])
	req.Header.Set(HeaderAttempt, strconv.Itoa(it.Attempts))
	req.Header.Set(HeaderTimestamp, ts)
	req.Header.Set(HeaderSignature, Sign(secret, ts, body))
	resp, err := s.client.Do(req)
	if err != nil {
		// A refused address stays refused; anything else (DNS, connect,
		// TLS, timeout) may pass later.
		return 0, &callError{permanent: errors.Is(err, ErrBlocked), err: scrub(err, u)}
	}
	defer resp.Body.Close()
	snippet, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // let the connection be reused
	code := resp.StatusCode
	switch {
	case code >= 200 && code < 300:
		return code, nil
	case code == http.StatusTooManyRequests || code == http.StatusRequestTimeout || code >= 500:
		return code, &callError{status: code, retryAfter: retryAfter(resp.Header.Get("Retry-After"), s.o.Now()),
			err: fmt.Errorf("HTTP %d: %s", code, oneLine(string(snippet)))}
	case code >= 300 && code < 400:
		return code, &callError{permanent: true, status: code, err: fmt.Errorf("HTTP %d: redirects are not followed", code)}
	default:
		return code, &callError{permanent: true, status: code, err: fmt.Errorf("HTTP %d: %s", code, oneLine(string(snippet)))}
	}
}

// scrub removes the URL (which may carry credentials or tokens, as
// Discord's do) from a transport error.
func scrub(err error, u *url.URL) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	msg := strings.ReplaceAll(err.Error(), u.String(), redact(u))
	return errors.New(msg)
}

// redact returns the URL without credentials, path or query, for logs.
func redact(u *url.URL) string { return u.Scheme + "://" + u.Host }

// retryAfter parses a Retry-After header: seconds (Discord sends
// fractional ones) or an HTTP date. Zero when absent or unparseable.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && f > 0 {
		return min(time.Duration(f*float64(time.Second)), maxRetryAfter)
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(t.Sub(now), 0), maxRetryAfter)
	}
	return 0
}

// record commits the outcome of an attempt and reports it.
func (s *Sender) record(it store.Item, start time.Time, status int, cerr *callError) {
	q := s.o.Queue
	now := s.o.Now()
	dest := it.To
	if u, err := url.Parse(it.To); err == nil {
		dest = redact(u)
	}
	log := s.o.Logger.With(slog.Uint64("id", it.ID), slog.String("key", it.Key), slog.String("game", it.Game),
		slog.String("hook", it.Meta[referee.MetaHookID]), slog.String("dest", dest), slog.Int("attempt", it.Attempts))
	res := Result{Status: status, Duration: now.Sub(start), Latency: now.Sub(it.Created)}
	var cur store.Item
	var err error
	switch {
	case cerr == nil:
		res.Outcome = OutcomeSent
		err = s.o.Store.Update(func(tx *store.Tx) error {
			cur, err = tx.Finish(q, it.ID, store.Sent, now, now.Add(s.o.Retention), "")
			return err
		})
		if err != nil {
			log.Error("hooks: call delivered but recording it failed; it may be repeated", slog.Any("err", err))
			return
		}
		s.sent.Add(1)
		log.Info("hook delivered", slog.Int("status", status), slog.Duration("latency", res.Latency))
	case cerr.permanent || now.Sub(it.Created) >= s.o.GiveUpAfter:
		res.Outcome, res.Err = OutcomeFailed, cerr
		text := cerr.Error()
		if !cerr.permanent {
			res.GaveUp = true
			text = fmt.Sprintf("gave up after %v: %s", now.Sub(it.Created).Round(time.Second), text)
		}
		err = s.o.Store.Update(func(tx *store.Tx) error {
			cur, err = tx.Finish(q, it.ID, store.Failed, now, now.Add(s.o.Retention), text)
			return err
		})
		if err != nil {
			log.Error("hooks: recording a failed call failed", slog.Any("err", err))
			return
		}
		s.failed.Add(1)
		log.Warn("hook failed", slog.Int("status", status), slog.Bool("gave_up", res.GaveUp), slog.String("reason", text))
	default:
		res.Outcome, res.Err = OutcomeRetry, cerr
		due := now.Add(max(s.backoff(it.Attempts), cerr.retryAfter))
		err = s.o.Store.Update(func(tx *store.Tx) error {
			cur, err = tx.Retry(q, it.ID, due, cerr.Error())
			return err
		})
		if err != nil {
			log.Error("hooks: recording a transient failure failed", slog.Any("err", err))
			return
		}
		s.retried.Add(1)
		log.Info("hook call deferred", slog.Int("status", status), slog.Time("due", due), slog.String("err", cerr.Error()))
	}
	res.Item = cur
	if s.o.OnResult != nil {
		s.o.OnResult(res)
	}
}

// prune deletes retired calls past their retention.
func (s *Sender) prune() {
	var n int
	err := s.o.Store.Update(func(tx *store.Tx) error {
		var err error
		n, err = tx.PruneRetired(s.o.Queue, s.o.Now())
		return err
	})
	if err != nil {
		s.o.Logger.Error("hooks: pruning retired calls failed", slog.Any("err", err))
		return
	}
	if n > 0 {
		s.o.Logger.Debug("hooks: pruned retired calls", slog.Int("count", n))
	}
}
