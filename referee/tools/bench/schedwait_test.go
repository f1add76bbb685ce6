package bench

import (
	"math"
	"runtime/metrics"
	"testing"
)

// TestSchedWaitOfTheRunOnly: the wait is the histogram's growth between
// the two readings, per player mail: the quantiles are the upper bounds
// of the buckets they fall in, the total each wake-up at its bucket's
// middle; no wake-up or no input gives none.
func TestSchedWaitOfTheRunOnly(t *testing.T) {
	buckets := []float64{math.Inf(-1), 0, 1e-3, 2e-3, 10e-3, math.Inf(1)}
	before := &metrics.Float64Histogram{Buckets: buckets, Counts: []uint64{0, 50, 7, 1, 0}}
	after := &metrics.Float64Histogram{Buckets: buckets, Counts: []uint64{0, 90, 57, 11, 1}}
	// The run: 40 waits in [0,1ms), 50 in [1,2), 10 in [2,10), 1 over 10 ms.
	w := schedWait(before, after, 10)
	if w == nil {
		t.Fatal("no wait")
	}
	if w.Waits != 10.1 {
		t.Errorf("waits a mail %v, want 10.1", w.Waits)
	}
	if want := (40*0.5 + 50*1.5 + 10*6 + 1*10) / 10; math.Abs(w.TotalMS-want) > 1e-9 {
		t.Errorf("total a mail %v ms, want %v", w.TotalMS, want)
	}
	if w.Median != 2 || w.P99 != 10 {
		t.Errorf("median %v p99 %v, want 2 and 10", w.Median, w.P99)
	}
	if schedWait(after, after, 10) != nil || schedWait(before, after, 0) != nil || schedWait(nil, after, 10) != nil {
		t.Error("a wait where there is none")
	}
	if readSched() == nil {
		t.Error("the runtime has no scheduler latencies")
	}
}
