package dicebrewing

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
	"github.com/pbem-referee/referee/engine/dicebrewing/view"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// BenchmarkRandomGameMoves plays complete games of random players (3
// players, round_limit 10) and reports moves per second; with -benchmem
// the allocations are per move (one benchmark operation = one move,
// Legal included).
func BenchmarkRandomGameMoves(b *testing.B) {
	enginetest.BenchGames(b, Game, func(n int) engine.Config {
		return engine.Config{Seats: []string{"ann", "bob", "cat"}, Seed: fmt.Sprint("bench-", n),
			Options: map[string]string{position.OptLimit: "10", position.OptUnlucky: "true"}}
	}, engine.RandomBot{}, rand.New(rand.NewPCG(1, 2)))
}

// BenchmarkGreedyGameMoves is the same with greedy players, who play to
// the end trigger.
func BenchmarkGreedyGameMoves(b *testing.B) {
	enginetest.BenchGames(b, Game, func(n int) engine.Config {
		return engine.Config{Seats: []string{"ann", "bob", "cat"}, Seed: fmt.Sprint("bench-g-", n)}
	}, Greedy{}, rand.New(rand.NewPCG(3, 4)))
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
		enginetest.BotMove(b, s, Greedy{}, rng)
	}
	return s
}

// BenchmarkJSONRoundTrip marshals a mid-game state and decodes it back
// (engine.Game.DecodeState), as the referee does for every stored move.
func BenchmarkJSONRoundTrip(b *testing.B) { enginetest.BenchJSONRoundTrip(b, Game, midGame(b)) }

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

// BenchmarkViewPlacement measures the View of the seat to act in a
// placement turn, as one mail renders it (with Toward and Costs, issue
// 22: the options' notes are computed here, not in Legal).
func BenchmarkViewPlacement(b *testing.B) {
	st, _, _ := Game.NewState(engine.Config{Seats: []string{"ann", "bob", "cat", "dan"}, Seed: "legal"})
	s := st.(*state)
	seat := s.Pending()[0].Seat
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if s.View(seat).(view.View).Seat != seat {
			b.Fatal("wrong view")
		}
	}
}

// BenchmarkViewEverySeat measures the views of every seat and an
// observer of one state, as the mails of one move compute them, and
// Adjudicate alone (each view holds the projected scores: issue 25).
func BenchmarkViewEverySeat(b *testing.B) {
	st := midGame(b)
	n := len(st.P)
	enginetest.BenchViews(b, st, n, func() { _ = st.Adjudicate() })
}

// BenchmarkNewTable measures a new game's table at its fewest and most
// seats (enginetest.BenchNewTable; issue 24: the set-up of every game of a
// tournament round).
func BenchmarkNewTable(b *testing.B) { enginetest.BenchNewTable(b, Game) }
