package demo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/wiring/config"
	"github.com/pbem-referee/referee/referee/wiring/daemon"
)

// MailStack is a mail system the referee and the players use: the
// embedded MailServer, or (for the benchmark) a real Dovecot + Postfix.
type MailStack interface {
	// Domain is the mail domain of every account.
	Domain() string
	// Account returns the account of a local part, creating it when the
	// stack can (the embedded one can; a real one has its users fixed).
	Account(local, name string) (Account, error)
}

// Embedded wraps a MailServer as a MailStack.
type Embedded struct{ *MailServer }

// Domain implements MailStack.
func (e Embedded) Domain() string { return e.MailServer.Domain }

// Account implements MailStack: it creates the user when needed.
func (e Embedded) Account(local, name string) (Account, error) {
	addr, pw, err := e.AddUser(local, "")
	if err != nil {
		return Account{}, err
	}
	return Account{Name: name, Addr: addr, Password: pw, IMAPAddr: e.IMAPAddr, SMTPAddr: e.SMTPAddr}, nil
}

// SiteOptions configure a referee daemon started on a mail stack.
type SiteOptions struct {
	// Dir is the daemon's data directory (created).
	Dir    string
	Logger *slog.Logger
	// NoSync opens the store without fsync (benchmarks of bulk loads only).
	NoSync bool
	// Handler replaces the referee as the mail handler (the benchmark's
	// echo referee); it is built once the daemon exists.
	Handler func(d *daemon.Daemon) mailin.Handler
	// SMTPWorkers is the number of concurrent deliveries (default 4).
	SMTPWorkers int
	// LogLevel of the daemon's configuration ("warn" by default).
	LogLevel string
	// PageBase is where the public pages are served (links in mails).
	PageBase string
}

// Config is the daemon configuration the demo and the benchmark use: the
// referee's account over IMAP and SMTP without TLS on loopback, no sender
// rate limit (bots write far more than 60 mails an hour), quick retries.
func Config(domain, dir string, acc Account, smtpWorkers int, logLevel string) config.Config {
	cfg := config.Default()
	cfg.Domain = domain
	cfg.DataDir = dir
	cfg.Referee.Name = "PBEM Referee"
	cfg.IMAP.Addr, cfg.IMAP.TLS, cfg.IMAP.Username, cfg.IMAP.Password = acc.IMAPAddr, "none", acc.Addr, config.Secret(acc.Password)
	cfg.IMAP.Idle = "on"
	cfg.IMAP.ResyncInterval = 30 * time.Second
	cfg.IMAP.MinBackoff, cfg.IMAP.MaxBackoff = 100*time.Millisecond, 2*time.Second
	cfg.IMAP.DialTimeout = 10 * time.Second
	cfg.SMTP.Addr, cfg.SMTP.TLS = acc.SMTPAddr, "none"
	cfg.SMTP.Auth = "none"
	if acc.SMTPAuth {
		cfg.SMTP.Auth, cfg.SMTP.Username, cfg.SMTP.Password = "plain", acc.Addr, config.Secret(acc.Password)
	}
	cfg.SMTP.HELO = "referee." + domain
	cfg.SMTP.Workers = smtpWorkers
	cfg.SMTP.MinBackoff, cfg.SMTP.MaxBackoff = 200*time.Millisecond, 5*time.Second
	cfg.SMTP.DialTimeout = 10 * time.Second
	cfg.Limits.SenderRate = 1 << 30
	// The demo's own closed mail system logs every sender in: its
	// REGISTERs are answered without DKIM, and the tournament's sign-up is
	// not held to the hourly budget meant against backscatter (issue 23).
	cfg.Auth.RegisterNeedsAuthentication = false
	cfg.Limits.RegisterAnswersPerHour = -1
	cfg.Log.Level = logLevel
	return cfg
}

