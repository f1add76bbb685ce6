//go:build !linux

package bench

import "time"

// threadCPU is zero where the system gives no per-thread CPU time.
func threadCPU() time.Duration { return 0 }
