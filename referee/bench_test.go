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

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt"
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
	h := newHarnessStore(b, opt)
	h.r.opt.Compose = Composer(mailfmt.Address{Name: "Referee", Addr: "referee@example.test"})
	h.r.opt.RateLimit = -1
	h.r.rate = newRateLimiter(-1, time.Hour)
	eg, _ := engine.Lookup("dicebrewing")
	bot, _ := eg.(engine.BotMaker).NewBot("greedy")
	rng := rand.New(rand.NewPCG(1, 2))
	game := 0
	start := func() string {
		game++
		id := "b" + string(rune('a'+game%26)) + string(rune('a'+game/26%26))
		h.org("NEW dicebrewing id=" + id + " deadline=none\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob")
		h.send(id, ann, "JOIN", -1)
		h.send(id, bob, "JOIN", -1)
		return id
	}
	id := start()
	b.ReportAllocs()
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		g := h.game(id)
		if g.Status != StatusRunning {
			id = start()
			g = h.game(id)
		}
		tb := h.table(id)
		d := tb.Prompts[tb.Waiting()[0].Seat].Decision
		opts := tb.State.Legal(d)
		cmd := opts[bot.Choose(tb.State, d, opts, rng)].Cmd
		s := g.Seats[d.Seat]
		h.n++
		mid := fmt.Sprintf("<m%d@players.test>", h.n)
		req := Request{From: s.Address, Kind: "seat", Game: id, Seat: d.Seat, Secret: s.Secret, Token: tb.Token(), Text: cmd,
			MessageID: mid, Keys: []string{"msgid:" + mid}, Source: "test", SenderVerified: true}
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
			h := newHarnessStore(b, &store.Options{})
			h.r.opt.Compose = Composer(mailfmt.Address{Name: "Referee", Addr: "referee@example.test"})
			h.r.opt.RateLimit = -1
			h.r.rate = newRateLimiter(-1, time.Hour)
			h.r.opt.Kick = nil
			eg, _ := engine.Lookup("dicebrewing")
			const games = 4
			ids := make([]string, games)
			start := func(k, round int) string {
				id := fmt.Sprintf("c%dr%d", k, round)
				h.org("NEW dicebrewing id=" + id + " deadline=none\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob")
				h.send(id, ann, "JOIN", -1)
				h.send(id, bob, "JOIN", -1)
				return id
			}
			for k := range ids {
				ids[k] = start(k, 0)
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
					bot, _ := eg.(engine.BotMaker).NewBot("greedy")
					rng := rand.New(rand.NewPCG(uint64(k), 2))
					for i, round := k, 0; i < b.N; i += games {
						mu.Lock()
						id := ids[k]
						g := h.game(id)
						if g.Status != StatusRunning {
							round++
							id = start(k, round)
							ids[k], g = id, h.game(id)
						}
						tb := h.table(id)
						d := tb.Prompts[tb.Waiting()[0].Seat].Decision
						opts := tb.State.Legal(d)
						cmd := opts[bot.Choose(tb.State, d, opts, rng)].Cmd
						s := g.Seats[d.Seat]
						h.n++
						mid := fmt.Sprintf("<m%d@players.test>", h.n)
						mu.Unlock()
						req := Request{From: s.Address, Kind: "seat", Game: id, Seat: d.Seat, Secret: s.Secret, Token: tb.Token(), Text: cmd,
							MessageID: mid, Keys: []string{"msgid:" + mid}, Source: "test", SenderVerified: true}
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
