package referee

import "github.com/pbem-referee/referee/referee/rigs/testkit/race"

// raceEnabled: the race detector slows whole-game runs about tenfold. The
// whole-game content checks (every mail's width, words and ids over whole
// games in every language) run in one goroutine each, where the detector
// finds nothing; under it they are skipped, and `make check` runs them
// without it (the Makefile's content target).
const raceEnabled = race.Enabled
