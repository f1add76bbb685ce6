package heavenale

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

func benchGames(b *testing.B, bot engine.Bot, players int) {
	enginetest.BenchGames(b, Game{}, func(n int) engine.Config {
		return engine.Config{Seats: seatNames[:players], Seed: fmt.Sprint("bench-", n)}
	}, bot, rand.New(rand.NewPCG(1, 2)))
}

// BenchmarkRandomGameMoves: complete 4-player games of random players; one
// operation is one move (with -benchmem: allocations per move).
func BenchmarkRandomGameMoves(b *testing.B) { benchGames(b, engine.RandomBot{}, 4) }

// BenchmarkGreedyGameMoves: the same with greedy players (their look-ahead
// dominates).
func BenchmarkGreedyGameMoves(b *testing.B) { benchGames(b, Greedy{}, 4) }

// midGame returns a 4-player state in round 3.
func midGame(b *testing.B) *State {
	st, _, err := Game{}.NewState(engine.Config{Seats: seatNames, Seed: "mid"})
	if err != nil {
		b.Fatal(err)
	}
	s := st.(*State)
	rng := rand.New(rand.NewPCG(9, 9))
	for s.Round < 3 {
		enginetest.BotMove(b, s, engine.RandomBot{}, rng)
	}
	return s
}

// BenchmarkJSONRoundTrip: marshal a mid-game state and decode it back.
func BenchmarkJSONRoundTrip(b *testing.B) { enginetest.BenchJSONRoundTrip(b, Game{}, midGame(b)) }

// BenchmarkView: one seat's view of a mid-game state (the summary's data,
// with the projected final scores).
func BenchmarkView(b *testing.B) {
	s := midGame(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = s.View(i % 4)
	}
}

// BenchmarkGreedySelfPlay reports the mean final score of greedy bots
// playing each other (2 to 4 players), the figure issue 14.6 asks to raise:
// go test -run X -bench GreedySelfPlay -benchtime 40x ./engine/heavenale/
func BenchmarkGreedySelfPlay(b *testing.B) {
	tot, n := 0, 0
	for g := 0; g < b.N; g++ {
		np := 2 + g%3
		bots := make([]engine.Bot, np)
		for i := range bots {
			bots[i] = Greedy{}
		}
		cfg := engine.Config{Seats: seatNames[:np], Seed: fmt.Sprintf("gg/%d", g)}
		s, _ := playRandom(b, cfg, bots, uint64(g), false)
		for _, sc := range s.Result().Scores {
			tot += sc.Total
			n++
		}
	}
	b.ReportMetric(float64(tot)/float64(n), "VP/seat")
}

// BenchmarkNewTable measures a new game's table at its fewest and most
// seats (enginetest.BenchNewTable; issue 24: the set-up of every game of a
// tournament round).
func BenchmarkNewTable(b *testing.B) { enginetest.BenchNewTable(b, Game{}) }
