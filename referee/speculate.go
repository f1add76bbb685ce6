package referee

import (
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/pbem-referee/referee/store"
)

// Speculation (issue 13.3: the templates and the MIME composition out of
// the write lock). A seat's request is first processed on a snapshot of
// the store (store.Speculate: a read transaction, which does not block
// the other games), with everything the unit of work does: apply, tell
// (the mail view renders) and compose. Then one write transaction commits
// its writes if nothing it read has changed since (store.DB.Commit); when
// something did, or the work touched what a speculation cannot check, it
// is done again the usual way, in the write transaction. Either way the
// input is applied once: the speculation writes nothing until its commit,
// which is the same single transaction as before (game, log, outbox and
// de-duplication record together).
//
// The referee's own memory is kept out of a speculation too: it runs on a
// view of the Referee (specView) whose random source keeps what it drew
// (given back to the next reader if the speculation is dropped, so that a
// deterministic source stays deterministic) and whose rate limiters only
// look, noting each decision; the commit checks the decisions again under
// the write lock and only then counts them.
//
// Kept after the lean write path (issue 25), measured: four games moving
// at once with fsync (BenchmarkProcessMoveConcurrent) take 6.1-6.6 ms a
// move speculative against 9.7-10.8 ms locked, the same allocations; the
// store enforces its rule (every read tracked: store.Tx, checked by
// store's TestEveryReadIsTracked).

// errWide stops a speculation that cannot commit.
var errWide = errors.New("referee: speculation cannot commit")

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
	sr, tape := r.specView()
	spec, err := r.db.Speculate(func(tx *store.Tx) error {
		var err error
		res, err = sr.processTx(tx, req, now)
		return err
	})
	if err == nil && !spec.Wide() {
		if r.specHook != nil {
			r.specHook()
		}
		err = r.db.Commit(spec, sr.countDecisions)
		if err == nil {
			return res, true
		}
	}
	r.random.unread(tape.drawn)
	if err != nil && !errors.Is(err, store.ErrConflict) && !errors.Is(err, errWide) {
		// The work failed on the snapshot (a write it cannot keep fails
		// as in a read transaction): the write transaction will say
		// whether it fails for real.
		r.log.Debug("speculation dropped", slog.String("error", err.Error()))
	}
	return processed{}, false
}

// specView is a copy of the Referee for a speculation: the same store,
// templates and shared state, a random source that keeps what it drew,
// and rate limiters that only look.
func (r *Referee) specView() (*Referee, *tapeReader) {
	sr := *r
	sr.bind()
	tape := &tapeReader{src: r.random}
	sr.opt.Random = tape
	dec := &[]limitDecision{}
	sr.rate, sr.anon, sr.notice, sr.bounceAlerts = r.rate.view(dec), r.anon.view(dec), r.notice.view(dec), r.bounceAlerts.view(dec)
	sr.confirms = r.confirms.view(dec)
	return &sr, tape
}

// countDecisions runs inside the commit's write transaction: it checks
// that every rate-limit decision of the speculation is still the one the
// limiters make now, in order, and then counts them.
func (sr *Referee) countDecisions() bool {
	var dec []limitDecision
	for _, l := range []*rateLimiter{sr.rate, sr.anon, sr.notice, sr.bounceAlerts, sr.confirms} {
		if l.spec != nil {
			dec = *l.spec.decisions
			break
		}
	}
	extra := map[limitKey]int{}
	for _, d := range dec {
		k := limitKey{d.l, d.who}
		if d.l.peek(d.who, d.now, extra[k]) != d.ok {
			return false
		}
		if d.ok {
			extra[k]++
		}
	}
	for _, d := range dec {
		d.l.allow(d.who, d.now)
	}
	return true
}

// specLimiter is a speculation's view of a rate limiter: decisions are
// taken against the limiter's counts plus the speculation's own earlier
// ones, and noted, not counted.
type specLimiter struct {
	l         *rateLimiter
	decisions *[]limitDecision
}

type limitDecision struct {
	l   *rateLimiter
	who string
	now time.Time
	ok  bool
}

type limitKey struct {
	l   *rateLimiter
	who string
}

func (l *rateLimiter) view(dec *[]limitDecision) *rateLimiter {
	return &rateLimiter{limit: l.limit, window: l.window, spec: &specLimiter{l: l, decisions: dec}}
}

func (s *specLimiter) allow(who string, now time.Time) bool {
	extra := 0
	for _, d := range *s.decisions {
		if d.l == s.l && d.who == who && d.ok {
			extra++
		}
	}
	ok := s.l.peek(who, now, extra)
	*s.decisions = append(*s.decisions, limitDecision{l: s.l, who: who, now: now, ok: ok})
	return ok
}

// peek is allow without counting, as if extra more messages had been
// allowed already.
func (l *rateLimiter) peek(who string, now time.Time, extra int) bool {
	if l.limit < 0 {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	n := extra
	for _, t := range l.seen[who] {
		if now.Sub(t) < l.window {
			n++
		}
	}
	return n < l.limit
}

// replayReader is the referee's random source: bytes given back by a
// dropped speculation are read again first.
type replayReader struct {
	mu   sync.Mutex
	src  io.Reader
	back []byte
}

func (r *replayReader) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.back) > 0 {
		n := copy(p, r.back)
		r.back = r.back[n:]
		return n, nil
	}
	return r.src.Read(p)
}

// unread gives bytes back, to be read before anything else.
func (r *replayReader) unread(b []byte) {
	if len(b) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.back = append(append([]byte(nil), b...), r.back...)
}

// tapeReader reads from the referee's source and keeps what it drew.
type tapeReader struct {
	src   io.Reader
	drawn []byte
}

func (t *tapeReader) Read(p []byte) (int, error) {
	n, err := t.src.Read(p)
	t.drawn = append(t.drawn, p[:n]...)
	return n, err
}
