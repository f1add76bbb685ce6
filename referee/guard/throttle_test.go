package guard

import (
	"fmt"
	"testing"
	"time"
)

// TestThrottleOncePerPeriod: a key is let through the first time, then not
// again until a whole period after the last time it was let through (a
// refused attempt does not restart the period); keys do not share a
// period. Varied over periods, keys and the spacing of the attempts.
func TestThrottleOncePerPeriod(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	for _, every := range []time.Duration{time.Minute, OrgHelloEvery, 24 * time.Hour} {
		for _, step := range []time.Duration{every / 7, every / 3, every / 2, every, every + 1} {
			for _, keys := range [][]string{{"a@x"}, {"a@x", "b@y", "c@z"}} {
				name := fmt.Sprintf("every=%v step=%v keys=%d", every, step, len(keys))
				var th Throttle
				last := map[string]time.Time{}
				for i := 0; i < 20; i++ {
					now := t0.Add(time.Duration(i) * step)
					for _, k := range keys {
						l, seen := last[k]
						want := !seen || now.Sub(l) >= every
						if got := th.Allow(k, now, every); got != want {
							t.Fatalf("%s: attempt %d for %s at %v: allowed %v, want %v", name, i, k, now.Sub(t0), got, want)
						}
						if want {
							last[k] = now
						}
					}
				}
			}
		}
	}
}
