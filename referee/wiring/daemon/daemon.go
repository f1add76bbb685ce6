// Package daemon assembles the running referee: the store, the referee
// core, the IMAP watcher, the SMTP outbox sender, the deadline ticker and the
// HTTP listener, from one configuration. `referee serve` runs it against real
// servers; the embedded demo and the end-to-end benchmark run it against
// in-process ones.
//
// It owns the assembly and the run: what starts, in what order, and how it
// stops. It must not hold game, mail or tournament logic of its own: it
// connects the core, the edges and the store.
package daemon

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/hookout"
	"github.com/pbem-referee/referee/referee/edge/imapin"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/edge/netaddr"
	"github.com/pbem-referee/referee/referee/edge/opsmail"
	"github.com/pbem-referee/referee/referee/edge/smtpout"
	"github.com/pbem-referee/referee/referee/edge/webhook"
	"github.com/pbem-referee/referee/referee/pages"
	"github.com/pbem-referee/referee/referee/wiring/config"
	"github.com/pbem-referee/referee/referee/wiring/metrics"
	"github.com/pbem-referee/referee/store"
)

// Options are what a configuration file cannot say.
type Options struct {
	Logger *slog.Logger
	// Clock is the referee's clock (the system clock if nil).
	Clock referee.Clock
	// Random is the source of secrets and seeds (crypto/rand if nil).
	Random io.Reader
	// NoSync opens the store without fsync on commit (the demo, the
	// benchmark's bulk load, tests): a crash may lose the last commits.
	NoSync bool
	// Mux, if set, receives the daemon's HTTP handlers in addition to its
	// own; the HTTP listener runs when the configuration has a webhook
	// address.
	Mux *http.ServeMux
	// Listener, if set, is used instead of listening on the webhook
	// address (tests and the demo pass one on 127.0.0.1:0).
	Listener net.Listener
	// Handler, if set, replaces the referee as the IMAP watcher's mail
	// handler (the benchmark's pass-through "echo" referee), and as the
	// webhook front door's.
	Handler mailin.Handler
	// HookAllow lists internal addresses (loopback, private...) that
	// outgoing webhooks may nevertheless call; none by default. The demo
	// and tests with hook receivers on 127.0.0.1 pass 127.0.0.0/8.
	HookAllow []netip.Prefix
	// PageBase is the public address of the HTTP listener, for links to
	// the tournament pages in mails ("": webhook.public_url, else relative
	// links).
	PageBase string
}

// Daemon is a running referee.
type Daemon struct {
	cfg     *config.Config
	opt     Options
	log     *slog.Logger
	DB      *store.DB
	Referee *referee.Referee
	// Intake reads the raw mail of the IMAP watcher and the webhook
	// front door for the referee.
	Intake  *mailin.Intake
	Sender  *smtpout.Sender
	Watcher *imapin.Watcher
	// Hooks delivers the outgoing webhooks; Webhook is the HTTP front
	// door; Metrics the Prometheus collectors served at GET /metrics.
	Hooks   *hookout.Sender
	Webhook *webhook.Server
	Metrics *metrics.Metrics
	mux     *http.ServeMux
	tick    chan struct{}
	started time.Time
}

