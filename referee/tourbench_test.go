package referee

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/metrics"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/spec"
	"github.com/pbem-referee/referee/referee/tournament"
)

// BenchmarkTournamentRoundOpening measures the opening of round 2 of a
// Swiss tournament of n entrants (issue 24: every entrant's round mail
// carried the whole standings, 10.4 s CPU and 2.8 GB at 1,000 entrants):
// the timed part is the organiser's ADJUDICATE of round 1's last game,
// whose end completes the round and opens the next (n/2 games, n round
// mails). Goal: a round of 5,000 games (10,000 entrants) under 3 s CPU
// and 200 MB. The whole opening is one write transaction: lock-s/op is
// its wall time (the longest write-lock hold).
// Run: go test -run '^$' -bench TournamentRoundOpening -benchtime 1x ./referee/
// (TOURPROF=<dir> writes CPU and allocation profiles of the timed part.)
func BenchmarkTournamentRoundOpening(b *testing.B) {
	for _, n := range []int{1000, 2000, 5000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				h := bigTourEntered(b, n)
				h.org("START big")
				h.mails()
				tr := h.tour("big")
				ms := tr.Rounds[0].Matches
				for from := 0; from < len(ms)-1; from += MaxOrgLines {
					var adj strings.Builder
					for _, m := range ms[from:min(from+MaxOrgLines, len(ms)-1)] {
						fmt.Fprintf(&adj, "ADJUDICATE %s\n", m.GameID)
					}
					h.org(adj.String())
					h.mails()
				}
				b.ReportAllocs()
				timed(b, h, fmt.Sprintf("round2-%d", n), func() { h.org("ADJUDICATE " + ms[len(ms)-1].GameID) })
				out := h.mails()
				if tr := h.tour("big"); len(tr.Rounds) != 2 || tr.Status != tournament.StatusRunning {
					b.Fatalf("round 2 not open: %d rounds", len(tr.Rounds))
				}
				bytes := 0
				for _, m := range out {
					bytes += len(m.Body)
				}
				b.ReportMetric(float64(bytes), "mail-bytes/op")
				b.ReportMetric(float64(len(out)), "mails/op")
			}
		})
	}
}

// timed runs fn as the timed part of a benchmark: its CPU time
// (cpu-s/op), its wall time (wall-s/op), the longest unit of work in it
// (lock-s/op: each holds the write lock once, for its transaction; a
// round drawn outside the lock is not in it), the store's commits and the
// bytes they wrote to the file (commits/op, disk-MB/op: store.WriteStats),
// and with TOURPROF=<dir>
// CPU and allocation profiles of fn alone (<dir>/<name>.cpu, .allocs,
// .allocs0: go tool pprof -diff_base .allocs0 .allocs).
func timed(b *testing.B, h *harness, name string, fn func()) {
	var longest time.Duration
	h.r.opt.Observe = func(o Observation) { longest = max(longest, o.Duration) }
	defer func() { h.r.opt.Observe = nil }()
	dir := os.Getenv("TOURPROF")
	if dir != "" {
		writeProfile(b, filepath.Join(dir, name+".allocs0"))
		f, err := os.Create(filepath.Join(dir, name+".cpu"))
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			b.Fatal(err)
		}
	}
	peak := heapPeak()
	ws := h.db.WriteStats()
	cpu := cpuTime()
	wall := time.Now()
	b.StartTimer()
	fn()
	b.StopTimer()
	b.ReportMetric(float64(peak())/(1<<20), "peak-heap-MB")
	b.ReportMetric(time.Since(wall).Seconds(), "wall-s/op")
	b.ReportMetric(longest.Seconds(), "lock-s/op")
	b.ReportMetric((cpuTime() - cpu).Seconds(), "cpu-s/op")
	w := h.db.WriteStats().Sub(ws)
	b.ReportMetric(float64(w.Commits), "commits/op")
	b.ReportMetric(float64(w.DiskBytes)/(1<<20), "disk-MB/op")
	if dir != "" {
		pprof.StopCPUProfile()
		writeProfile(b, filepath.Join(dir, name+".allocs"))
	}
}

