//go:build race

package bench

// raceEnabled: whole games by mail run several times slower under the race
// detector; the tests that only play more of them skip it (the Makefile's
// content target runs them without it).
const raceEnabled = true
