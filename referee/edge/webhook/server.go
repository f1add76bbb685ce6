package webhook

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime/debug"
	"time"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
)

// Processor runs already-parsed command requests and answers the seat and
// state questions of the commands endpoint (the referee).
type Processor interface {
	Process(ctx context.Context, req referee.Request) (referee.Outcome, error)
	SeatForSecret(game, secret string) (referee.SeatAuth, error)
	StateToken(game string) (tok int, ok bool, err error)
}

// ReplayStore keeps the providers' one-time tokens across restarts (the
// referee): see referee.Referee.UseReplayToken.
type ReplayStore interface {
	UseReplayToken(token, msgid string, now, expires time.Time, prune bool) (prev string, fresh bool, err error)
}

// Attempts records hand-overs durably, so that a message whose handling
// kills the process is recognised after the restart (the store: see
// store.Tx.BeginAttempt). Begin returns the count including this one.
type Attempts interface {
	BeginAttempt(key string) (int, error)
	EndAttempt(key string) error
}

// AttemptRider, when Options.Attempts implements it, ends an attempt in
// the commit that records the input with de-duplication key inputKey
// (the store: store.DB.Ride), so that a mail handed over costs no commit
// of its own to end its attempt (issue 25). done reports, once the input
// was handed over, whether it was ended so; if not, EndAttempt is called.
type AttemptRider interface {
	EndWith(key, inputKey string) (done func() bool)
}

// AttemptCounter, when Options.Attempts implements it, reads a count
// without changing it: a message that failed before a restart and then
// succeeds has its durable failure count cleared (the store: a read).
type AttemptCounter interface {
	AttemptCount(key string) (int, error)
}

// Defaults of Options.
const (
	DefaultMaxBodySize     = 10 << 20
	DefaultMaxCommandBytes = 64 << 10
	DefaultMaxClockSkew    = 5 * time.Minute
	DefaultMaxInFlight     = 4
	// Issue 23: the budgets of unauthenticated body reads, their time
	// bound, and the failures of one message before it is set aside.
	DefaultMaxPerClient       = 4
	DefaultMaxUnauthenticated = 32
	DefaultBodyReadTimeout    = 20 * time.Second
	DefaultMaxAttempts        = 5
)

// Options configure a Server. Each endpoint is mounted only when what it
// needs is set.
type Options struct {
	// Handler processes inbound mail (the referee). Required for the
	// /inbound endpoints.
	Handler mailin.Handler
	// Processor serves POST /games/{id}/commands (the referee).
	Processor Processor
	// Replay, if set, keeps the Mailgun tokens seen across restarts (the
	// referee); without it they are kept in memory.
	Replay ReplayStore
	Logger *slog.Logger
	// Now is the clock of signature timestamps (time.Now if nil).
	Now func() time.Time

	// Secret is the HMAC-SHA256 key of POST /inbound.
	Secret string
	// MailgunSigningKey verifies Mailgun's signatures (POST
	// /inbound/mailgun, /inbound/mailgun/mime).
	MailgunSigningKey string
	// MailgunAPIKey, if set, fetches the message of a post that carries
	// message-url (a store(notify=...) route) from Mailgun's storage
	// instead of believing the posted body (issue 23; mailgunstore.go).
	// MailgunAPIHosts are the hosts (and their subdomains; an entry with
	// a port matches exactly) whose URLs are fetched (default
	// DefaultMailgunAPIHosts); MailgunClient fetches them (default: a
	// client with DefaultMailgunFetchTimeout that follows no redirect).
	MailgunAPIKey   string
	MailgunAPIHosts []string
	MailgunClient   *http.Client
	// TrustedProxies are the addresses of reverse proxies whose
	// Forwarded or X-Forwarded-For header names the client for the
	// per-client budget (issue 23); nobody else's is believed.
	TrustedProxies []netip.Prefix
	// SendGridUsername and SendGridPassword: basic authentication of POST
	// /inbound/sendgrid.
	SendGridUsername, SendGridPassword string
	// PostmarkUsername and PostmarkPassword: basic authentication of POST
	// /inbound/postmark.
	PostmarkUsername, PostmarkPassword string

	// MaxBodySize caps an inbound request body (default
	// DefaultMaxBodySize); MaxCommandBytes a command request (default
	// DefaultMaxCommandBytes).
	MaxBodySize     int64
	MaxCommandBytes int64
	// MaxClockSkew is the largest accepted distance between a signed
	// timestamp and now (default DefaultMaxClockSkew).
	MaxClockSkew time.Duration
	// MaxInFlight bounds the authenticated requests handed to the referee
	// at the same time (default DefaultMaxInFlight): more wait up to a
	// second, then get 503 with Retry-After. Bodies are never read while
	// holding a slot (issue 23).
	MaxInFlight int
	// MaxPerClient and MaxUnauthenticated bound the bodies read before
	// they can be authenticated (the raw and Mailgun endpoints), per
	// client address and in all (defaults DefaultMaxPerClient,
	// DefaultMaxUnauthenticated); beyond them the answer is 429 at once.
	MaxPerClient       int
	MaxUnauthenticated int
	// BodyReadTimeout bounds reading one request body (default
	// DefaultBodyReadTimeout).
	BodyReadTimeout time.Duration
	// MaxAttempts sets a message aside after this many failed hand-overs
	// (transient errors or panics): the referee records it and tells its
	// sender, and the provider gets its "do not retry" answer (default
	// DefaultMaxAttempts; negative: never).
	MaxAttempts int
	// Attempts, if set, counts hand-overs across crashes: a message whose
	// handling began MaxCrashes times without finishing (the process
	// died each time) is set aside without being handed over again
	// (default 3 when Attempts is set; negative: never).
	Attempts   Attempts
	MaxCrashes int
	// Wrap, if set, wraps each endpoint's handler (metrics); route is the
	// mux pattern.
	Wrap func(route string, h http.Handler) http.Handler
}

