package templates

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/engine"
	_ "github.com/pbem-referee/referee/engine/brewcrafters"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	_ "github.com/pbem-referee/referee/engine/fromage"
	_ "github.com/pbem-referee/referee/engine/heavenale"
)

// TestFoldedTablesRenderAsWritten_Issue25: the templates with their
// constant dict tables folded at load (fold.go) write what the templates
// as written write. Generated variation: random games of the four games
// (2 and 3 seats), and at every step, for every seat in each language in
// turn, the summary (full and compact), the prompt, its where, every
// option's line and group, the legend, and every event of the step as
// the seat sees it.
func TestFoldedTablesRenderAsWritten_Issue25(t *testing.T) {
	folded, err := load(files, true, true)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := load(files, false, false)
	if err != nil {
		t.Fatal(err)
	}
	if folded.folded < 20*len(folded.langs) || plain.folded != 0 {
		t.Fatalf("folded %d tables (plain: %d): the test compares nothing folded", folded.folded, plain.folded)
	}
	langs := folded.Languages()
	compared := 0
	check := func(game, lang string, seat int, seats []string, name string, data any, compact bool) {
		t.Helper()
		if !plain.Has(game, lang, name) {
			return
		}
		ctx := func(s *Set) Ctx {
			return Ctx{Lang: lang, Game: game, Seat: seat, Seats: seats, Data: data, Compact: compact,
				Word: func(kw string) string { return s.Word(game, lang, kw) },
				Arg:  func(w string) string { return s.ArgWord(game, lang, w) }}
		}
		a, err1 := folded.Render(game, lang, name, ctx(folded))
		b, err2 := plain.Render(game, lang, name, ctx(plain))
		if a != b || fmt.Sprint(err1) != fmt.Sprint(err2) {
			t.Fatalf("%s/%s %s (seat %d): folded\n%s\n(%v)\n--- as written\n%s\n(%v)", game, lang, name, seat, a, err1, b, err2)
		}
		compared++
	}
	for _, name := range []string{"dicebrewing", "fromage", "heavenale", "brewcrafters"} {
		eg, err := engine.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, seats := range []int{2, 3} {
			n := eg.Info().NearestPlayers(seats)
			names := []string{"Ann", "Bob", "Cat", "Dan", "Eve"}[:n]
			tb, _, _, err := engine.NewTable(eg, engine.Config{Seats: names, Seed: fmt.Sprintf("fold/%d", n)})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(n), 25))
			var events []engine.Event
			for step := 0; step < 30 && tb.State.Result() == nil; step++ {
				for seat := range names {
					lang := langs[(step+seat)%len(langs)]
					view := tb.State.View(seat)
					check(name, lang, seat, names, "summary", view, step%2 == 0)
					for _, ev := range events {
						if e, ok := ev.For(seat); ok {
							check(name, lang, seat, names, "event."+e.Type, e, false)
						}
					}
					p := tb.Prompts[seat]
					if p == nil {
						continue
					}
					pd := PromptData{Prompt: *p, View: view}
					check(name, lang, seat, names, "prompt."+p.Decision.Kind, pd, false)
					check(name, lang, seat, names, "where", pd, false)
					check(name, lang, seat, names, "option.legend", OptionData{Decision: p.Decision, View: view}, false)
					for i, o := range p.Options {
						od := OptionData{N: i + 1, Option: o, Decision: p.Decision, View: view}
						check(name, lang, seat, names, "option."+p.Decision.Kind, od, false)
						check(name, lang, seat, names, "option.group", od, false)
					}
				}
				waiting := tb.Waiting()
				if len(waiting) == 0 {
					break
				}
				d := waiting[0]
				opts := tb.State.Legal(d)
				if len(opts) == 0 {
					break
				}
				rep, err := tb.Submit(d.Seat, engine.ParseScript(opts[rng.IntN(len(opts))].Cmd), tb.Token())
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				events = events[:0]
				for _, st := range rep.Steps {
					events = append(events, st.Events...)
				}
			}
		}
	}
	if compared < 1000 {
		t.Fatalf("compared %d renderings: the test compares nothing", compared)
	}
	t.Logf("%d tables folded per set; %d renderings compared", folded.folded, compared)
}
