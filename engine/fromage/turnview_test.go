package fromage

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
	"github.com/pbem-referee/referee/templates"
)

// TestTurnMenuHasItsView_Issue25: option.turn (templates/fromage/*/
// menu.tmpl) reads View.TurnLines and nothing renders a Fromage turn menu
// without that view (note13 "Left"). The referee has two ways to a seat's
// view, engine.Views over the state in hand and the state read back from
// its JSON (the store): along random games of 1 to 4 seats, standard and
// advanced, both give every seat with a turn decision a View holding a
// line for each option, and option.turn renders each in every language
// with no missing value. Without a view the template fails loudly (an
// error, never a wrong line).
func TestTurnMenuHasItsView_Issue25(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	rendered := 0
	for k := range 6 {
		tb, _, _, err := engine.NewTable(Game{}, randomConfig(k))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(k), 2025))
		for step := 0; step < 300 && tb.State.Result() == nil; step++ {
			s := tb.State.(*State)
			js, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Game{}.DecodeState(js, nil)
			if err != nil {
				t.Fatal(err)
			}
			paths := map[string]func(int) any{"engine.Views": engine.Views(s), "decoded": engine.Views(back)}
			for _, d := range s.Pending() {
				if d.Kind != kindTurn {
					continue
				}
				opts := s.Legal(d)
				for name, views := range paths {
					v, ok := views(d.Seat).(View)
					if !ok || len(v.TurnLines) != len(opts) {
						t.Fatalf("game %d step %d seat %d (%s): a view of %T with %d turn lines for %d options", k, step, d.Seat, name, views(d.Seat), len(v.TurnLines), len(opts))
					}
					if step%7 != 0 || name != "decoded" {
						continue
					}
					for _, lang := range templates.Languages {
						c := templates.Ctx{Lang: lang, Game: catalog.GameName, Seat: d.Seat, Seats: s.H.Seats}
						for i, o := range opts {
							out := render(t, set, lang, "option.turn", c.With(templates.OptionData{N: i + 1, Option: o, Decision: d, View: v}))
							if strings.TrimSpace(out) == "" {
								t.Fatalf("%s: %q renders nothing", lang, o.Cmd)
							}
							rendered++
						}
					}
				}
				c := templates.Ctx{Lang: "en", Game: catalog.GameName, Seat: d.Seat, Seats: s.H.Seats}
				if _, err := set.Render(catalog.GameName, "en", "option.turn", c.With(templates.OptionData{N: 1, Option: opts[0], Decision: d})); err == nil {
					t.Fatalf("option.turn rendered %q without a view: a line that says nothing of its option", opts[0].Cmd)
				}
			}
			if !randomMove(t, tb, rng) {
				break
			}
		}
	}
	if rendered < 100 {
		t.Fatalf("only %d turn lines rendered", rendered)
	}
	t.Logf("%d turn lines rendered from decoded states", rendered)
}
