//go:build race

package heavenale

// raceEnabled: the race detector slows the greedy bot down tenfold.
const raceEnabled = true
