package rowform

import "github.com/pbem-referee/referee/referee/rigs/testkit/race"

// raceEnabled: the race detector allocates on its own, so the count of
// TestItemRowAllocatedOnce_Issue24 holds without it only.
const raceEnabled = race.Enabled
