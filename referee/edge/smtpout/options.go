package smtpout

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/pbem-referee/referee/referee/edge/dispatch"
	"github.com/pbem-referee/referee/referee/edge/netaddr"
)

// TLSPolicy says how the Sender protects the SMTP connection when it does not
// use implicit TLS.
type TLSPolicy string

// TLS policies.
const (
	// TLSMandatory requires STARTTLS; a server without it is a transient
	// failure.
	TLSMandatory TLSPolicy = "mandatory"
	// TLSOpportunistic uses STARTTLS when the server offers it.
	TLSOpportunistic TLSPolicy = "opportunistic"
	// TLSNone never uses STARTTLS.
	TLSNone TLSPolicy = "none"
)

// AuthMode is the SMTP authentication mechanism.
type AuthMode string

// Authentication mechanisms.
const (
	AuthNone  AuthMode = "none"
	AuthPlain AuthMode = "plain"
	AuthLogin AuthMode = "login"
)

// Defaults of Options.
const (
	DefaultWorkers        = 2
	DefaultDialTimeout    = 30 * time.Second
	DefaultCommandTimeout = 2 * time.Minute
	DefaultDataTimeout    = 10 * time.Minute
	DefaultMinBackoff     = time.Minute
	DefaultMaxBackoff     = 6 * time.Hour
	DefaultGiveUpAfter    = 5 * 24 * time.Hour
	DefaultRetention      = 30 * 24 * time.Hour
	DefaultPruneInterval  = time.Hour
	DefaultShutdownGrace  = 10 * time.Second
	// DefaultQueue is the outbox queue, referee.OutboxQueue (spelled out
	// here so that this package does not depend on the referee's code).
	DefaultQueue = "outbox"
)

// Options configure a Sender. Store is required; Addr is required unless a
// test replaces the transport.
type Options struct {
	// Addr is the SMTP server, "host:port".
	Addr string
	// ImplicitTLS connects with TLS from the first byte (port 465). When
	// set, TLSPolicy is not used.
	ImplicitTLS bool
	// TLSPolicy applies without ImplicitTLS (default TLSMandatory).
	TLSPolicy TLSPolicy
	// TLSConfig, if set, is used for TLS (implicit or STARTTLS); its
	// ServerName defaults to the host of Addr.
	TLSConfig *tls.Config
	// AllowInsecure permits TLSNone or TLSOpportunistic to a server that is
	// not on a loopback address, and authentication over a connection that
	// may be unencrypted. Off by default: credentials and players' mail
	// must not cross a network in clear text.
	AllowInsecure bool
	// Auth is the authentication mechanism (default AuthPlain when Username
	// is set, AuthNone otherwise).
	Auth AuthMode
	// Username and Password are the SMTP credentials. The password is never
	// logged.
	Username string
	Password string
	// HELO is the name sent in EHLO (default "localhost").
	HELO string

	// DialTimeout bounds connecting, the greeting, EHLO, STARTTLS and AUTH
	// (default DefaultDialTimeout).
	DialTimeout time.Duration
	// CommandTimeout bounds each of MAIL, RCPT, DATA and QUIT (default
	// DefaultCommandTimeout).
	CommandTimeout time.Duration
	// DataTimeout bounds sending the message and reading the final reply
	// (default DefaultDataTimeout).
	DataTimeout time.Duration

	// Workers is the number of concurrent deliveries (default
	// DefaultWorkers). Each delivery uses its own connection. A delivery
	// whose I/O ended frees its worker while its outcome is committed,
	// and at most twice Workers messages are sent and not yet recorded
	// (referee/edge/dispatch's rules: what a crash resends).
	Workers int
	// MinBackoff and MaxBackoff bound the exponential retry delay after a
	// transient failure (defaults 1 min and 6 h); each delay is jittered
	// between half and all of its value.
	MinBackoff time.Duration
	MaxBackoff time.Duration
	// GiveUpAfter retires an item as Failed when a transient failure
	// happens and the item is older than this (default 5 days).
	GiveUpAfter time.Duration
	// Retention is how long retired items are kept for inspection and
	// duplicate checks (default 30 days).
	Retention time.Duration
	// PruneInterval is how often retired items past their retention are
	// deleted (default 1 h).
	PruneInterval time.Duration
	// ShutdownGrace is how long deliveries in progress may continue after
	// Run's context is cancelled before their connections are closed
	// (default 10 s).
	ShutdownGrace time.Duration

	// Store is the referee's store. Required.
	Store *dispatch.Store
	// Queue is the store queue to deliver (default DefaultQueue).
	Queue string
	// DefaultFrom is the envelope sender used when an item has no
	// Meta["from"]. Without either the item fails permanently.
	DefaultFrom string
	// Logger receives the Sender's logs (default slog.Default()).
	Logger *slog.Logger
	// Now is the clock (default time.Now).
	Now func() time.Time
	// OnResult, if set, is called after the outcome of every delivery
	// attempt has been committed to the store. It runs on the delivery's
	// goroutine and must not block for long.
	OnResult func(Result)

	// deliver replaces the SMTP transport in tests.
	deliver deliverFunc
}

