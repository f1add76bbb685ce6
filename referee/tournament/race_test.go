//go:build race

package tournament

// raceEnabled: TestTablesMiddleCertified_Issue24 (one goroutine's search,
// nothing for the detector to find, three minutes under it) runs in the
// Makefile's content target, without the detector.
const raceEnabled = true
