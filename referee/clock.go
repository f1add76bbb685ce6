package referee

import "time"

// Clock tells the time. The referee never reads the system clock directly,
// so tests drive it with a fake (testkit.FakeClock).
type Clock interface {
	Now() time.Time
}

// SystemClock is the real clock.
type SystemClock struct{}

// Now returns the current time.
func (SystemClock) Now() time.Time { return time.Now() }