// LogValue makes Options safe to log: the password is never shown.
func (o Options) LogValue() slog.Value {
	pw := "unset"
	if o.Password != "" {
		pw = "[redacted]"
	}
	return slog.GroupValue(
		slog.String("addr", o.Addr),
		slog.Bool("implicit_tls", o.ImplicitTLS),
		slog.String("tls_policy", string(o.TLSPolicy)),
		slog.String("auth", string(o.Auth)),
		slog.String("username", o.Username),
		slog.String("password", pw),
		slog.Int("workers", o.Workers),
	)
}

func (o *Options) setDefaults() {
	if o.TLSPolicy == "" {
		o.TLSPolicy = TLSMandatory
	}
	if o.Auth == "" {
		if o.Username != "" {
			o.Auth = AuthPlain
		} else {
			o.Auth = AuthNone
		}
	}
	if o.HELO == "" {
		o.HELO = "localhost"
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&o.DialTimeout, DefaultDialTimeout)
	def(&o.CommandTimeout, DefaultCommandTimeout)
	def(&o.DataTimeout, DefaultDataTimeout)
	def(&o.MinBackoff, DefaultMinBackoff)
	def(&o.MaxBackoff, DefaultMaxBackoff)
	def(&o.GiveUpAfter, DefaultGiveUpAfter)
	def(&o.Retention, DefaultRetention)
	def(&o.PruneInterval, DefaultPruneInterval)
	def(&o.ShutdownGrace, DefaultShutdownGrace)
	if o.Workers == 0 {
		o.Workers = DefaultWorkers
	}
	if o.Queue == "" {
		o.Queue = DefaultQueue
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

func (o *Options) validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("smtpout: "+format, args...)) }
	if o.Store == nil {
		bad("no store")
	}
	if o.deliver == nil {
		host, _, err := netaddr.SplitServer(o.Addr)
		if err != nil {
			bad("addr %v", err)
		}
		switch o.TLSPolicy {
		case TLSMandatory, TLSOpportunistic, TLSNone:
		default:
			bad("unknown TLS policy %q (want mandatory, opportunistic or none)", o.TLSPolicy)
		}
		insecure := !o.ImplicitTLS && o.TLSPolicy != TLSMandatory
		if insecure && !o.AllowInsecure && host != "" && !netaddr.IsLoopback(host) {
			bad("TLS policy %q to non-loopback server %s needs AllowInsecure", o.TLSPolicy, host)
		}
		switch o.Auth {
		case AuthNone:
		case AuthPlain, AuthLogin:
			if o.Username == "" {
				bad("auth %q without a username", o.Auth)
			}
		default:
			bad("unknown auth %q (want none, plain or login)", o.Auth)
		}
	}
	if o.Workers < 1 {
		bad("workers %d < 1", o.Workers)
	}
	if o.MinBackoff < 0 || o.MaxBackoff < o.MinBackoff {
		bad("backoff bounds %v..%v are inverted or negative", o.MinBackoff, o.MaxBackoff)
	}
	for name, d := range map[string]time.Duration{
		"dial timeout": o.DialTimeout, "command timeout": o.CommandTimeout, "data timeout": o.DataTimeout,
		"give-up age": o.GiveUpAfter, "retention": o.Retention, "prune interval": o.PruneInterval,
		"shutdown grace": o.ShutdownGrace,
	} {
		if d < 0 {
			bad("negative %s %v", name, d)
		}
	}
	return errors.Join(errs...)
}
