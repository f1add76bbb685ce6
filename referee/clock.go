package referee

import "time"

// Clock tells the time. The referee never reads the system clock directly,
// so tests drive it with a fake.
type Clock interface {
	Now() time.Time
}

// SystemClock is the real clock.
type SystemClock struct{}

// Now returns the current time.
func (SystemClock) Now() time.Time { return time.Now() }

// FakeClock is a settable clock for tests and simulations.
type FakeClock struct{ T time.Time }

// Now returns the fake time.
func (c *FakeClock) Now() time.Time { return c.T }

// Advance moves the fake time forward.
func (c *FakeClock) Advance(d time.Duration) { c.T = c.T.Add(d) }
