package imapin

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/edge/netaddr"
	"github.com/pbem-referee/referee/store"
)

// TLSMode is how the connection to the IMAP server is protected.
type TLSMode string

// TLS modes.
const (
	// TLSImplicit: TLS from the first byte (port 993).
	TLSImplicit TLSMode = "tls"
	// TLSStartTLS: plain connection upgraded with STARTTLS (port 143).
	TLSStartTLS TLSMode = "starttls"
	// TLSNone: no encryption; allowed only to a loopback address unless
	// Options.AllowInsecure is set.
	TLSNone TLSMode = "none"
)

// IdleMode says whether the Watcher uses IDLE.
type IdleMode string

// IDLE modes.
const (
	// IdleAuto uses IDLE when the server advertises it, polling otherwise.
	IdleAuto IdleMode = "auto"
	// IdleOn is IdleAuto, but a server without IDLE is logged as a
	// warning.
	IdleOn IdleMode = "on"
	// IdleOff always polls every Options.PollInterval.
	IdleOff IdleMode = "off"
)

// Defaults of Options.
const (
	DefaultMailbox          = "INBOX"
	DefaultProcessedFolder  = "Processed"
	DefaultQuarantineFolder = "Quarantine"
	DefaultPollInterval     = time.Minute
	DefaultResyncInterval   = 5 * time.Minute
	DefaultMinBackoff       = time.Second
	DefaultMaxBackoff       = 5 * time.Minute
	DefaultDialTimeout      = 30 * time.Second
	DefaultShutdownGrace    = 5 * time.Second
	DefaultFetchBatch       = 20
	DefaultLanes            = 4
	DefaultMaxCrashes       = 3
	DefaultMaxAttempts      = 5
)

// DialFunc opens the network connection to the server (before TLS).
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// Options configure a Watcher. Addr, Username, Store and Handler are
// required.
type Options struct {
	// Addr is the IMAP server, "host:port".
	Addr string
	// TLS is the TLS mode (default TLSImplicit).
	TLS TLSMode
	// AllowInsecure permits TLSNone to a server that is not on a loopback
	// address.
	AllowInsecure bool
	// TLSConfig, if set, is used for TLS; its ServerName defaults to the
	// host of Addr.
	TLSConfig *tls.Config
	// Username and Password log in. The password is never logged.
	Username string
	Password string
	// Account names the account in de-duplication keys and in the store's
	// cursor key (default Username). Keep it stable: changing it makes the
	// Watcher rescan the mailbox (harmless, but slow on a big mailbox).
	Account string
	// Mailbox is the mailbox to watch (default "INBOX").
	Mailbox string
	// ProcessedFolder receives processed messages (default "Processed");
	// QuarantineFolder receives messages that can never be processed
	// (default "Quarantine"). Both are created when missing.
	ProcessedFolder  string
	QuarantineFolder string
	// Idle selects IDLE (default IdleAuto).
	Idle IdleMode
	// PollInterval is the time between two looks at the mailbox when not
	// idling (default 1 min).
	PollInterval time.Duration
	// ResyncInterval is the time between two safety re-syncs, which also
	// sweep leftovers, even while idling (default 5 min).
	ResyncInterval time.Duration
	// MinBackoff and MaxBackoff bound the exponential, jittered delay
	// before reconnecting and before retrying after a transient HandleMail
	// error (defaults 1 s and 5 min).
	MinBackoff time.Duration
	MaxBackoff time.Duration
	// DialTimeout bounds connecting, the TLS handshake and the greeting
	// (default 30 s).
	DialTimeout time.Duration
	// ShutdownGrace is how long the Watcher may finish the message in hand
	// and log out after its context is cancelled before the connection is
	// closed (default 5 s).
	ShutdownGrace time.Duration
	// MaxMessageSize, if positive, quarantines larger messages without
	// fetching them.
	MaxMessageSize int64
	// FetchBatch is how many messages are fetched per FETCH (default 20).
	FetchBatch int
	// Lanes is how many of a fetch's messages from different senders are
	// handed over at once (doc.go, "Lanes"; default DefaultLanes; 1: one
	// message at a time).
	Lanes int
	// MaxAttempts quarantines a message after this many consecutive
	// transient HandleMail errors on it, and tells its sender and the
	// operator (issue 23, rule 2: no message stalls the intake for ever).
	// Failures to record the intake attempt itself (the store, not the
	// message) do not count. Default DefaultMaxAttempts; negative:
	// retry for ever.
	MaxAttempts int
	// MaxCrashes quarantines a message whose handling began this many
	// times without finishing (the process died or the handler panicked
	// each time), and tells its sender: the attempt is recorded in the
	// store before each hand-over, so the count survives the crash
	// (default DefaultMaxCrashes; negative: never).
	MaxCrashes int

	// Store holds the cursor. Required.
	Store *store.DB
	// Handler receives every message. Required.
	Handler mailin.Handler
	// Logger receives the logs (default slog.Default()).
	Logger *slog.Logger
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Dial opens connections (default a net.Dialer).
	Dial DialFunc
}