// Server holds the endpoints. It is safe for concurrent use.
type Server struct {
	o      Options
	log    *slog.Logger
	tokens *tokenCache
	slots  chan struct{}
	gate   *gate
	failed *failures
	// mgClient fetches stored Mailgun messages.
	mgClient *http.Client
}

// New returns a Server.
func New(o Options) (*Server, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxBodySize <= 0 {
		o.MaxBodySize = DefaultMaxBodySize
	}
	if o.MaxCommandBytes <= 0 {
		o.MaxCommandBytes = DefaultMaxCommandBytes
	}
	if o.MaxClockSkew <= 0 {
		o.MaxClockSkew = DefaultMaxClockSkew
	}
	inbound := o.Secret != "" || o.MailgunSigningKey != "" || o.SendGridPassword != "" || o.PostmarkPassword != ""
	if inbound && o.Handler == nil {
		return nil, errors.New("webhook: inbound credentials but no mail handler")
	}
	if (o.SendGridUsername == "") != (o.SendGridPassword == "") || (o.PostmarkUsername == "") != (o.PostmarkPassword == "") {
		return nil, errors.New("webhook: basic authentication needs both a user name and a password")
	}
	// A token is remembered for twice the skew: older ones fail the
	// timestamp check anyway.
	if o.MaxInFlight <= 0 {
		o.MaxInFlight = DefaultMaxInFlight
	}
	if o.MaxPerClient <= 0 {
		o.MaxPerClient = DefaultMaxPerClient
	}
	if o.MaxUnauthenticated <= 0 {
		o.MaxUnauthenticated = DefaultMaxUnauthenticated
	}
	if o.BodyReadTimeout <= 0 {
		o.BodyReadTimeout = DefaultBodyReadTimeout
	}
	if o.MaxAttempts == 0 {
		o.MaxAttempts = DefaultMaxAttempts
	}
	if o.MaxCrashes == 0 {
		o.MaxCrashes = 3
	}
	if len(o.MailgunAPIHosts) == 0 {
		o.MailgunAPIHosts = DefaultMailgunAPIHosts
	}
	if o.MailgunClient == nil {
		o.MailgunClient = NewMailgunClient(DefaultMailgunFetchTimeout, nil)
	}
	return &Server{o: o, log: o.Logger, mgClient: o.MailgunClient, tokens: newTokenCache(2*o.MaxClockSkew, o.Now, o.Replay),
		slots:  make(chan struct{}, o.MaxInFlight),
		gate:   &gate{perClient: map[string]int{}, maxClient: o.MaxPerClient, maxTotal: o.MaxUnauthenticated},
		failed: &failures{seen: map[[32]byte]failure{}}}, nil
}

