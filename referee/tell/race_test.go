//go:build race

package tell

// raceEnabled: the whole-game comparisons play fewer moves under the race
// detector (one goroutine each, ten times slower, nothing to detect).
const raceEnabled = true