// Site is a running referee daemon wired to a mail stack.
type Site struct {
	Daemon *daemon.Daemon
	Config *config.Config
	// Referee is the referee's own account.
	Referee Account

	cancel context.CancelFunc
	done   chan error
}

// StartSite builds the daemon from a configuration made in code (IMAP and
// SMTP without TLS on loopback, no sender rate limit, quick retries) and
// runs it until Stop.
func StartSite(ctx context.Context, stack MailStack, opt SiteOptions) (*Site, error) {
	if opt.SMTPWorkers <= 0 {
		opt.SMTPWorkers = 4
	}
	if opt.LogLevel == "" {
		opt.LogLevel = "warn"
	}
	acc, err := stack.Account("referee", "PBEM Referee")
	if err != nil {
		return nil, err
	}
	cfg := Config(stack.Domain(), opt.Dir, acc, opt.SMTPWorkers, opt.LogLevel)
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("demo: configuration: %w", err)
	}
	if err := os.MkdirAll(opt.Dir, 0o700); err != nil {
		return nil, err
	}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	do := daemon.Options{Logger: log, PageBase: opt.PageBase}
	if opt.NoSync {
		do.NoSync = true
	}
	// The handler may need the daemon (its store, its sender's Kick), and
	// the watcher takes Options.Handler at New: hand it a forwarder, set
	// before Run starts.
	var fw *forwardHandler
	if opt.Handler != nil {
		fw = &forwardHandler{}
		do.Handler = fw
	}
	d, err := daemon.New(&cfg, do)
	if err != nil {
		return nil, err
	}
	if fw != nil {
		fw.h = opt.Handler(d)
	}
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s := &Site{Daemon: d, Config: &cfg, Referee: acc, cancel: cancel, done: make(chan error, 1)}
	go func() {
		var err error
		defer func() {
			if p := recover(); p != nil {
				log.Error("daemon panicked", slog.Any("panic", p), slog.String("stack", string(debug.Stack())))
				err = fmt.Errorf("demo: daemon panicked: %v", p)
			}
			s.done <- err
		}()
		err = d.Run(rctx)
	}()
	return s, nil
}

// Stop stops the daemon (graceful shutdown) and closes its store.
func (s *Site) Stop() error {
	s.cancel()
	err := <-s.done
	s.done <- err // Stop may be called again
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// BotBrain returns the brain of a bot seat in the site's games: the bot
// name of maker, peeking at the site's tables, with a random source of its
// own seeded from key.
func (s *Site) BotBrain(maker engine.BotMaker, name, key string) (*GameBrain, error) {
	d, err := NewBotDecider(maker, name, key, s.Tables())
	if err != nil {
		return nil, err
	}
	return &GameBrain{Decider: d}, nil
}

// Tables returns a TableLoader that asks the referee for a game's table
// (read-only, one store read transaction).
func (s *Site) Tables() TableLoader {
	return s.Daemon.Referee.Table
}

// forwardHandler lets the daemon take a handler built after it.
type forwardHandler struct{ h mailin.Handler }

func (f *forwardHandler) HandleMail(ctx context.Context, in mailin.Inbound) (referee.Outcome, error) {
	if f.h == nil {
		return referee.Outcome{}, errors.New("demo: handler not ready")
	}
	return f.h.HandleMail(ctx, in)
}

// Parse implements mailin.Reader when the handler is one (nil
// otherwise: the transport hands the raw mail over).
func (f *forwardHandler) Parse(in mailin.Inbound) *mailin.Parsed {
	if r, ok := f.h.(mailin.Reader); ok {
		return r.Parse(in)
	}
	return nil
}

// HandleParsed implements mailin.Reader.
func (f *forwardHandler) HandleParsed(ctx context.Context, p *mailin.Parsed) (referee.Outcome, error) {
	r, ok := f.h.(mailin.Reader)
	if !ok {
		return f.HandleMail(ctx, p.In)
	}
	return r.HandleParsed(ctx, p)
}
