package hookout

import (
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"github.com/pbem-referee/referee/referee/edge/dispatch"
)

// Defaults of Options (the same as the daemon configuration's [hooks]
// defaults).
const (
	DefaultQueue         = "hooks" // referee.HooksQueue
	DefaultTimeout       = 10 * time.Second
	DefaultWorkers       = 2
	DefaultMinBackoff    = 30 * time.Second
	DefaultMaxBackoff    = time.Hour
	DefaultGiveUpAfter   = 24 * time.Hour
	DefaultRetention     = 7 * 24 * time.Hour
	DefaultPruneInterval = time.Hour
	DefaultShutdownGrace = 10 * time.Second
	DefaultUserAgent     = "pbem-referee-hooks/1"
)

// Options configure a Sender. Store is required.
type Options struct {
	// Store is the referee's store. Required.
	Store *dispatch.Store
	// Queue is the store queue to deliver (default DefaultQueue).
	Queue string
	// Logger receives the Sender's logs (discarded if nil). Secrets and
	// payloads are never logged; URLs are logged without query or
	// credentials.
	Logger *slog.Logger
	// Now is the clock (time.Now if nil).
	Now func() time.Time
	// Timeout bounds one call, from connecting to reading the response
	// (default DefaultTimeout).
	Timeout time.Duration
	// Workers is the number of concurrent calls (default DefaultWorkers).
	Workers int
	// MinBackoff and MaxBackoff bound the exponential retry delay after a
	// transient failure; each delay is jittered between half and all of
	// its value, and never shorter than the receiver's Retry-After.
	MinBackoff time.Duration
	MaxBackoff time.Duration
	// GiveUpAfter retires a call as failed when a transient failure happens
	// and the call is older than this (default DefaultGiveUpAfter).
	GiveUpAfter time.Duration
	// Retention is how long retired calls are kept for inspection (default
	// DefaultRetention); PruneInterval how often they are pruned.
	Retention     time.Duration
	PruneInterval time.Duration
	// ShutdownGrace is how long calls in progress may continue after Run's
	// context is cancelled before they are aborted (default
	// DefaultShutdownGrace).
	ShutdownGrace time.Duration
	// Allow lists internal addresses hooks may nevertheless reach (see
	// Internal). Empty: none, the production setting. Tests against an
	// httptest server allow 127.0.0.0/8.
	Allow []netip.Prefix
	// UserAgent is sent with every call (default DefaultUserAgent).
	UserAgent string
	// OnResult, if set, is told about every attempt after its outcome was
	// committed (metrics). It must not block.
	OnResult func(Result)
	// Transport, if set, replaces the HTTP transport (its dialer must then
	// do the address checks itself). Tests only.
	Transport http.RoundTripper
}

func (o *Options) setDefaults() {
	if o.Queue == "" {
		o.Queue = DefaultQueue
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Workers <= 0 {
		o.Workers = DefaultWorkers
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = DefaultMinBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = o.MinBackoff
	}
	if o.GiveUpAfter <= 0 {
		o.GiveUpAfter = DefaultGiveUpAfter
	}
	if o.Retention <= 0 {
		o.Retention = DefaultRetention
	}
	if o.PruneInterval <= 0 {
		o.PruneInterval = DefaultPruneInterval
	}
	if o.ShutdownGrace <= 0 {
		o.ShutdownGrace = DefaultShutdownGrace
	}
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
}

func (o *Options) validate() error {
	if o.Store == nil {
		return errors.New("hookout: no store")
	}
	if o.Workers > 64 {
		return errors.New("hookout: more than 64 workers")
	}
	return nil
}
