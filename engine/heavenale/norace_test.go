//go:build !race

package heavenale

const raceEnabled = false
