//go:build race

package enginetest

// raceOn: the race detector slows whole-game runs about tenfold; the
// self-play runs play a tenth of their games under it (SelfPlayCount).
const raceOn = true