// New opens the store and builds every part; Run starts them.
func New(cfg *config.Config, opt Options) (*Daemon, error) {
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.LogLevel()}))
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, err
	}
	db, err := store.Open(cfg.StorePath(), &store.Options{NoSync: opt.NoSync})
	if err != nil {
		return nil, err
	}
	d := &Daemon{cfg: cfg, opt: opt, log: log, DB: db, tick: make(chan struct{}, 1), mux: opt.Mux}
	if d.mux == nil {
		d.mux = http.NewServeMux()
	}
	fail := func(err error) (*Daemon, error) {
		db.Close()
		return nil, err
	}
	so, err := cfg.SMTPOptions()
	if err != nil {
		return fail(err)
	}
	so.Store, so.Logger, so.Queue = db, log.With("part", "smtp"), referee.OutboxQueue
	if opt.Clock != nil {
		so.Now = opt.Clock.Now
	}
	d.Metrics = metrics.New(log.With("part", "metrics"))
	so.OnResult = func(r smtpout.Result) {
		d.Metrics.MailResult(r)
		d.onResult(r)
	}
	if d.Sender, err = smtpout.New(so); err != nil {
		return fail(fmt.Errorf("smtp: %w", err))
	}
	if d.Hooks, err = d.newHooks(db, log); err != nil {
		return fail(fmt.Errorf("hooks: %w", err))
	}
	from := mailmsg.Address{Name: cfg.Referee.Name, Addr: cfg.RefereeAddress()}
	ro := referee.Options{
		DB: db, Clock: opt.Clock, Domain: cfg.Domain, Local: cfg.Referee.LocalPart, Name: cfg.Referee.Name,
		Compose: referee.Composer(from), Kick: d.kick, Random: opt.Random, Logger: log.With("part", "referee"),
		RateLimit: rateLimit(cfg.Limits.SenderRate), RateWindow: cfg.Limits.SenderRateWindow,
		Observe: d.Metrics.Observe, PageBase: opt.PageBase,
		RegisterNeedsAuth: cfg.Auth.RegisterNeedsAuthentication, ConfirmsPerHour: cfg.Limits.RegisterAnswersPerHour,
		MaxEntrants:   cfg.Limits.MaxEntrants,
		ReceiptWindow: cfg.Referee.ReceiptWindow,
	}
	if ro.PageBase == "" {
		ro.PageBase = cfg.Webhook.PublicURL // webhook.public_url: absolute links in mails
	}
	if u := cfg.Hooks.URL.Reveal(); u != "" {
		// The configured endpoint receives every game's calls.
		ro.DefaultHooks = []referee.Hook{{ID: "default", URL: u, Secret: cfg.Hooks.Secret.Reveal(), Format: "generic"}}
	}
	if d.Referee, err = referee.New(ro); err != nil {
		return fail(err)
	}
	mo := mailin.Options{MaxMessageBytes: int(cfg.Limits.MaxMessageSize),
		Auth: mailin.AuthPolicy{RequireDKIM: cfg.Auth.RequireDKIMAlignment, AuthservID: cfg.Auth.TrustedAuthservID,
			LookupTXT: net.LookupTXT, DMARCDomains: cfg.Auth.DKIMForDMARCDomains},
		Logger: log.With("part", "mailin")}
	if cfg.Operator.Address != "" {
		// Issue 23: the operator is told by mail of every message set
		// aside, within operator.mails_per_day.
		oo := opsmail.Options{Store: db, From: from, To: cfg.Operator.Address, PerDay: cfg.Operator.MailsPerDay,
			Kick: d.Sender.Kick, Logger: log.With("part", "opsmail")}
		if opt.Clock != nil {
			oo.Now = opt.Clock.Now
		}
		if mo.Operator, err = opsmail.New(oo); err != nil {
			return fail(err)
		}
	}
	d.Intake = mailin.New(d.Referee, mo)
	if cfg.IMAPEnabled() {
		io, err := cfg.IMAPOptions()
		if err != nil {
			return fail(err)
		}
		io.Store, io.Logger = db, log.With("part", "imap")
		io.Handler = d.Intake
		if opt.Handler != nil {
			io.Handler = opt.Handler
		}
		if d.Watcher, err = imapin.New(io); err != nil {
			return fail(fmt.Errorf("imap: %w", err))
		}
		d.Metrics.WatchIMAP(d.Watcher.Stats)
	}
	for _, o := range cfg.Organisers {
		if _, err := d.Referee.AddOrganiser(o); err != nil {
			return fail(err)
		}
	}
	// Each organiser's address, for the operator to pass on (an organiser
	// who writes HELP to the referee's plain address gets it by mail too).
	orgs, err := d.Referee.OrganiserAddresses()
	if err != nil {
		return fail(err)
	}
	for _, o := range sortedKeys(orgs) {
		log.Info("organiser address", slog.String("organiser", o), slog.String("write_to", orgs[o]))
	}
	if !cfg.Auth.RequireDKIMAlignment {
		log.Info("sender check: the seat's secret only (auth.require_dkim_alignment is off): whoever learns a seat's " +
			"Reply-To address can play for it; turn alignment on when your players' providers sign their mail")
	}
	d.mux.HandleFunc("GET /healthz", d.healthz)
	if err := d.mountHTTP(db, log); err != nil {
		return fail(err)
	}
	return d, nil
}

// Settle waits until the outcome of every delivery of mail and webhook
// calls whose I/O has ended is on record (dispatch.Loop.Settle: outcomes
// ride in the store's next commit), or ctx ends: what reads a delivery's
// state or the store's writes right after seeing deliveries (the bench,
// the demo's figures, tests) waits here first.
func (d *Daemon) Settle(ctx context.Context) error {
	if err := d.Sender.Settle(ctx); err != nil {
		return err
	}
	if d.Hooks != nil {
		return d.Hooks.Settle(ctx)
	}
	return nil
}

