//go:build !race

package rowform

const raceEnabled = false