// Routes lists the mux patterns Register mounts, in order.
func (s *Server) Routes() []string {
	var r []string
	if s.o.Secret != "" {
		r = append(r, "POST /inbound")
	}
	if s.o.MailgunSigningKey != "" {
		r = append(r, "POST /inbound/mailgun", "POST /inbound/mailgun/mime")
	}
	if s.o.SendGridPassword != "" {
		r = append(r, "POST /inbound/sendgrid")
	}
	if s.o.PostmarkPassword != "" {
		r = append(r, "POST /inbound/postmark")
	}
	if s.o.Processor != nil {
		r = append(r, "POST /games/{id}/commands")
	}
	return r
}

// Register mounts the configured endpoints on mux.
func (s *Server) Register(mux *http.ServeMux) {
	handlers := map[string]http.HandlerFunc{
		"POST /inbound":              s.raw,
		"POST /inbound/mailgun":      s.mailgun,
		"POST /inbound/mailgun/mime": s.mailgun,
		"POST /inbound/sendgrid":     s.sendgrid,
		"POST /inbound/postmark":     s.postmark,
		"POST /games/{id}/commands":  s.commands,
	}
	for _, route := range s.Routes() {
		var h http.Handler = s.recoverer(route, handlers[route])
		if s.o.Wrap != nil {
			h = s.o.Wrap(route, h)
		}
		mux.Handle(route, h)
	}
}

// recoverer turns a panic in a handler into a 500 (a transient answer: the
// provider retries) instead of a dropped connection, and logs it.
func (s *Server) recoverer(route string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.Error("webhook: panic", slog.String("route", route), slog.Any("panic", p),
					slog.String("stack", string(debug.Stack())))
				writeJSON(w, http.StatusInternalServerError, errorBody{Error: "internal error"})
			}
		}()
		h(w, r)
	}
}

// provider describes one inbound format: its Inbound.Source and the status
// codes its retry semantics call for.
type provider struct {
	name   string
	source string
	// unauthorized: bad or missing credentials; malformed: not the
	// provider's format; tooLarge: over MaxBodySize; permanent: a message
	// that can never be processed. Transient failures are always 503.
	unauthorized, malformed, tooLarge, permanent int
}

var (
	rawProvider      = provider{"raw", "webhook:raw", 401, 400, 413, 422}
	mailgunProvider  = provider{"mailgun", "webhook:mailgun", 401, 406, 406, 406}
	sendgridProvider = provider{"sendgrid", "webhook:sendgrid", 401, 400, 413, 422}
	postmarkProvider = provider{"postmark", "webhook:postmark", 401, 403, 403, 403}
)

// errorBody is the JSON of an error answer.
type errorBody struct {
	Error string `json:"error"`
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// fail answers an error and logs it (the reason only: never the request's
// content or credentials).
func (s *Server) fail(w http.ResponseWriter, r *http.Request, p provider, code int, reason string) {
	level := slog.LevelInfo
	if code >= 500 {
		level = slog.LevelError
	} else if code == p.unauthorized || code == http.StatusForbidden {
		level = slog.LevelWarn
	}
	s.log.Log(r.Context(), level, "webhook refused", slog.String("provider", p.name), slog.Int("status", code),
		slog.String("reason", reason), slog.String("remote", r.RemoteAddr))
	if code == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "60")
	}
	writeJSON(w, code, errorBody{Error: reason})
}

// readBody reads the whole body, at most limit bytes. ok is false when an
// answer was already written.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, p provider, limit int64) ([]byte, bool) {
	if r.ContentLength > limit {
		// Refused before a byte of it is read.
		s.fail(w, r, p, p.tooLarge, "request body too large")
		return nil, false
	}
	// The whole body within BodyReadTimeout (issue 23): a client that
	// trickles it is cut off. (A ResponseRecorder cannot set deadlines.)
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.o.BodyReadTimeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			s.fail(w, r, p, p.tooLarge, "request body too large")
			return nil, false
		}
		// The client went away, was too slow or sent garbage.
		s.fail(w, r, p, http.StatusRequestTimeout, "reading the request body failed or took too long")
		return nil, false
	}
	return body, true
}

// deliver hands a raw message to the mail handler and answers according to
// the provider's retry semantics. It reports whether the failure was
// transient (the provider will retry).
func (s *Server) deliver(w http.ResponseWriter, r *http.Request, p provider, raw []byte, keys []string) (transient bool) {
	return s.deliverInbound(w, r, p, raw, keys, false)
}