// newHooks builds the outgoing-webhook sender from the [hooks] settings.
func (d *Daemon) newHooks(db *store.DB, log *slog.Logger) (*hookout.Sender, error) {
	h := d.cfg.Hooks
	ho := hookout.Options{Store: db, Queue: referee.HooksQueue, Logger: log.With("part", "hooks"),
		Timeout: h.Timeout, Workers: h.Workers, MinBackoff: h.MinBackoff, MaxBackoff: h.MaxBackoff,
		GiveUpAfter: h.GiveUpAfter, Allow: d.opt.HookAllow, OnResult: d.Metrics.HookResult}
	if d.opt.Clock != nil {
		ho.Now = d.opt.Clock.Now
	}
	return hookout.New(ho)
}

// mountHTTP mounts the webhook front door (the endpoints whose credentials
// are configured) and GET /metrics, and samples the store's queues for
// the metrics.
func (d *Daemon) mountHTTP(db *store.DB, log *slog.Logger) error {
	w := d.cfg.Webhook
	var h mailin.Handler = d.Intake
	if d.opt.Handler != nil {
		h = d.opt.Handler
	}
	// No request body is worth more than a few mails: a form carries the
	// message and a few fields besides (issue 11, item 8).
	maxBody := w.MaxBodySize
	if lim := 3 * d.cfg.Limits.MaxMessageSize; lim > 0 && (maxBody <= 0 || lim < maxBody) {
		maxBody = lim
	}
	proxies, err := d.cfg.TrustedProxyPrefixes()
	if err != nil {
		return err
	}
	mgClient, err := d.cfg.MailgunAPIClient()
	if err != nil {
		return err
	}
	d.Webhook, err = webhook.New(webhook.Options{
		Handler: h, Processor: d.Referee, Replay: d.Referee, Logger: log.With("part", "webhook"),
		Secret: w.Secret.Reveal(), MailgunSigningKey: w.MailgunSigningKey.Reveal(),
		SendGridUsername: w.SendGridUsername, SendGridPassword: w.SendGridPassword.Reveal(),
		PostmarkUsername: w.PostmarkUsername, PostmarkPassword: w.PostmarkPassword.Reveal(),
		MaxBodySize: maxBody, MaxClockSkew: w.MaxClockSkew, Wrap: d.Metrics.Instrument,
		BodyReadTimeout: w.BodyReadTimeout, MaxPerClient: w.MaxPerClient, MaxUnauthenticated: w.MaxUnauthenticated,
		MaxAttempts: w.MaxAttempts, Attempts: storeAttempts{db},
		MailgunAPIKey: w.MailgunAPIKey.Reveal(), MailgunAPIHosts: w.MailgunAPIHosts, TrustedProxies: proxies,
		MailgunClient: mgClient,
	})
	if err != nil {
		return fmt.Errorf("webhook: %w", err)
	}
	d.Webhook.Register(d.mux)
	pages.Register(d.mux, d.Referee, log.With("part", "pages"))
	d.Metrics.WatchStore(d.Referee, 0, referee.OutboxQueue, referee.HooksQueue)
	d.mux.Handle("GET /metrics", d.guardMetrics(d.Metrics.Handler()))
	return nil
}

// guardMetrics keeps /metrics from the world on the public listener (issue
// 11, item 9): with webhook.metrics_token a bearer token is required,
// without it only loopback clients are served.
func (d *Daemon) guardMetrics(h http.Handler) http.Handler {
	token := d.cfg.Webhook.MetricsToken.Reveal()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token != "" {
			scheme, got, _ := strings.Cut(r.Header.Get("Authorization"), " ")
			if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(token)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
				http.Error(w, "metrics need the bearer token", http.StatusUnauthorized)
				return
			}
		} else if host, _, err := net.SplitHostPort(r.RemoteAddr); err != nil || !netaddr.IsLoopback(host) {
			http.Error(w, "metrics are served to loopback clients only (set webhook.metrics_token)", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// rateLimit maps the configuration's sender rate (0 disables the limit) to
// the referee's option (negative disables it).
func rateLimit(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// kick wakes the sender and the ticker after the referee committed.
func (d *Daemon) kick() {
	d.Sender.Kick()
	d.Hooks.Kick()
	select {
	case d.tick <- struct{}{}:
	default:
	}
}

// onResult handles a finished delivery: a permanent failure marks the
// address as failing and alerts the organisers.
func (d *Daemon) onResult(r smtpout.Result) {
	if r.Outcome != smtpout.OutcomeFailed {
		return
	}
	reason := "delivery failed"
	if r.Err != nil {
		reason = r.Err.Error()
	}
	if err := d.Referee.DeliveryFailed(r.Item.To, reason); err != nil {
		d.log.Error("recording a failed delivery", slog.String("to", r.Item.To), slog.Any("error", err))
	}
}

// Run runs every part until ctx is cancelled, then shuts down in order:
// intake first (IMAP, HTTP), then the ticker, then the sender's deliveries in
// progress; the store is closed last.
func (d *Daemon) Run(ctx context.Context) error {
	d.started = time.Now()
	d.log.Info("referee starting", slog.Any("config", d.cfg))
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	errs := make(chan error, 5)
	run := func(name string, f func(context.Context) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					d.log.Error("panic", slog.String("part", name), slog.Any("panic", p), slog.String("stack", string(debug.Stack())))
					errs <- fmt.Errorf("%s: panic: %v", name, p)
					cancel(fmt.Errorf("%s panicked", name))
				}
			}()
			if err := f(ctx); err != nil && !errors.Is(err, context.Canceled) {
				d.log.Error("stopped", slog.String("part", name), slog.Any("error", err))
				errs <- fmt.Errorf("%s: %w", name, err)
				cancel(err)
			}
		}()
	}
	run("smtp", d.Sender.Run)
	run("hooks", d.Hooks.Run)
	run("ticker", d.runTicker)
	if d.Watcher != nil {
		run("imap", d.Watcher.Run)
	}
	if d.cfg.WebhookEnabled() || d.opt.Listener != nil {
		run("http", d.runHTTP)
	}
	<-ctx.Done()
	d.log.Info("referee stopping", slog.Any("cause", context.Cause(ctx)))
	wg.Wait()
	close(errs)
	var all []error
	for err := range errs {
		all = append(all, err)
	}
	if err := d.DB.Close(); err != nil {
		all = append(all, err)
	}
	return errors.Join(all...)
}

