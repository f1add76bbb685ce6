package fromage

import (
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// BenchmarkGreedyGameMoves plays complete games of greedy players; one
// operation is one move (with -benchmem: allocations per move).
func BenchmarkGreedyGameMoves(b *testing.B) {
	enginetest.BenchGames(b, Game{}, randomConfig, Greedy{}, rand.New(rand.NewPCG(1, 2)))
}

// BenchmarkRandomGame reports moves per second and allocations per move
// over complete random games (no invariant checks).
func BenchmarkRandomGame(b *testing.B) {
	b.ReportAllocs()
	moves := 0
	for i := 0; i < b.N; i++ {
		_, n, err := playRandom(i, false)
		if err != nil {
			b.Fatal(err)
		}
		moves += n
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
	b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
}

// BenchmarkMove measures one move (Pending + Legal + Parse + Apply) of
// random games; allocs/op is allocations per move.
func BenchmarkMove(b *testing.B) {
	b.ReportAllocs()
	rng := rand.New(rand.NewPCG(1, 2))
	var st engine.State
	game := 0
	for i := 0; i < b.N; i++ {
		if st == nil || st.Result() != nil {
			b.StopTimer()
			st, _, _ = Game{}.NewState(randomConfig(game))
			game++
			b.StartTimer()
		}
		pend := st.Pending()
		d := pend[0]
		opts := st.Legal(d)
		m, _ := st.Parse(d.Seat, opts[rng.IntN(len(opts))].Cmd)
		if _, err := st.Apply(d.Seat, m); err != nil {
			b.Fatal(err)
		}
	}
}

// midGame returns a 4-player state in the middle of a game.
func midGame(tb testing.TB) engine.State {
	st, _, err := Game{}.NewState(engine.Config{Variant: "advanced", Seats: seatNames, Seed: "mid"})
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 4))
	for st.(*State).Turn < 8 {
		d := st.Pending()[0]
		opts := st.Legal(d)
		m, _ := st.Parse(d.Seat, opts[rng.IntN(len(opts))].Cmd)
		if _, err := st.Apply(d.Seat, m); err != nil {
			tb.Fatal(err)
		}
	}
	return st
}

// BenchmarkJSONRoundTrip: marshal a mid-game state and decode it back, as
// the referee does for every stored move.
func BenchmarkJSONRoundTrip(b *testing.B) { enginetest.BenchJSONRoundTrip(b, Game{}, midGame(b)) }

// BenchmarkGreedyChoose measures one greedy decision.
func BenchmarkGreedyChoose(b *testing.B) {
	st := midGame(b)
	d := st.Pending()[0]
	opts := st.Legal(d)
	rng := rand.New(rand.NewPCG(1, 1))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Greedy{}.Choose(st, d, opts, rng)
	}
}

// BenchmarkViewEverySeat measures the views of every seat and an
// observer of one mid-game state in a sealed turn (one seat has moved),
// as the mails of one move compute them (each View, and engine.Views
// adjudicating once), and Adjudicate alone (each view
// holds the public standing: issue 25).
func BenchmarkViewEverySeat(b *testing.B) {
	st := midGame(b)
	d := st.Pending()[0]
	opts := st.Legal(d)
	if m, err := st.Parse(d.Seat, opts[0].Cmd); err == nil {
		_, _ = st.Apply(d.Seat, m)
	}
	n := len(st.(*State).Players)
	enginetest.BenchViews(b, st, n, func() { _ = st.(*State).Adjudicate() })
}

// BenchmarkNewTable measures a new game's table at its fewest and most
// seats (enginetest.BenchNewTable; issue 24: the set-up of every game of a
// tournament round).
func BenchmarkNewTable(b *testing.B) { enginetest.BenchNewTable(b, Game{}) }
