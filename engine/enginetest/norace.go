//go:build !race

package enginetest

const raceOn = false
