package config_test

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/imapin"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/edge/smtpout"
	"github.com/pbem-referee/referee/referee/wiring/config"
	"github.com/pbem-referee/referee/store"
)

// referee stands in for the referee's MailHandler in this example.
type refereeStub struct{}

func (refereeStub) HandleMail(context.Context, mailin.Inbound) (referee.Outcome, error) {
	return referee.Outcome{Status: "ignored"}, nil
}

// Example shows how `referee serve` wires the configuration, the store and
// the two mail transports, and stops them on SIGTERM.
func Example() {
	cfg, err := config.Load("/etc/referee/referee.toml")
	if err != nil {
		slog.Error("configuration", "err", err)
		os.Exit(2)
	}
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.LogLevel()}))
	log.Info("starting", "config", cfg) // secrets are redacted

	db, err := store.Open(cfg.StorePath(), nil)
	if err != nil {
		log.Error("store", "err", err)
		os.Exit(1)
	}
	defer db.Close()

	so, err := cfg.SMTPOptions()
	if err != nil {
		log.Error("smtp", "err", err)
		os.Exit(2)
	}
	so.Store, so.Logger = db, log.With("component", "smtpout")
	so.OnResult = func(r smtpout.Result) {
		if r.Outcome == smtpout.OutcomeFailed {
			// The referee marks the address failing and alerts the
			// organisers; metrics count r.Outcome and observe r.Latency.
			log.Warn("undeliverable", "to", r.Item.To, "msgid", r.Item.Key)
		}
	}
	sender, err := smtpout.New(so)
	if err != nil {
		log.Error("smtp", "err", err)
		os.Exit(2)
	}

	// The referee calls sender.Kick() after each commit that queued mail.
	var handler mailin.Handler = refereeStub{}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var wg sync.WaitGroup
	wg.Go(func() { _ = sender.Run(ctx) })
	if cfg.IMAPEnabled() {
		io, err := cfg.IMAPOptions()
		if err != nil {
			log.Error("imap", "err", err)
			os.Exit(2)
		}
		io.Store, io.Handler, io.Logger = db, handler, log.With("component", "imapin")
		watcher, err := imapin.New(io)
		if err != nil {
			log.Error("imap", "err", err)
			os.Exit(2)
		}
		wg.Go(func() { _ = watcher.Run(ctx) })
	}
	wg.Wait() // both return after a graceful stop; then the store closes
}
