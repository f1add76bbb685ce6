// Package race says whether the test binary runs under the race detector
// (Enabled), for the tests that skip or shrink themselves under it: whole
// games in one goroutine (about ten times slower, nothing to detect; the
// Makefile's content target runs them without it, and
// referee/contentpass_test.go checks that each is named there), allocation
// counts (the detector's sync.Pool drops values at random), memory bounds
// (the detector multiplies a program's memory).
//
// It owns the one build-tagged answer (race.go under -race, norace.go
// without), so that a package's tests bind it in one line
// (`const raceEnabled = race.Enabled`) instead of a build-tagged pair of
// their own. It must not hold anything else, and must not be linked into the
// binary (a test rig: cmd/referee's TestBinaryHasNoTestRig).
package race
