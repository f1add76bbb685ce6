package referee

import (
	"errors"
	"log/slog"
	"time"

	"github.com/pbem-referee/referee/referee/spec"
	"github.com/pbem-referee/referee/store"
)

// Speculation (issue 13.3) is package referee/spec's: a seat's request is
// first processed on a snapshot, on a view of the Referee whose random
// source keeps what it drew and whose rate limiters only look (specView),
// and committed if nothing it read changed since; else Process does it
// again in the write transaction.

// speculates reports whether a request is processed speculatively first:
// the requests of a game's seat, the moves.
func (r *Referee) speculates(req Request) bool {
	return !r.noSpec && req.Kind == "seat"
}

// processSpec processes a request speculatively; ok is false when it must
// be done in a write transaction instead (nothing was written).
func (r *Referee) processSpec(req Request, now time.Time) (res processed, ok bool) {
	if !r.speculates(req) {
		return res, false
	}
	sr, view := r.specView()
	err := spec.Speculate(r.db, view, r.specHook, func(tx *store.Tx) error {
		var err error
		res, err = sr.processTx(tx, req, now)
		return err
	})
	if err == nil {
		return res, true
	}
	if !errors.Is(err, store.ErrConflict) && !errors.Is(err, spec.ErrWide) {
		// The work failed on the snapshot (a write it cannot keep fails
		// as in a read transaction): the write transaction will say
		// whether it fails for real.
		r.log.Debug("speculation dropped", slog.String("error", err.Error()))
	}
	return processed{}, false
}

// specView is a copy of the Referee for a speculation: the same store,
// templates and shared state, the view's random source and limiters.
func (r *Referee) specView() (*Referee, *spec.View) {
	sr := *r
	sr.bind()
	view := spec.NewView(r.random)
	sr.opt.Random = view.Random()
	for _, l := range []**rateLimiter{&sr.rate, &sr.anon, &sr.notice, &sr.bounceAlerts, &sr.confirms} {
		*l = &rateLimiter{view.Limiter((*l).Limiter)}
	}
	return &sr, view
}

// rateLimiter is spec.Limiter under the name the core calls it by.
type rateLimiter struct{ *spec.Limiter }

func newRateLimiter(limit int, window time.Duration) *rateLimiter {
	return &rateLimiter{spec.NewLimiter(limit, window)}
}

func (l *rateLimiter) allow(who string, now time.Time) bool { return l.Allow(who, now) }