// heapPeak samples the heap in use every 10 ms until the function it
// returns is called, which returns the most it saw (issue 24: a round of
// 5,000 games opened in under 200 MB). It reads runtime/metrics, which
// does not stop the world (runtime.ReadMemStats does, and every 10 ms
// that distorted the figure it measures): heap objects plus the unused
// space of their spans are MemStats.HeapInuse.
func heapPeak() func() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	inUse := func() uint64 {
		metrics.Read(s)
		return s[0].Value.Uint64() + s[1].Value.Uint64()
	}
	peak := inUse()
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, inUse())
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-done
		return peak
	}
}

func writeProfile(b *testing.B, path string) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		b.Fatal(err)
	}
}

// bigTourHarness is a harness whose random source does not repeat its
// bigTourEntered is a harness with the Swiss tournament "big" of 3 rounds
// of the toy game and n entrants, in sign-up.
func bigTourEntered(b testing.TB, n int) *harness { return bigTourOf(b, "toy", n) }

// bigTourOf is bigTourEntered with a tournament of game.
func bigTourOf(b testing.TB, game string, n int) *harness {
	h := bigTourHarness(b)
	h.org("NEW TOURNAMENT big game=" + game + " rounds=3\n")
	enterAll(h, "big", n)
	return h
}

// secrets (the harness's counter does after a few hundred players).
func bigTourHarness(b testing.TB) *harness {
	h := newHarness(b)
	h.r.random = spec.NewRandom(rand.NewChaCha8([32]byte{24}))
	h.r.opt.Random = h.r.random
	h.r.opt.MaxEntrants = 20000
	return h
}

// enterAll enters n entrants into id, MaxOrgLines lines a mail.
func enterAll(h *harness, id string, n int) {
	for from := 0; from < n; from += MaxOrgLines {
		h.org(enterLines(id, from, min(MaxOrgLines, n-from)))
	}
}

// enterLines are n ENTER lines of tournament id.
func enterLines(id string, from, n int) string {
	var text strings.Builder
	for e := from; e < from+n; e++ {
		fmt.Fprintf(&text, "ENTER %s p%d@p.test P%d\n", id, e, e)
	}
	return text.String()
}

// BenchmarkTournamentEnter measures n ENTER lines, in organiser mails of
// MaxOrgLines lines (issue 24: ENTER was quadratic, 10,000 lines took
// 184 s CPU: every line read and wrote the whole tournament record).
// Linear: cpu-µs/line stays flat from 1,000 to 4,000.
// Run: go test -run '^$' -bench TournamentEnter -benchtime 1x ./referee/
func BenchmarkTournamentEnter(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				h := bigTourHarness(b)
				h.org("NEW TOURNAMENT big game=toy rounds=3\n")
				b.ReportAllocs()
				cpu := cpuTime()
				b.StartTimer()
				enterAll(h, "big", n)
				b.StopTimer()
				b.ReportMetric((cpuTime() - cpu).Seconds(), "cpu-s/op")
				b.ReportMetric((cpuTime()-cpu).Seconds()/float64(n)*1e6, "cpu-µs/line")
				if got := len(h.tour("big").Entrants); got != n {
					b.Fatalf("%d entrants, want %d", got, n)
				}
			}
		})
	}
}

// BenchmarkTournamentStart measures START of a Swiss tournament of n
// entrants (n/2 games opened, n round mails; issue 24: 5,000 games took
// 12 s CPU and 623 MB). Goal: 5,000 games under 3 s CPU and 200 MB.
// heavenale/2000 is START of 1,000 games of Heaven & Ale, whose set-up is
// the dearest of the referee's games (the throw-away check of each
// game's options runs once a kind in a unit of work: seating.Checks).
// Run: go test -run '^$' -bench TournamentStart -benchtime 1x ./referee/
func BenchmarkTournamentStart(b *testing.B) {
	for _, c := range []struct {
		game string
		n    int
	}{{"toy", 2000}, {"toy", 10000}, {"heavenale", 2000}} {
		name := fmt.Sprint(c.n)
		if c.game != "toy" {
			name = c.game + "/" + name
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				h := bigTourOf(b, c.game, c.n)
				h.mails()
				b.ReportAllocs()
				timed(b, h, "start-"+strings.ReplaceAll(name, "/", "-"), func() { h.org("START big") })
				if tr := h.tour("big"); len(tr.Rounds) != 1 || len(tr.Rounds[0].Matches) != c.n/2 {
					b.Fatalf("round 1 not open")
				}
			}
		})
	}
}
