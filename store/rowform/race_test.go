//go:build race

package rowform

// raceEnabled: the race detector allocates on its own, so the count of
// TestItemRowAllocatedOnce_Issue24 holds without it only.
const raceEnabled = true
