package store

import "github.com/pbem-referee/referee/referee/rigs/testkit/race"

// raceEnabled: the race detector's sync.Pool drops values at random, so
// the compression counts of TestSmallValuesKeptRaw hold without it only;
// the stale-wake walk plays fewer steps under it; and
// TestMoveWritesTheDepthOfItsTrees_Issue25 (one goroutine's commits,
// nothing to detect) runs in the Makefile's content target, without the
// detector.
const raceEnabled = race.Enabled
