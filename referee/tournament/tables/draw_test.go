package tables

import (
	"math"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU time this process has used (user and system): the
// machine is shared, so the benchmarks report it beside the wall time
// (as the tournament's benchmarks do).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestSeatingsCounted checks the count of seatings that decides whether
// a field is searched whole against counts by hand: 15 entrants at five
// tables of 3 (15!/(3!^5 5!)), 16 at four tables of 4, 7 at 4 and 3 (35),
// and the first fields above exactSeatings.
func TestSeatingsCounted(t *testing.T) {
	for _, c := range []struct {
		sizes []int
		want  float64
	}{
		{[]int{3, 3, 3, 3, 3}, 1401400},
		{[]int{4, 4, 4, 4}, 2627625},
		{[]int{4, 3}, 35},
		{[]int{5, 5, 5}, 126126},
		{[]int{3, 3, 3, 3, 2, 2}, 84084000},
		{[]int{4, 4, 3, 3, 3}, 238238000},
	} {
		if got := seatings(c.sizes); math.Abs(got-c.want) > 1e-6*c.want {
			t.Errorf("seatings(%v) = %f, want %f", c.sizes, got, c.want)
		}
	}
}

// TestTablesLeastUndoesBlocks_Issue24: 2,000 entrants at tables of 3, 4
// or 5, in runs of 40 by standing who all met each other (blocks): the
// swaps leave every table with repeated meetings, and the least search
// (far too large to search whole) seats none within its budget. Without
// lower bounds (PairingLeast) it runs out of budget at tables of 5, each
// split of two tables within a run trying all 126 seatings, and leaves
// 435 of 1,742; with them (Bound) such a split stops at its
// first step and the budget undoes every one.
func TestTablesLeastUndoesBlocks_Issue24(t *testing.T) {
	for _, bounded := range []bool{false, true} {
		for _, k := range []int{3, 4, 5} {
			s := blocks(2000, 40, k)
			s.bounded = bounded
			s.swaps()
			before := s.total()
			changed := s.least()
			got := s.total()
			t.Logf("tables of %d, bounded %v: %d repeated meetings after the swaps, %d after the search, budget left %d of %d", k, bounded, before, got, s.budget, resplitBudget)
			if !changed || before == 0 {
				t.Errorf("tables of %d: %d repeated meetings after the swaps (changed %v)", k, before, changed)
			}
			if bounded == (got > 0) && (bounded || k == 5) {
				t.Errorf("tables of %d, bounded %v: %d repeated meetings after the search", k, bounded, got)
			}
		}
	}
}

// blocks is a field of n entrants by standing where each run of blk met
// every other of the run once: seated by standing, every table repeats
// meetings, and a seating with none (each table from other runs) exists.
func blocks(n, blk, k int) *seater {
	met := map[[2]int]int{}
	order := make([]int, n)
	for i := range order {
		order[i] = i
		for j := i + 1; j < n && j/blk == i/blk; j++ {
			met[Key(i, j)] = 1
		}
	}
	short := make([]int, n)
	return &seater{tabs: byStanding(Sizes(n, k, k-1), order, short, false), met: met, short: short, order: order}
}

// BenchmarkTablesBlocks10000 is the least search's worst case met so
// far: 10,000 entrants at tables of 4 in runs of 40 who all met (8,028
// repeated meetings after the swaps), every one undone within the budget.
func BenchmarkTablesBlocks10000(b *testing.B) { benchBlocks(b, 10000, 4) }

// BenchmarkTablesBlocks2000At5 is the blocks at tables of 5, where the
// search without lower bounds (PairingLeast) ran out of budget.
func BenchmarkTablesBlocks2000At5(b *testing.B) { benchBlocks(b, 2000, 5) }

// benchBlocks times the newest least search (Bound) of n entrants
// at tables of k in runs of 40 who all met.
func benchBlocks(b *testing.B, n, k int) {
	b.ReportAllocs()
	var cpu time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := blocks(n, 40, k)
		s.bounded = true
		s.swaps()
		b.StartTimer()
		c := cpuTime()
		s.least()
		cpu += cpuTime() - c
		if got := s.total(); got > 0 {
			b.Fatalf("%d repeated meetings left", got)
		}
	}
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}
