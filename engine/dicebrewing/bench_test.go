package dicebrewing

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// BenchmarkRandomGameMoves plays complete games of random players (3
// players, round_limit 10) and reports moves per second; with -benchmem
// the allocations are per move (one benchmark operation = one move,
// Legal included).
func BenchmarkRandomGameMoves(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	bot := engine.RandomBot{}
	var s *state
	game := 0
	newGame := func() {
		cfg := engine.Config{Seats: []string{"ann", "bob", "cat"}, Seed: fmt.Sprint("bench-", game),
			Options: map[string]string{optLimit: "10", optUnlucky: "true"}}
		game++
		st, _, err := Game.NewState(cfg)
		if err != nil {
			b.Fatal(err)
		}
		s = st.(*state)
	}
	newGame()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if s.Result() != nil {
			newGame()
		}
		botMove(b, s, bot, rng)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
	b.ReportMetric(float64(game), "games")
}

// BenchmarkGreedyGameMoves is the same with greedy players, who play to
// the end trigger.
func BenchmarkGreedyGameMoves(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	var s *state
	game := 0
	newGame := func() {
		cfg := engine.Config{Seats: []string{"ann", "bob", "cat"}, Seed: fmt.Sprint("bench-g-", game)}
		game++
		st, _, err := Game.NewState(cfg)
		if err != nil {
			b.Fatal(err)
		}
		s = st.(*state)
	}
	newGame()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if s.Result() != nil {
			newGame()
		}
		botMove(b, s, Greedy{}, rng)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}

// botMove plays the first pending decision with bot's choice (the only
// option when there is no real choice).
func botMove(b *testing.B, s *state, bot engine.Bot, rng *rand.Rand) {
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

// midGame returns a 4-player state in round 5 of a greedy game.
func midGame(b *testing.B) *state {
	rng := rand.New(rand.NewPCG(5, 6))
	st, _, err := Game.NewState(engine.Config{Seats: []string{"ann", "bob", "cat", "dan"}, Seed: "mid"})
	if err != nil {
		b.Fatal(err)
	}
	s := st.(*state)
	for s.Round < 5 && s.Result() == nil {
		botMove(b, s, Greedy{}, rng)
	}
	return s
}

// BenchmarkJSONRoundTrip marshals a mid-game state and decodes it back
// (engine.Game.DecodeState), as the referee does for every stored move.
func BenchmarkJSONRoundTrip(b *testing.B) {
	s := midGame(b)
	js := mustMarshal(b, s)
	b.ReportAllocs()
	b.SetBytes(int64(len(js)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		js := mustMarshal(b, s)
		if _, err := Game.DecodeState(js, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLegalPlacement measures the option list of a placement turn.
func BenchmarkLegalPlacement(b *testing.B) {
	st, _, _ := Game.NewState(engine.Config{Seats: []string{"ann", "bob", "cat", "dan"}, Seed: "legal"})
	s := st.(*state)
	d := s.Pending()[0]
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if len(s.Legal(d)) == 0 {
			b.Fatal("no options")
		}
	}
}
