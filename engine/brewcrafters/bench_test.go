package brewcrafters

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// benchGame plays complete games of 4 players with bot and reports moves
// per second; with -benchmem the allocations are per move (one operation =
// one move, Pending, Legal and Parse included).
func benchGame(b *testing.B, bot engine.Bot, variant string) {
	enginetest.BenchGames(b, Game{}, func(n int) engine.Config {
		return engine.Config{Seats: []string{"ann", "bob", "cat", "dan"}, Seed: fmt.Sprint("bench-", n), Variant: variant}
	}, bot, rand.New(rand.NewPCG(1, 2)))
}

func BenchmarkRandomGameMoves(b *testing.B)  { benchGame(b, engine.RandomBot{}, "first") }
func BenchmarkComplexGameMoves(b *testing.B) { benchGame(b, engine.RandomBot{}, "complex") }
func BenchmarkGreedyGameMoves(b *testing.B)  { benchGame(b, Greedy{}, "first") }

// midGame returns a 4-player state in Year 2, for the JSON benchmarks.
func midGame(b *testing.B) *State {
	st, _, err := Game{}.NewState(engine.Config{Seats: []string{"ann", "bob", "cat", "dan"}, Seed: "mid", Variant: "complex"})
	if err != nil {
		b.Fatal(err)
	}
	s := st.(*State)
	rng := rand.New(rand.NewPCG(7, 8))
	for s.Season < 5 {
		d := s.Pending()[0]
		opts := s.Legal(d)
		m, _ := s.Parse(d.Seat, opts[rng.IntN(len(opts))].Cmd)
		if _, err := s.Apply(d.Seat, m); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// BenchmarkJSONRoundTrip marshals a mid-game state and decodes it back.
func BenchmarkJSONRoundTrip(b *testing.B) { enginetest.BenchJSONRoundTrip(b, Game{}, midGame(b)) }

// BenchmarkClone copies a mid-game state (the Table clones before every
// alternative it tries).
func BenchmarkClone(b *testing.B) {
	s := midGame(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = s.Clone()
	}
}

// BenchmarkSelfPlayMailGame plays one 3-player complex game per op as the
// issue 21 self-play run does (TestSelfPlayOneMailTurns): every turn one
// mail of one command per line through a Table.
func BenchmarkSelfPlayMailGame(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 21))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		st := enginetest.SelfPlayMails(b, Game{}, 1, func(int) engine.Config {
			return engine.Config{Variant: "complex", Seats: []string{"ann", "ben", "cat"}, Seed: fmt.Sprintf("bench/%d", i%20)}
		}, engine.RandomBot{}, rng)
		if st.Refused() > 0 {
			b.Fatal(st.Bad)
		}
	}
}

// BenchmarkNewTable measures a new game's table at its fewest and most
// seats (enginetest.BenchNewTable; issue 24: the set-up of every game of a
// tournament round).
func BenchmarkNewTable(b *testing.B) { enginetest.BenchNewTable(b, Game{}) }
