//go:build race

package demo

// raceEnabled: the engines' bots are several times slower under the race
// detector; tests that only plan more games plan fewer under it.
const raceEnabled = true
