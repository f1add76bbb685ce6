package guard

import (
	"sync"
	"time"
)

// OrgHelloEvery is how often an organiser who writes to the plain address
// gets their organiser address back (the From of such a mail is not
// checked, so a forger could otherwise have the referee mail them at will;
// the answer only ever goes to the organiser's own address).
const OrgHelloEvery = time.Hour

// Throttle answers each key at most once per period: the organiser's
// hello (OrgHelloEvery). Its zero value is ready; it is safe for
// concurrent use. It remembers a key only when it lets it through.
type Throttle struct {
	mu   sync.Mutex
	last map[string]time.Time
}

// Allow reports whether key may be answered at now, at least every after
// the last time it was allowed (never: yes), and if so remembers now.
func (t *Throttle) Allow(key string, now time.Time, every time.Duration) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	last := t.last[key]
	if !last.IsZero() && now.Sub(last) < every {
		return false
	}
	if t.last == nil {
		t.last = map[string]time.Time{}
	}
	t.last[key] = now
	return true
}
