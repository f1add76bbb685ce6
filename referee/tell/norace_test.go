//go:build !race

package tell

const raceEnabled = false
