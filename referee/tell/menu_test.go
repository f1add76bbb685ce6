package tell

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	_ "github.com/pbem-referee/referee/engine/brewcrafters"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	_ "github.com/pbem-referee/referee/engine/fromage"
	_ "github.com/pbem-referee/referee/engine/heavenale"
	"github.com/pbem-referee/referee/templates"
)

// TestMenuHeadsSharedAsRenderedEach_Issue25: a menu renders option.group
// once per group and params (groupHeads), keeps the lines and headings of
// the templates that read only the option and the view by the option's
// command or group (menuLines) from one mail to the next, and the menu is
// the one that renders every line and group afresh (a value left out of
// the key, Dice Brewing's Heads, serves a heading of another position). One Renderer serves every game and language, as in the daemon. Generated variation: random games of the
// four games (2 and 3 seats, two seeds), every numbered prompt of every
// seat as they come, in each language in turn, the reader at every seat.
func TestMenuHeadsSharedAsRenderedEach_Issue25(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	shared, every := &Renderer{T: set}, &Renderer{T: set, everyGroup: true}
	langs := set.Languages()
	menus, heads := 0, 0
	for _, name := range []string{"dicebrewing", "fromage", "heavenale", "brewcrafters"} {
		eg, err := engine.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, seats := range []int{2, 3} {
			n := eg.Info().NearestPlayers(seats)
			for seed := range 2 {
				names := []string{"Ann", "Bob", "Cat", "Dan", "Eve"}[:n]
				tb, _, _, err := engine.NewTable(eg, engine.Config{Seats: names, Seed: fmt.Sprintf("menu/%d", seed)})
				if err != nil {
					t.Fatal(err)
				}
				eachNumberedMenu(t, name, tb, names, langs, 60, rand.New(rand.NewPCG(uint64(seed), uint64(n))), func(step, seat int, rd Reader, p *engine.Prompt, view any) {
					a, err1 := shared.Prompt(rd, p, view)
					b, err2 := every.Prompt(rd, p, view)
					if err1 != nil || err2 != nil {
						t.Fatalf("%s step %d seat %d: %v / %v", name, step, seat, err1, err2)
					}
					if a != b {
						t.Fatalf("%s step %d seat %d (%s): the menu with shared heads differs:\n%s\n--- each rendered:\n%s", name, step, seat, rd.Lang, a, b)
					}
					menus++
					var h groupHeads
					if gt := shared.groupTemplate(rd, p.Decision.Kind); gt != nil {
						kc := shared.Ctx(rd, nil)
						for i, o := range p.Options {
							if _, err := h.render(gt, kc, templates.OptionData{N: i + 1, Option: o, Decision: p.Decision, View: view}, false, nil); err != nil {
								t.Fatal(err)
							}
						}
						heads += len(p.Options) - len(h.done)
					}
				})
			}
		}
	}
	kept := shared.lines.byName["option.group"]
	if menus < 100 || heads < 100 || shared.lines.hits < 1000 || kept < 100 {
		t.Fatalf("compared %d menus, %d heads shared, %d lines kept (%d headings): the test compares nothing", menus, heads, shared.lines.hits, kept)
	}
	t.Logf("%d menus compared; %d option.group renderings shared in a menu, %d kept from an earlier one; %d menu lines kept", menus, heads, kept, shared.lines.hits)
}

// TestLineKeyTellsOptionsApart_Issue25: a kept menu line's key holds
// every input its template may read: options with other params (another
// value, the same value of another type, keys and values shifted) or
// another group have other keys, and the command is in the key exactly
// when the template reads it.
func TestLineKeyTellsOptionsApart_Issue25(t *testing.T) {
	rd := Reader{Game: "g", Lang: "en"}
	opts := []engine.Option{
		{Cmd: "A", Group: "G"},
		{Cmd: "A", Group: "G", Params: map[string]any{"p": 1}},
		{Cmd: "A", Group: "G", Params: map[string]any{"p": int64(1)}},
		{Cmd: "A", Group: "G", Params: map[string]any{"p": 1.0}},
		{Cmd: "A", Group: "G", Params: map[string]any{"p": "1"}},
		{Cmd: "A", Group: "G", Params: map[string]any{"p": true}},
		{Cmd: "A", Group: "G", Params: map[string]any{"p": nil}},
		{Cmd: "A", Group: "G", Params: map[string]any{"p": 12}},
		{Cmd: "A", Group: "G", Params: map[string]any{"p": 1, "q": 2}},
		{Cmd: "A", Group: "G", Params: map[string]any{"p": 2, "q": 1}},
		{Cmd: "A", Group: "G", Params: map[string]any{"ab": ""}},
		{Cmd: "A", Group: "G", Params: map[string]any{"a": "b"}},
		{Cmd: "A", Group: "GG"},
		{Cmd: "A", Group: ""},
		// Lists and maps (Heaven & Ale's move options), issue 25.
		{Cmd: "A", Group: "G", Params: map[string]any{"p": []string{"1"}}},
		{Cmd: "A", Group: "G", Params: map[string]any{"p": []any{"1"}}},
		{Cmd: "A", Group: "G", Params: map[string]any{"p": []any{1}}},
		{Cmd: "A", Group: "G", Params: map[string]any{"p": []any{"1", "2"}}},
		{Cmd: "A", Group: "G", Params: map[string]any{"p": []any{"12"}}},
		{Cmd: "A", Group: "G", Params: map[string]any{"p": []any{}}},
		{Cmd: "A", Group: "G", Params: map[string]any{"p": []any{"1"}, "q": 1}},
		{Cmd: "A", Group: "G", Params: map[string]any{"p": []any{map[string]any{"large": true}}}},
		{Cmd: "A", Group: "G", Params: map[string]any{"p": []any{map[string]any{"large": false}}}},
		{Cmd: "A", Group: "G", Params: map[string]any{"p": map[string]any{"1": "2"}}},
	}
	key := func(od templates.OptionData, cmd bool) []byte {
		k, ok := appendLineKey(nil, rd, "option.k", od, templates.Reads{Cmd: cmd, Params: true})
		if !ok {
			t.Fatalf("%v: not keyed", od.Option)
		}
		return k
	}
	seen := map[string]int{}
	for i, o := range opts {
		od := templates.OptionData{Option: o, Decision: engine.Decision{Kind: "k"}}
		k := string(key(od, false))
		if j, dup := seen[k]; dup {
			t.Errorf("options %d and %d share the key %q", j, i, k)
		}
		seen[k] = i
		o.Cmd = "B"
		other := string(key(templates.OptionData{Option: o, Decision: od.Decision}, false))
		if other != k {
			t.Errorf("option %d: the command changed a key that leaves it out: %q, %q", i, k, other)
		}
		withA := string(key(od, true))
		withB := string(key(templates.OptionData{Option: o, Decision: od.Decision}, true))
		if withA == withB || withA == k {
			t.Errorf("option %d: the command read is not in the key: %q, %q", i, withA, withB)
		}
	}
	// A param that holds a pointer or a value with methods is not keyed
	// (what it points to may change under the same key).
	n := 1
	for _, p := range []any{&n, []any{&n}, map[string]any{"x": time.Second}} {
		od := templates.OptionData{Option: engine.Option{Cmd: "A", Params: map[string]any{"p": p}}, Decision: engine.Decision{Kind: "k"}}
		if k, ok := appendLineKey(nil, rd, "option.k", od, templates.Reads{Params: true}); ok {
			t.Errorf("param %#v keyed: %q", p, k)
		}
	}
}
