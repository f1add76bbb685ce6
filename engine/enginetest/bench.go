package enginetest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// The benchmark runners every game's bench_test.go shares.

// BotMove plays the first pending decision of st with bot's choice (the
// only option when there is no choice): Pending, Legal, Parse and Apply.
func BotMove(t testing.TB, st engine.State, bot engine.Bot, rng *rand.Rand) {
	d := st.Pending()[0]
	opts := st.Legal(d)
	k := 0
	if len(opts) > 1 {
		k = bot.Choose(st, d, opts, rng)
	}
	m, err := st.Parse(d.Seat, opts[k].Cmd)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Apply(d.Seat, m); err != nil {
		t.Fatal(err)
	}
}

// BenchGames plays complete games of g, one move of bot per benchmark
// operation (with -benchmem the allocations are per move), starting a new
// game from cfg(n) when one ends; it reports moves/s and the games played.
func BenchGames(b *testing.B, g engine.Game, cfg func(n int) engine.Config, bot engine.Bot, rng *rand.Rand) {
	var st engine.State
	games := 0
	newGame := func() {
		var err error
		st, _, err = g.NewState(cfg(games))
		if err != nil {
			b.Fatal(err)
		}
		games++
	}
	newGame()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if st.Result() != nil {
			newGame()
		}
		BotMove(b, st, bot, rng)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
	b.ReportMetric(float64(games), "games")
}

// BenchJSONRoundTrip marshals st and decodes it back with g.DecodeState,
// as the referee does for every stored move; it reports the bytes of the
// state.
func BenchJSONRoundTrip(b *testing.B, g engine.Game, st engine.State) {
	js, err := json.Marshal(st)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(js)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		data, err := json.Marshal(st)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := g.DecodeState(data, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchViews measures the views of every one of st's n seats and an
// observer, as the mails of one move compute them: each View alone
// ("views"), engine.Views adjudicating once ("shared"), and adjudicate
// alone (each view holds the projected scores: issue 25).
func BenchViews(b *testing.B, st engine.State, n int, adjudicate func()) {
	b.Run("views", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for seat := -1; seat < n; seat++ {
				_ = st.View(seat)
			}
		}
	})
	b.Run("shared", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			views := engine.Views(st)
			for seat := -1; seat < n; seat++ {
				_ = views(seat)
			}
		}
	})
	b.Run("adjudicate", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			adjudicate()
		}
	})
}

// BenchNewTable measures a new game's table as the referee makes one when
// a game starts (issue 24: a START of 5,000 games set up 5,000 tables):
// engine.NewTable of the game's default variant, at its fewest seats, two
// (a tournament's two-player game) and its most, a new seed each operation; allocs/op is a game's set-up
// with its first prompts.
func BenchNewTable(b *testing.B, g engine.Game) {
	info := g.Info()
	for _, n := range slices.Compact([]int{info.MinPlayers, max(2, info.MinPlayers), info.MaxPlayers}) {
		b.Run(fmt.Sprintf("seats=%d", n), func(b *testing.B) {
			seats := make([]string, n)
			for i := range seats {
				seats[i] = fmt.Sprintf("P%d", i+1)
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				cfg := engine.Config{Seats: seats, Seed: fmt.Sprintf("newtable/%d", i)}
				if _, _, _, err := engine.NewTable(g, cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