// runTicker runs the referee's deadlines: it sleeps until the earliest
// wake-up in the store (or a kick after a commit, or a minute at most, as a
// safety net against clock jumps) and then calls Tick.
func (d *Daemon) runTicker(ctx context.Context) error {
	var pruned time.Time
	for {
		if time.Since(pruned) >= time.Hour {
			// Old de-duplication records, bounce ids and replay tokens.
			if n, err := d.Referee.Prune(ctx); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				d.log.Error("prune", slog.Any("error", err))
			} else {
				pruned = time.Now()
				if n > 0 {
					d.log.Info("pruned old records", slog.Int("records", n))
				}
			}
		}
		n, err := d.Referee.Tick(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			d.log.Error("tick", slog.Any("error", err))
		} else if n > 0 {
			d.log.Debug("tick", slog.Int("games", n))
		}
		wait := time.Minute
		if next, ok, err := d.Referee.NextWake(); err == nil && ok {
			if w := time.Until(next); w < wait {
				wait = max(w, 10*time.Millisecond)
			}
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-d.tick:
			t.Stop()
		case <-t.C:
		}
	}
}

func (d *Daemon) runHTTP(ctx context.Context) error {
	c := d.cfg.Webhook
	srv := &http.Server{Handler: d.mux, ReadHeaderTimeout: c.ReadHeaderTimeout, ReadTimeout: c.ReadTimeout,
		WriteTimeout: c.ReadTimeout + 30*time.Second, IdleTimeout: 2 * time.Minute,
		ErrorLog: slog.NewLogLogger(d.log.Handler(), slog.LevelWarn)}
	ln := d.opt.Listener
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", c.Addr); err != nil {
			return err
		}
	}
	d.log.Info("http listening", slog.String("addr", ln.Addr().String()))
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	timeout := c.ShutdownTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	sctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	return ctx.Err()
}

func (d *Daemon) healthz(w http.ResponseWriter, r *http.Request) {
	if err := d.DB.View(func(tx *store.Tx) error { return nil }); err != nil {
		http.Error(w, "store: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintf(w, "ok\nuptime %s\n", time.Since(d.started).Round(time.Second))
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// storeAttempts records the webhook's hand-overs in the store, so that a
// posted message that kills the daemon is set aside after a few restarts
// (issue 23).
type storeAttempts struct{ db *store.DB }

func (a storeAttempts) BeginAttempt(key string) (n int, err error) {
	err = a.db.Group(func(tx *store.Tx) error {
		n, err = tx.BeginAttempt(key)
		return err
	})
	return n, err
}

// AttemptCount reads a count (webhook.AttemptCounter).
func (a storeAttempts) AttemptCount(key string) (n int, err error) {
	err = a.db.View(func(tx *store.Tx) error {
		n = tx.AttemptCount(key)
		return nil
	})
	return n, err
}

func (a storeAttempts) EndAttempt(key string) error {
	return a.db.Group(func(tx *store.Tx) error { return tx.EndAttempt(key) })
}

// EndWith ends the attempt in the commit that records the input
// (webhook.AttemptRider, store.DB.Ride).
func (a storeAttempts) EndWith(key, inputKey string) func() bool {
	return a.db.Ride(inputKey, func(tx *store.Tx) error { return tx.EndAttempt(key) }).Done
}
