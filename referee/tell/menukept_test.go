package tell

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/templates"
)

// TestMenuRenderedAgainFindsEveryLineKept_Issue25: a menu rendered a
// second time (the same prompt and view, as a seat that is asked again
// before anything changed) finds every option's line kept (menuLines),
// in the games whose option templates read only the option and the view
// by the option's command: Fromage's turn lines (option.turn) read the
// option and View.TurnLines[its command] (issue 25: they read the whole
// view, Now and You, and were rendered for every option of every mail),
// Brew Crafters' lines read their MenuItem,
// whose card is held by value (a pointer refused the key, issue 25),
// Dice Brewing's and Heaven & Ale's, whose move menu's headings
// (option.group.move) read only the group and are kept too (they read
// len(View.Menu) once, and were rendered once per option). Generated variation: random games of 2 and 3 seats,
// every numbered prompt of every seat, in each language in turn; the
// second rendering is the first, byte for byte.
func TestMenuRenderedAgainFindsEveryLineKept_Issue25(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	langs := set.Languages()
	for _, name := range []string{"brewcrafters", "dicebrewing", "fromage", "heavenale"} {
		eg, err := engine.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		r := &Renderer{T: set}
		menus, lines := 0, 0
		for _, seats := range []int{2, 3} {
			n := eg.Info().NearestPlayers(seats)
			names := []string{"Ann", "Bob", "Cat", "Dan", "Eve"}[:n]
			tb, _, _, err := engine.NewTable(eg, engine.Config{Seats: names, Seed: fmt.Sprintf("kept/%d", seats)})
			if err != nil {
				t.Fatal(err)
			}
			eachNumberedMenu(t, name, tb, names, langs, 40, rand.New(rand.NewPCG(25, uint64(n))), func(step, seat int, rd Reader, p *engine.Prompt, view any) {
				if r.find(rd, "option."+p.Decision.Kind) == nil {
					return // no option template: each line is its command, nothing rendered
				}
				first, err := r.Prompt(rd, p, view)
				if err != nil {
					t.Fatal(err)
				}
				hits := r.lines.hits
				again, err := r.Prompt(rd, p, view)
				if err != nil {
					t.Fatal(err)
				}
				if again != first {
					t.Fatalf("%s step %d seat %d: the menu rendered again differs:\n%s\n--- first:\n%s", name, step, seat, again, first)
				}
				if kept := r.lines.hits - hits; kept < len(p.Options) {
					t.Fatalf("%s step %d seat %d (%s, %s): %d of %d option lines kept when rendered again", name, step, seat, rd.Lang, p.Decision.Kind, kept, len(p.Options))
				}
				menus++
				lines += len(p.Options)
			})
		}
		if name == "heavenale" && r.lines.byName["option.group.move"] < menus {
			t.Fatalf("%s: %d move menu headings kept in %d menus rendered again", name, r.lines.byName["option.group.move"], menus)
		}
		if menus < 10 || lines < 50 {
			t.Fatalf("%s: %d menus, %d lines: the test compares nothing", name, menus, lines)
		}
		t.Logf("%s: %d menus, %d lines, each kept when rendered again", name, menus, lines)
	}
}

// eachNumberedMenu plays tb at random for at most steps steps and calls
// fn with every numbered prompt of every seat as they come, the reader
// in each language in turn.
func eachNumberedMenu(t testing.TB, name string, tb *engine.Table, names, langs []string, steps int, rng *rand.Rand, fn func(step, seat int, rd Reader, p *engine.Prompt, view any)) {
	t.Helper()
	for step := 0; step < steps && tb.State.Result() == nil; step++ {
		if len(tb.Waiting()) == 0 {
			return
		}
		for seat, p := range tb.Prompts {
			if numberedMenu(p) {
				fn(step, seat, Reader{Game: name, Lang: langs[(step+seat)%len(langs)], Seat: seat, Seats: names}, p, tb.State.View(seat))
			}
		}
		if !playRandom(t, name, tb, rng) {
			return
		}
	}
}

// numberedMenu reports whether p is a prompt with a numbered menu.
func numberedMenu(p *engine.Prompt) bool {
	return p != nil && p.Numbered && len(p.Options) > 0
}

// playRandom plays a random legal answer (by rng) of the first decision
// waiting at tb; false when none waits or it has no legal answer.
func playRandom(t testing.TB, name string, tb *engine.Table, rng *rand.Rand) bool {
	t.Helper()
	waiting := tb.Waiting()
	if len(waiting) == 0 {
		return false
	}
	d := waiting[0]
	opts := tb.State.Legal(d)
	if len(opts) == 0 {
		return false
	}
	if _, err := tb.Submit(d.Seat, engine.ParseScript(opts[rng.IntN(len(opts))].Cmd), tb.Token()); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return true
}
