package tournament

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU time this process has used (user and system): the
// machine is shared, so the benchmarks report it beside the wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchRound pairs round 4 of an n-entrant tournament of the format whose
// first three rounds had random results (draws included).
func benchRound(b *testing.B, n int, format string) {
	s := Settings{Format: format, NumRounds: 9}
	if format == Tables {
		s.Table = 4
	}
	benchAfter(b, newT(b, n, s), 3, rand.New(rand.NewPCG(1, 1)))
}

// benchAfter plays rounds rounds of tr with random results, then draws
// the next one b.N times.
func benchAfter(b *testing.B, tr *Tournament, rounds int, r *rand.Rand) {
	for round := 1; round <= rounds; round++ {
		rd, err := tr.NextRound()
		if err != nil {
			b.Fatal(err)
		}
		tr.Rounds = append(tr.Rounds, rd)
		play(tr, r)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		if _, err := tr.NextRound(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
}

// BenchmarkSwiss1000 pairs round 4 of a 1,000-entrant Swiss tournament.
func BenchmarkSwiss1000(b *testing.B)  { benchRound(b, 1000, Swiss) }
func BenchmarkSwiss5000(b *testing.B)  { benchRound(b, 5000, Swiss) }
func BenchmarkSwiss10000(b *testing.B) { benchRound(b, 10000, Swiss) }

// BenchmarkTables5000 seats round 4 of 5,000 entrants at tables of 4.
func BenchmarkTables5000(b *testing.B)  { benchRound(b, 5000, Tables) }
func BenchmarkTables10000(b *testing.B) { benchRound(b, 10000, Tables) }

// benchCrowded draws round rounds+1 of n entrants at tables of k after
// rounds rounds of random results, where most seatings repeat a meeting:
// the least search's worst cases (the whole field searched, or resplits
// of three tables of 5).
func benchCrowded(b *testing.B, n, k, rounds int) {
	tr := newT(b, n, Settings{Format: Tables, Table: k, NumRounds: rounds + 1})
	benchAfter(b, tr, rounds, rand.New(rand.NewPCG(1, uint64(n))))
}

// BenchmarkTablesCrowded15 draws round 9 of 15 entrants at tables of 3
// (1,401,400 seatings, searched whole).
func BenchmarkTablesCrowded15(b *testing.B) { benchCrowded(b, 15, 3, 8) }
func BenchmarkTablesCrowded16(b *testing.B) { benchCrowded(b, 16, 4, 8) }
func BenchmarkTablesCrowded30(b *testing.B) { benchCrowded(b, 30, 5, 8) }
func BenchmarkTablesCrowded60(b *testing.B) { benchCrowded(b, 60, 5, 12) }
