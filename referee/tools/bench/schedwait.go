package bench

import (
	"math"
	"runtime/metrics"
)

// schedLatencies is the runtime's histogram of the time goroutines spent
// runnable before they ran (a core held by another goroutine).
const schedLatencies = "/sched/latencies:seconds"

// SchedWait is how long the process's goroutines waited for a core
// during a mail run, from the runtime's histogram (runtime/metrics
// /sched/latencies:seconds, read before and after the timed part): each
// wake-up of a goroutine until it ran. Median and P99 are the bucket
// bounds the quantiles fall in, Waits the wake-ups counted per player
// mail and TotalMS their sum per player mail, in milliseconds (each
// wake-up at the middle of its bucket). It is the whole process's, as
// CPUSeconds: daemon, players and servers together.
type SchedWait struct {
	Waits   float64 `json:"waits_per_input"`
	TotalMS float64 `json:"total_ms_per_input"`
	Median  float64 `json:"median_ms"`
	P99     float64 `json:"p99_ms"`
}

// readSched reads the histogram now (nil when the runtime has none).
func readSched() *metrics.Float64Histogram {
	s := []metrics.Sample{{Name: schedLatencies}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return nil
	}
	return s[0].Value.Float64Histogram()
}

// schedWait is the wait between the readings before and after, per
// player mail of inputs.
func schedWait(before, after *metrics.Float64Histogram, inputs int) *SchedWait {
	if before == nil || after == nil || inputs == 0 || len(before.Counts) != len(after.Counts) {
		return nil
	}
	counts := make([]uint64, len(after.Counts))
	var n uint64
	var total float64
	for i := range counts {
		counts[i] = after.Counts[i] - before.Counts[i]
		n += counts[i]
		total += float64(counts[i]) * bucketMid(after.Buckets[i], after.Buckets[i+1])
	}
	if n == 0 {
		return nil
	}
	quantile := func(q float64) float64 {
		want := uint64(math.Ceil(q * float64(n)))
		var seen uint64
		for i, c := range counts {
			if seen += c; seen >= want {
				return finite(after.Buckets[i+1], after.Buckets[i]) * 1e3
			}
		}
		return 0
	}
	return &SchedWait{Waits: float64(n) / float64(inputs), TotalMS: total * 1e3 / float64(inputs),
		Median: quantile(0.5), P99: quantile(0.99)}
}

// bucketMid is a bucket's middle (its finite bound when the other is
// infinite).
func bucketMid(lo, hi float64) float64 {
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return finite(hi, lo)
	}
	return (lo + hi) / 2
}

// finite returns a unless it is infinite, else b.
func finite(a, b float64) float64 {
	if math.IsInf(a, 0) {
		return b
	}
	return a
}
