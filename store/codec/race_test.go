//go:build race

package codec

// raceEnabled: the race detector's sync.Pool drops values at random, so
// the allocation counts of TestCompressAllocatesTheValueOnly hold without
// it only.
const raceEnabled = true
