package tell_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/templates"
)

// TestEventLinesNameWhoHeldTheSeatAtTheirMove_Issue24 (the rule in
// doc.go): a seat handed from Old to New after a generated move k; every
// event line of every game's first steps, played by its first bot, in
// every language and for every reader, names the seat as the line
// rendered with the holder of the step's move as the seat's name does:
// Old through move k, New after. The lines of Old's moves that name the
// seat are counted, so that a rendering naming the current holder
// everywhere fails.
func TestEventLinesNameWhoHeldTheSeatAtTheirMove_Issue24(t *testing.T) {
	r, err := tell.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(24, 1))
	for _, eg := range engine.Games() {
		name := eg.Info().Name
		n := max(eg.Info().MinPlayers, 2)
		seats := []string{"Ann", "Bob", "Cid", "Dee"}[:n]
		tb, _, _, err := engine.NewTable(eg, engine.Config{Seats: seats, Seed: "held"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		bm, ok := eg.(engine.BotMaker)
		if !ok {
			continue
		}
		bot, err := bm.NewBot(eg.Info().Bots[0])
		if err != nil {
			t.Fatal(err)
		}
		var steps []engine.Step
		for len(steps) < 30 && tb.State.Result() == nil {
			w := tb.Waiting()
			if len(w) == 0 {
				break
			}
			opts := tb.State.Legal(w[0])
			cmd := opts[bot.Choose(tb.State, w[0], opts, rng)].Cmd
			rep, err := tb.Submit(w[0].Seat, []engine.Order{{Line: 1, Text: cmd, Alts: [][]string{{cmd}}}}, tb.Token())
			if err != nil {
				t.Fatalf("%s: %q: %v", name, cmd, err)
			}
			steps = append(steps, rep.Steps...)
		}
		oldNamed := 0
		for draw := 0; draw < 4; draw++ {
			seat, k := rng.IntN(n), 1+rng.IntN(max(1, tb.Token()-1))
			now := slices.Clone(seats)
			now[seat] = "New"
			before := make([][]tell.Holder, n)
			before[seat] = []tell.Holder{{Name: "Old", Through: k}}
			for _, lang := range templates.Languages {
				for reader := -1; reader < n; reader++ {
					for _, st := range steps {
						held := slices.Clone(now)
						if st.Token <= k {
							held[seat] = "Old"
						}
						e := tell.Entry{Kind: tell.EntryStep, Step: &st}
						got, err := tell.EntryLines(r, tell.Reader{Game: name, Lang: lang, Seat: reader, Seats: now, Before: before}, e)
						if err != nil {
							t.Fatal(err)
						}
						want, err := tell.EntryLines(r, tell.Reader{Game: name, Lang: lang, Seat: reader, Seats: held}, e)
						if err != nil {
							t.Fatal(err)
						}
						if fmt.Sprint(got) != fmt.Sprint(want) {
							t.Fatalf("%s %s seat %d handed over after move %d, reader %d, move %d:\n%q\nwant\n%q", name, lang, seat, k, reader, st.Token, got, want)
						}
						plain, err := tell.EntryLines(r, tell.Reader{Game: name, Lang: lang, Seat: reader, Seats: now}, e)
						if err != nil {
							t.Fatal(err)
						}
						if fmt.Sprint(plain) != fmt.Sprint(want) {
							oldNamed++
						}
					}
				}
			}
		}
		if oldNamed == 0 {
			t.Errorf("%s: no event line of the first holder's moves named the seat", name)
		}
	}
}
