package spec

import (
	"sync"
	"time"
)

// Limiter is a per-sender sliding window counter, kept in memory: it
// protects against loops and floods, so forgetting it on restart is fine.
// A speculation's view of a limiter (View.Limiter) only looks.
type Limiter struct {
	mu     sync.Mutex
	limit  int
	window time.Duration
	seen   map[string][]time.Time
	// view is set on a speculation's view of a limiter.
	view *limiterView
}

// NewLimiter allows limit events per window and sender (limit < 0: no
// limit).
func NewLimiter(limit int, window time.Duration) *Limiter {
	return &Limiter{limit: limit, window: window, seen: map[string][]time.Time{}}
}

// Allow reports whether one more event of who is within the limit at now,
// and counts it if so (on a view: notes the decision, counts nothing).
func (l *Limiter) Allow(who string, now time.Time) bool {
	if l.view != nil {
		return l.view.allow(who, now)
	}
	if l.limit < 0 {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	ts := l.seen[who]
	kept := ts[:0]
	for _, t := range ts {
		if now.Sub(t) < l.window {
			kept = append(kept, t)
		}
	}
	if len(kept) >= l.limit {
		l.seen[who] = kept
		return false
	}
	l.seen[who] = append(kept, now)
	if len(l.seen) > 10000 {
		for k, v := range l.seen {
			if len(v) == 0 || now.Sub(v[len(v)-1]) >= l.window {
				delete(l.seen, k)
			}
		}
	}
	return true
}

// peek is Allow without counting, as if extra more events had been
// allowed already.
func (l *Limiter) peek(who string, now time.Time, extra int) bool {
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

// limiterView is a speculation's view of a limiter: decisions are taken
// against the limiter's counts plus the speculation's own earlier ones,
// and noted, not counted.
type limiterView struct {
	l         *Limiter
	decisions *[]decision
}

type decision struct {
	l   *Limiter
	who string
	now time.Time
	ok  bool
}

type limitKey struct {
	l   *Limiter
	who string
}

func (s *limiterView) allow(who string, now time.Time) bool {
	extra := 0
	for _, d := range *s.decisions {
		if d.l == s.l && d.who == who && d.ok {
			extra++
		}
	}
	ok := s.l.peek(who, now, extra)
	*s.decisions = append(*s.decisions, decision{l: s.l, who: who, now: now, ok: ok})
	return ok
}
