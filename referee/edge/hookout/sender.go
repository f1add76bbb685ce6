package hookout

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/dispatch"
)

// Outcomes of an attempt, in Result.Outcome.
const (
	OutcomeSent   = dispatch.Sent   // 2xx; retired as store.Sent
	OutcomeFailed = dispatch.Failed // permanent failure or given up; retired as store.Failed
	OutcomeRetry  = dispatch.Retry  // transient failure; due again at Item.Due
)

// Result reports one attempt after its outcome was committed.
type Result struct {
	// Item is the item as committed (retired, or pending with its next Due).
	Item    dispatch.Item
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
type Stats = dispatch.Stats

const (
	// maxRetryAfter caps a receiver's Retry-After.
	maxRetryAfter = 24 * time.Hour
	// maxErrorBody is how much of an error response is kept.
	maxErrorBody = 512
)

// Sender delivers the hooks queue. Create it with New, start it with Run.
// The loop itself (due items, the attempt recorded before I/O, backoff,
// retirement, shutdown) is referee/edge/dispatch; the Sender adds HTTP.
type Sender struct {
	o      Options
	client *http.Client
	loop   *dispatch.Loop
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
	s := &Sender{o: o, client: c}
	loop, err := dispatch.New(dispatch.Options{
		Store: o.Store, Queue: o.Queue, Name: "hooks", Workers: o.Workers,
		MinBackoff: o.MinBackoff, MaxBackoff: o.MaxBackoff, GiveUpAfter: o.GiveUpAfter,
		Retention: o.Retention, PruneInterval: o.PruneInterval, ShutdownGrace: o.ShutdownGrace,
		Now: o.Now, Logger: o.Logger, Deliver: s.deliver, Done: s.done,
	})
	if err != nil {
		return nil, err
	}
	s.loop = loop
	return s, nil
}

// Kick tells the Sender that new calls may be due. It never blocks.
func (s *Sender) Kick() { s.loop.Kick() }

// Stats returns the counters.
func (s *Sender) Stats() Stats { return s.loop.Stats() }

// Settle waits until the outcome of every delivery whose I/O has ended
// is on record (dispatch.Loop.Settle), or ctx ends.
func (s *Sender) Settle(ctx context.Context) error { return s.loop.Settle(ctx) }

// Run delivers due calls until ctx is cancelled. On cancellation it starts
// no new call, lets those in progress finish for up to
// Options.ShutdownGrace, then aborts them, waits for their outcome to be
// recorded, and returns nil.
func (s *Sender) Run(ctx context.Context) error {
	s.o.Logger.Info("hook sender started", slog.String("queue", s.o.Queue), slog.Int("workers", s.o.Workers))
	err := s.loop.Run(ctx)
	s.o.Logger.Info("hook sender stopped")
	return err
}

// Backoff returns lo*2^(n-1) capped at hi, scaled to d/2 + r*d/2 for r in
// [0, 1).
func Backoff(n int, lo, hi time.Duration, r float64) time.Duration {
	return dispatch.Backoff(n, lo, hi, r)
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

// Transient reports whether a later call may succeed (referee.Transienter).
func (e *callError) Transient() bool { return !e.permanent }

func permanent(format string, args ...any) *callError {
	return &callError{permanent: true, err: fmt.Errorf(format, args...)}
}

// deliver makes one call (dispatch.Options.Deliver).
func (s *Sender) deliver(ctx context.Context, it dispatch.Item) dispatch.Attempt {
	status, cerr := s.attempt(ctx, it)
	if cerr != nil {
		return dispatch.Attempt{Err: cerr, Permanent: cerr.permanent, RetryAfter: cerr.retryAfter, Code: status}
	}
	return dispatch.Attempt{Code: status}
}

// attempt makes one call (dispatch recovers a panic as a transient
// failure).
func (s *Sender) attempt(ctx context.Context, it dispatch.Item) (status int, cerr *callError) {
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

// done logs a committed outcome and reports it (dispatch.Options.Done).
func (s *Sender) done(r dispatch.Report) {
	it := r.Item
	dest := it.To
	if u, err := url.Parse(it.To); err == nil {
		dest = redact(u)
	}
	log := s.o.Logger.With(slog.Uint64("id", it.ID), slog.String("key", it.Key), slog.String("game", it.Game),
		slog.String("hook", it.Meta[referee.MetaHookID]), slog.String("dest", dest), slog.Int("attempt", it.Attempts))
	res := Result{Item: it, Outcome: r.Outcome, Status: r.Attempt.Code, Err: r.Attempt.Err, GaveUp: r.GaveUp,
		Duration: r.Duration, Latency: r.Latency}
	switch r.Outcome {
	case dispatch.Sent:
		log.Info("hook delivered", slog.Int("status", res.Status), slog.Duration("latency", r.Latency))
	case dispatch.Failed:
		log.Warn("hook failed", slog.Int("status", res.Status), slog.Bool("gave_up", r.GaveUp), slog.String("reason", r.Reason))
	default:
		log.Info("hook call deferred", slog.Int("status", res.Status), slog.Time("due", it.Due), slog.Any("err", r.Attempt.Err))
	}
	if s.o.OnResult != nil {
		s.o.OnResult(res)
	}
}
