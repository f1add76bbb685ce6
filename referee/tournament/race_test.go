package tournament

import "github.com/pbem-referee/referee/referee/rigs/testkit/race"

// raceEnabled: TestTablesMiddleCertified_Issue24 (one goroutine's search,
// nothing for the detector to find, three minutes under it),
// TestTablesOldRoundsReplay_Issue24 and TestTablesNoRematchAtLarge_Issue24
// (minutes under it since PairingDual, the solver and certify) and
// TestTablesCrowdedDrawsPinned_Issue24 run in the Makefile's content
// target, without the detector.
const raceEnabled = race.Enabled
