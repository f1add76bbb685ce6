//go:build race

package templates

// raceEnabled: the race detector drops sync.Pool items at random, so
// allocation counts are not comparable under it.
const raceEnabled = true
