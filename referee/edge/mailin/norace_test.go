//go:build !race

package mailin

const raceEnabled = false