// LogValue makes Options safe to log: the password is never shown.
func (o Options) LogValue() slog.Value {
	pw := "unset"
	if o.Password != "" {
		pw = "[redacted]"
	}
	return slog.GroupValue(
		slog.String("addr", o.Addr),
		slog.String("tls", string(o.TLS)),
		slog.String("username", o.Username),
		slog.String("password", pw),
		slog.String("mailbox", o.Mailbox),
		slog.String("processed", o.ProcessedFolder),
		slog.String("quarantine", o.QuarantineFolder),
		slog.String("idle", string(o.Idle)),
	)
}

func (o *Options) setDefaults() {
	str := func(s *string, v string) {
		if *s == "" {
			*s = v
		}
	}
	dur := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	if o.TLS == "" {
		o.TLS = TLSImplicit
	}
	if o.Idle == "" {
		o.Idle = IdleAuto
	}
	str(&o.Account, o.Username)
	str(&o.Mailbox, DefaultMailbox)
	str(&o.ProcessedFolder, DefaultProcessedFolder)
	str(&o.QuarantineFolder, DefaultQuarantineFolder)
	dur(&o.PollInterval, DefaultPollInterval)
	dur(&o.ResyncInterval, DefaultResyncInterval)
	dur(&o.MinBackoff, DefaultMinBackoff)
	dur(&o.MaxBackoff, DefaultMaxBackoff)
	dur(&o.DialTimeout, DefaultDialTimeout)
	dur(&o.ShutdownGrace, DefaultShutdownGrace)
	if o.FetchBatch == 0 {
		o.FetchBatch = DefaultFetchBatch
	}
	if o.Lanes == 0 {
		o.Lanes = DefaultLanes
	}
	if o.MaxAttempts == 0 {
		o.MaxAttempts = DefaultMaxAttempts
	}
	if o.MaxCrashes == 0 {
		o.MaxCrashes = DefaultMaxCrashes
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Dial == nil {
		o.Dial = (&net.Dialer{}).DialContext
	}
}

func (o *Options) validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("imapin: "+format, args...)) }
	host, _, err := netaddr.SplitServer(o.Addr)
	if err != nil {
		bad("addr %v", err)
	}
	switch o.TLS {
	case TLSImplicit, TLSStartTLS:
	case TLSNone:
		if host != "" && !o.AllowInsecure && !netaddr.IsLoopback(host) {
			bad("TLS mode none to non-loopback server %s needs AllowInsecure", host)
		}
	default:
		bad("unknown TLS mode %q (want tls, starttls or none)", o.TLS)
	}
	switch o.Idle {
	case IdleAuto, IdleOn, IdleOff:
	default:
		bad("unknown IDLE mode %q (want auto, on or off)", o.Idle)
	}
	if o.Username == "" {
		bad("no username")
	}
	if o.Store == nil {
		bad("no store")
	}
	if o.Handler == nil {
		bad("no handler")
	}
	folders := map[string]string{"mailbox": o.Mailbox, "processed folder": o.ProcessedFolder, "quarantine folder": o.QuarantineFolder}
	for name, f := range folders {
		if strings.ContainsAny(f, "*%\r\n") {
			bad("%s %q contains a wildcard or a line break", name, f)
		}
	}
	if strings.EqualFold(o.ProcessedFolder, o.Mailbox) || strings.EqualFold(o.QuarantineFolder, o.Mailbox) {
		bad("the processed and quarantine folders must differ from the watched mailbox %q", o.Mailbox)
	}
	if o.MinBackoff <= 0 || o.MaxBackoff < o.MinBackoff {
		bad("backoff bounds %v..%v", o.MinBackoff, o.MaxBackoff)
	}
	if o.PollInterval <= 0 || o.ResyncInterval <= 0 || o.DialTimeout <= 0 || o.ShutdownGrace < 0 {
		bad("intervals and timeouts must be positive")
	}
	if o.FetchBatch < 1 || o.Lanes < 1 || o.MaxMessageSize < 0 {
		bad("fetch batch and lanes must be positive, max message size not negative")
	}
	return errors.Join(errs...)
}
