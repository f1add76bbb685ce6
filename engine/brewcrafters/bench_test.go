package brewcrafters

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// benchGame plays complete games of 4 players with bot and reports moves
// per second; with -benchmem the allocations are per move (one operation =
// one move, Pending, Legal and Parse included).
func benchGame(b *testing.B, bot engine.Bot, variant string) {
	rng := rand.New(rand.NewPCG(1, 2))
	var s *State
	game := 0
	newGame := func() {
		cfg := engine.Config{Seats: []string{"ann", "bob", "cat", "dan"}, Seed: fmt.Sprint("bench-", game), Variant: variant}
		game++
		st, _, err := Game{}.NewState(cfg)
		if err != nil {
			b.Fatal(err)
		}
		s = st.(*State)
	}
	newGame()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if s.Result() != nil {
			newGame()
		}
		d := s.Pending()[0]
		opts := s.Legal(d)
		k := 0
		if len(opts) > 1 {
			k = bot.Choose(s, d, opts, rng)
		}
		m, err := s.Parse(d.Seat, opts[k].Cmd)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Apply(d.Seat, m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
	b.ReportMetric(float64(game), "games")
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
func BenchmarkJSONRoundTrip(b *testing.B) {
	s := midGame(b)
	b.ReportAllocs()
	b.ResetTimer()
	var n int
	for i := 0; i < b.N; i++ {
		js, err := json.Marshal(s)
		if err != nil {
			b.Fatal(err)
		}
		n = len(js)
		if _, err := (Game{}).DecodeState(js, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "bytes")
}

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