// deliverInbound is deliver, with mailin.Inbound.Unbound set for bytes the
// provider's authentication does not cover.
func (s *Server) deliverInbound(w http.ResponseWriter, r *http.Request, p provider, raw []byte, keys []string, unbound bool) (transient bool) {
	release, ok := s.slot(w, r, p)
	if !ok {
		return true
	}
	defer release()
	in := mailin.Inbound{Raw: raw, Source: p.source, Keys: keys, Received: s.o.Now(), Unbound: unbound}
	// The commit must not be abandoned halfway because the provider hung
	// up: the transaction is short, and its answer is what matters.
	ctx := context.WithoutCancel(r.Context())
	if s.o.Attempts != nil && s.o.MaxCrashes > 0 {
		// The attempt is on record before the hand-over: a message that
		// kills the process is recognised after the restart (issue 23).
		key := "webhook:" + digest(raw)
		n, aerr := s.o.Attempts.BeginAttempt(key)
		switch {
		case aerr != nil:
			s.log.Error("webhook: could not record the attempt", slog.Any("err", aerr))
			s.fail(w, r, p, http.StatusServiceUnavailable, "temporary failure, retry later")
			return true
		case n > s.o.MaxCrashes:
			s.keep(ctx, p, raw, keys, "crashed", fmt.Sprintf("handling began %d times and never finished", n-1))
			_ = s.o.Attempts.EndAttempt(key)
			s.fail(w, r, p, p.permanent, fmt.Sprintf("set aside: handling began %d times and never finished", n-1))
			return false
		}
		ended := func() bool { return false }
		if rider, ok := s.o.Attempts.(AttemptRider); ok {
			if len(keys) == 0 {
				// A post without a key of its own gets one from its
				// bytes, for the attempt's end to ride on (issue 25: two
				// commits per post). It de-duplicates nothing the
				// Message-ID's key (mailin) does not: the same bytes
				// carry the same Message-ID.
				keys = []string{key}
				in.Keys = keys
			}
			ended = rider.EndWith(key, keys[0])
		}
		defer func() {
			if ended() {
				return
			}
			if eerr := s.o.Attempts.EndAttempt(key); eerr != nil {
				s.log.Warn("webhook: could not clear the attempt", slog.Any("err", eerr))
			}
		}()
	}
	out, err := s.handOver(ctx, in)
	if err != nil && !referee.IsPermanent(err) && s.o.MaxAttempts > 0 {
		// Issue 23, rule 2: whatever the reason, a message that keeps
		// failing is set aside, its sender and the operator told, and
		// the provider told not to retry.
		if n := s.countFailure(raw); n >= s.o.MaxAttempts {
			s.setAside(ctx, p, raw, keys, n, err)
			s.forgetFailures(raw)
			s.fail(w, r, p, p.permanent, fmt.Sprintf("set aside after %d failed attempts", n))
			return false
		}
	} else if err == nil && s.failedBefore(raw) {
		s.forgetFailures(raw)
	}
	switch {
	case err == nil:
		s.log.Info("webhook message", slog.String("provider", p.name), slog.String("status", string(out.Status)),
			slog.String("game", out.Game), slog.Int("seat", out.Seat), slog.Int("bytes", len(raw)))
		writeJSON(w, http.StatusOK, out)
		return false
	case referee.IsPermanent(err):
		s.fail(w, r, p, p.permanent, err.Error())
		return false
	default:
		s.log.Error("webhook: handling a message failed; the provider will retry", slog.String("provider", p.name),
			slog.Any("err", err))
		s.fail(w, r, p, http.StatusServiceUnavailable, "temporary failure, retry later")
		return true
	}
}

// basicAuth checks HTTP basic credentials in constant time (the digests
// have a fixed length, so neither the content nor the length leaks).
func basicAuth(r *http.Request, user, pass string) bool {
	u, p, ok := r.BasicAuth()
	if !ok || user == "" || pass == "" {
		return false
	}
	return equalSecret(u, user)&equalSecret(p, pass) == 1
}

func equalSecret(got, want string) int {
	g, w := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(want))
	return subtle.ConstantTimeCompare(g[:], w[:])
}

// unauthorized answers 401 with a Basic challenge.
func (s *Server) unauthorizedBasic(w http.ResponseWriter, r *http.Request, p provider) {
	w.Header().Set("WWW-Authenticate", `Basic realm="referee", charset="UTF-8"`)
	s.fail(w, r, p, p.unauthorized, "authentication required")
}
