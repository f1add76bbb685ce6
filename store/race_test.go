//go:build race

package store

// raceEnabled: the race detector's sync.Pool drops values at random, so
// the allocation counts of TestCompressAllocatesTheValueOnly hold without
// it only; and TestMoveWritesTheDepthOfItsTrees_Issue25 (one
// goroutine's commits, nothing to detect) runs in the Makefile's content
// target, without the detector.
const raceEnabled = true
