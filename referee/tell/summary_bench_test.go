package tell

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/templates"
)

// seatViews are every seat's view after every move of a random game of
// game with n seats, in the order a game's mails render them (each move,
// seat by seat), up to steps moves.
func seatViews(tb testing.TB, game string, n int, seed uint64, steps int) (names []string, views []seatView) {
	tb.Helper()
	eg, err := engine.Lookup(game)
	if err != nil {
		tb.Fatal(err)
	}
	n = eg.Info().NearestPlayers(n)
	names = []string{"Ann", "Bob", "Cat", "Dan", "Eve"}[:n]
	table, _, _, err := engine.NewTable(eg, engine.Config{Seats: names, Seed: fmt.Sprintf("summary/%d", seed)})
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	for step := 0; step < steps && table.State.Result() == nil; step++ {
		d, cmd, ok := randomMove(table, rng)
		if !ok {
			break
		}
		if _, err := table.Submit(d.Seat, engine.ParseScript(cmd), table.Token()); err != nil {
			tb.Fatalf("%s: %v", game, err)
		}
		all := engine.Views(table.State)
		for s := range n {
			views = append(views, seatView{seat: s, view: all(s)})
		}
	}
	return names, views
}

type seatView struct {
	seat int
	view any
}

// BenchmarkSeatSummary_Issue25 is a seat's summary (Renderer.Summary,
// English, compact as a move's mail shows it) of each game: every seat's
// view after every move of two-player random games, rendered in the
// order a game's mails render them, with a Set loaded afresh each pass
// (what it keeps from one seat and one move to the next counts, as in
// the daemon). One op is one pass; allocs/summary and ns/summary are
// per seat's summary.
func BenchmarkSeatSummary_Issue25(b *testing.B) {
	for _, game := range allGames {
		b.Run(game, func(b *testing.B) {
			type played struct {
				names []string
				views []seatView
			}
			var games []played
			count := 0
			for seed := range uint64(3) {
				names, views := seatViews(b, game, 2, seed, 60)
				games = append(games, played{names, views})
				count += len(views)
			}
			b.ReportAllocs()
			b.ResetTimer()
			var ms runtime.MemStats
			var mallocs uint64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				set, err := templates.LoadFS(templates.Files())
				if err != nil {
					b.Fatal(err)
				}
				r := &Renderer{T: set}
				runtime.ReadMemStats(&ms)
				before := ms.Mallocs
				b.StartTimer()
				for _, g := range games {
					for _, sv := range g.views {
						rd := Reader{Game: game, Lang: "en", Seat: sv.seat, Seats: g.names, Compact: true}
						if _, err := r.Summary(rd, sv.view); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.StopTimer()
				runtime.ReadMemStats(&ms)
				mallocs += ms.Mallocs - before
				b.StartTimer()
			}
			b.ReportMetric(float64(count), "summaries/op")
			b.ReportMetric(float64(mallocs)/float64(b.N*count), "allocs/summary")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*count), "ns/summary")
		})
	}
}
