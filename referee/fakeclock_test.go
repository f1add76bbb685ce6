package referee

import "github.com/pbem-referee/referee/referee/rigs/testkit"

// FakeClock is the test kit's settable clock, under the name the core's
// tests use.
type FakeClock = testkit.FakeClock

var _ Clock = (*FakeClock)(nil)
