package testkit

import "time"

// FakeClock is a settable clock for tests (it satisfies referee.Clock).
type FakeClock struct{ T time.Time }

// Now returns the fake time.
func (c *FakeClock) Now() time.Time { return c.T }

// Advance moves the fake time forward.
func (c *FakeClock) Advance(d time.Duration) { c.T = c.T.Add(d) }
