//go:build !race

package referee

// raceEnabled: see race_test.go.
const raceEnabled = false
