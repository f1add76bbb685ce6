package referee

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt"
)

// BenchmarkProcessMove measures the referee's whole work for one player's
// move in a running Dice Brewing game: the transaction, the engine, the
// mails to every seat (rendered and composed), with a NoSync store.
func BenchmarkProcessMove(b *testing.B) {
	h := newHarness(b)
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
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if h.game(id).Status != StatusRunning {
			id = start()
		}
		tb := h.table(id)
		d := tb.Prompts[tb.Waiting()[0].Seat].Decision
		opts := tb.State.Legal(d)
		cmd := opts[bot.Choose(tb.State, d, opts, rng)].Cmd
		addr := h.game(id).Seats[d.Seat].Address
		b.StartTimer()
		h.send(id, addr, cmd, tb.Token())
	}
}
