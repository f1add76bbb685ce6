package heavenale

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// Issue 22, menus that fit a decision: for positions of random games, every
// option of a move or a purchase has its group (the kind of its space; the
// tile bought, END for DONE and SELL), found without allocating, and each
// group's options come together (the Table numbers them as Legal lists
// them).
func TestMenuGroups_Issue22(t *testing.T) {
	seen := map[string]bool{}
	enginetest.RandomWalk(t, Game{}, "groups", 3, 400, 22, func(st engine.State, d engine.Decision, opts []engine.Option) {
		if d.Kind == kindMove || d.Kind == kindBuy {
			checkGroups(t, st.(*State), d, opts, seen)
		}
	})
	for _, g := range []string{"move resource", "move monk", "move disc", "move home", "buy BUY", "buy END"} {
		if !seen[g] {
			t.Errorf("no option in group %q (seen %v)", g, seen)
		}
	}
}

// checkGroups checks the groups of one move or purchase decision.
func checkGroups(t *testing.T, s *State, d engine.Decision, opts []engine.Option, seen map[string]bool) {
	t.Helper()
	g := engine.GroupOptions(opts)
	done := map[string]bool{}
	for k, o := range g {
		if o.Group == "" {
			t.Fatalf("%s %q: no group", d.Kind, o.Cmd)
		}
		if k > 0 && g[k-1].Group != o.Group && done[o.Group] {
			t.Fatalf("%s: group %q comes twice", d.Kind, o.Group)
		}
		done[o.Group] = true
		key, _, _ := strings.Cut(o.Group, " ")
		seen[d.Kind+" "+key] = true
		// The purchases are listed by tile already (the Table keeps
		// Legal's numbers); GO HOME, DONE and SELL come last.
		if d.Kind == kindBuy && o.Cmd != opts[k].Cmd {
			t.Fatalf("buy: option %d is %q, listed %q", k+1, opts[k].Cmd, o.Cmd)
		}
		if last := o.Group == groupEnd || o.Group == "home"; last && k+1 < len(g) && g[k+1].Group != o.Group {
			t.Fatalf("%s: %q before %q", d.Kind, o.Cmd, g[k+1].Cmd)
		}
		// Best known first (bestKnownFirst): within a group, no option
		// is worth more than the one before it.
		if k > 0 && g[k-1].Group == o.Group && s.optionWorth(d.Seat, o) > s.optionWorth(d.Seat, g[k-1]) {
			t.Fatalf("%s: %q (worth %d) after %q (worth %d)", d.Kind, o.Cmd, s.optionWorth(d.Seat, o), g[k-1].Cmd, s.optionWorth(d.Seat, g[k-1]))
		}
		cmd := o.Cmd
		a := testing.AllocsPerRun(3, func() {
			if d.Kind == kindMove {
				_ = s.moveGroup(cmd)
			} else {
				_ = buyGroup(cmd)
			}
		})
		if a != 0 {
			t.Fatalf("the group of %q allocates %v", cmd, a)
		}
	}
}

// TestBestKnownFirst_Issue22: the worth of a move's or a purchase's option
// (optionWorth, the rule "best known" of doc.go), case by case: a resource
// or monk space by the best tile the seat can pay on a shady spot with its
// ducats and its cards' sale, a disc space by its usable spots, a barrel
// space by the barrels claimed, a purchase by the fertility sum of the shed
// it encloses; and bestKnownFirst orders each group by it, ties in the
// order built, the groups where their first option was.
func TestBestKnownFirst_Issue22(t *testing.T) {
	s := newGame(t, 2)
	p := &s.Players[0]
	p.Cards = []string{"CASH"} // sells for 3
	sale := s.sellable(0)
	if sale != 3 {
		t.Fatalf("one card sells for %d", sale)
	}
	res := func(tiles []string, prices []int) map[string]any {
		return map[string]any{"kind": "resource", "tiles": tiles, "prices": prices}
	}
	for _, c := range []struct {
		name   string
		ducats int
		params map[string]any
		want   int
	}{
		{"the best tile affordable", 10, res([]string{"HO4", "YE2"}, []int{4, 2}), 4},
		{"a tile paid with the card's sale", 3, res([]string{"HO4", "YE2"}, []int{4, 2}), 4}, // 3 ducats + 3 from the card
		{"nothing affordable", 0, res([]string{"WA5", "BA6"}, []int{5, 6}), 0},
		{"only the cheap tile", 1, res([]string{"WA5", "YE2"}, []int{5, 2}), 2},
		{"a monk by its type", 9, map[string]any{"kind": "monk", "tiles": []string{"M3", "M1"}, "prices": []int{2, 2}}, 3},
		{"a disc by its spots", 0, map[string]any{"kind": "disc", "spots": []string{"S1", "D4", "X"}}, 3},
		{"a barrel by its barrels", 0, map[string]any{"kind": "barrel", "goals": []string{"G1:large", "G4:small"}}, 2},
		{"home", 0, map[string]any{"kind": "home"}, 0},
		{"a purchase enclosing a shed", 0, map[string]any{"verb": "BUY", "encloses": "SH2", "sum": 7}, 7},
		{"a purchase enclosing none", 0, map[string]any{"verb": "BUY"}, 0},
		{"DONE", 0, map[string]any{"verb": "DONE"}, 0},
	} {
		p.Ducats = c.ducats
		if got := s.optionWorth(0, engine.Option{Params: c.params}); got != c.want {
			t.Errorf("%s: worth %d, want %d", c.name, got, c.want)
		}
	}
	p.Ducats = 4
	disc := func(cmd string, n int) engine.Option {
		spots := make([]string, n)
		return engine.Option{Cmd: cmd, Group: "disc", Params: map[string]any{"kind": "disc", "spots": spots}}
	}
	tile := func(cmd, t string, price int) engine.Option {
		return engine.Option{Cmd: cmd, Group: "resource", Params: res([]string{t}, []int{price})}
	}
	opts := []engine.Option{tile("GO 2", "HO1", 1), disc("GO 3", 1), tile("GO 4", "WA5", 5),
		tile("GO 5", "BA6", 9), disc("GO 6", 3), tile("GO 7", "YE3", 3), disc("GO 8", 1),
		{Cmd: "GO HOME", Group: "home", Params: map[string]any{"kind": "home"}}}
	s.bestKnownFirst(0, opts)
	var got []string
	for _, o := range opts {
		got = append(got, o.Cmd)
	}
	want := "GO 4,GO 7,GO 2,GO 5,GO 6,GO 3,GO 8,GO HOME"
	if strings.Join(got, ",") != want {
		t.Errorf("order %v, want %s", got, want)
	}
}
