package referee

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store"
)

// BenchmarkProcessMove measures the referee's whole work for one player's
// move in a running Dice Brewing game: the transaction, the engine, the
// mails to every seat (rendered and composed). "fsync" is the figure of
// issue 13 (a store that syncs every commit, as in production); "nosync"
// leaves the disk out. Building the request (reading the game to pick a
// legal move) is outside the timed part. The machine is shared: cpu-ns/op
// is the process's CPU time (user and system, every thread) during the
// timed part, steadier than the wall time when others run.
func BenchmarkProcessMove(b *testing.B) {
	b.Run("fsync", func(b *testing.B) { benchProcessMove(b, &store.Options{}) })
	b.Run("nosync", func(b *testing.B) { benchProcessMove(b, &store.Options{NoSync: true}) })
	// Without the store's decoded records (store.Tx.TakeDecoded): what
	// the cache saves (issue 25: measure and choose).
	b.Run("nosync-nocache", func(b *testing.B) { benchProcessMove(b, &store.Options{NoSync: true, NoDecodedCache: true}) })
}

func benchProcessMove(b *testing.B, opt *store.Options) {
	h := newBenchHarness(b, opt)
	moves := h.newBenchMoves("dicebrewing", "b")
	b.ReportAllocs()
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		req := moves.next()
		b.StartTimer()
		c0 := cpuTime()
		if _, err := h.r.Process(context.Background(), req); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - c0
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkProcessMoveConcurrent: four games moving at once, each move
// one Process call (fsync on), as mails of several games arrive together
// (the webhook, several intakes). "locked" is the unit of work in the
// write transaction; "speculative" renders and composes on a snapshot
// and commits in groups (issue 13.3, 13.5). Picking each move reads the
// game back (outside the referee, but inside the timing).
func BenchmarkProcessMoveConcurrent(b *testing.B) {
	for _, c := range []struct {
		name   string
		noSpec bool
	}{{"locked", true}, {"speculative", false}} {
		b.Run(c.name, func(b *testing.B) {
			h := newBenchHarness(b, &store.Options{})
			h.r.opt.Kick = nil
			const games = 4
			moves := make([]*benchMoves, games)
			for k := range moves {
				moves[k] = h.newBenchMoves("dicebrewing", fmt.Sprintf("c%dr", k))
				moves[k].rng = rand.New(rand.NewPCG(uint64(k), 2))
			}
			h.r.noSpec = c.noSpec
			var mu sync.Mutex // the harness is not safe for concurrent use
			var wg sync.WaitGroup
			var failed atomic.Bool
			b.ReportAllocs()
			b.ResetTimer()
			for k := 0; k < games; k++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := k; i < b.N; i += games {
						mu.Lock()
						req := moves[k].next()
						mu.Unlock()
						if _, err := h.r.Process(context.Background(), req); err != nil {
							failed.Store(true)
							return
						}
					}
				}()
			}
			wg.Wait()
			if failed.Load() {
				b.Fatal("a move failed")
			}
		})
	}
}
