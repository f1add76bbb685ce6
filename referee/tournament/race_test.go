package tournament

import "github.com/pbem-referee/referee/referee/rigs/testkit/race"

// raceEnabled: TestTablesMiddleCertified_Issue24 (one goroutine's search,
// nothing for the detector to find, three minutes under it) runs in the
// Makefile's content target, without the detector.
const raceEnabled = race.Enabled
