package templates

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"text/template"
	"text/template/parse"

	"github.com/pbem-referee/referee/engine"
	_ "github.com/pbem-referee/referee/engine/brewcrafters"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	"github.com/pbem-referee/referee/engine/heavenale"
)

// summaryValueData are the sub-templates of the summaries whose data is
// values, never the Ctx or the view (issue 25: data holding a Ctx or a
// view is rendered every time, so each was rendered once a player a
// mail): Dice Brewing's board (its blocked buildings, which name seats,
// written by the caller), Heaven & Ale's boards (the seat's name, the
// leader line rendered by the caller), the holders of its start spaces
// and barrels and its final scores, its track, start area, piles and
// barrels taken (ha.public), Brew Crafters' projected score and
// portions (the players' names as a list).
var summaryValueData = map[string][]string{
	"dicebrewing":  {"db.board"},
	"heavenale":    {"ha.board", "ha.nboard", "ha.holder", "ha.final", "ha.nfinal", "ha.public"},
	"brewcrafters": {"bc.score", "bc.portions"},
}

// TestSummariesGiveValues_Issue25 plays a game of each of Dice Brewing,
// Heaven & Ale and Brew Crafters with random moves to its end and renders
// every seat's summary (full and compact, wide and narrow, the languages
// in turn) after every fourth move (sixteenth under -race) and at the
// end, twice (renderKeptOnly): each template of summaryValueData is
// kept, and every call of one is served kept the second time, its data a
// key (kept.go), never a Ctx or a view. A call given the Ctx or the view
// again ("C" $c, "V" .Data.View) fails it.
func TestSummariesGiveValues_Issue25(t *testing.T) {
	s, err := LoadFS(Files())
	if err != nil {
		t.Fatal(err)
	}
	// A template made to fail (index of nil): run in place of one of
	// summaryValueData, it fails the render.
	fail, err := template.New("fail").Parse(`{{index nil 1}}`)
	if err != nil {
		t.Fatal(err)
	}
	keyed := map[string]int{}
	names := []string{"Zed", "Yu", "Zed", "Xi"}
	for gi, game := range []string{"dicebrewing", "heavenale", "brewcrafters"} {
		g, err := engine.Lookup(game)
		if err != nil {
			t.Fatal(err)
		}
		clear(keyed)
		n := 3 + gi%2
		cfg := engine.Config{Seats: []string{"ann", "bob", "cat", "dan"}[:n], Seed: fmt.Sprintf("values-%d", gi),
			Options: map[string]string{}}
		if game == "dicebrewing" {
			// Short, with BLOCKB played in the brewing phase.
			cfg.Options["round_limit"] = "4"
			cfg.Options["block_building_timing"] = "brewing"
		}
		st, _, err := g.NewState(cfg)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(gi), 25))
		li := 0
		// Every fourth position (every sixteenth under the race
		// detector, several times slower), and the last.
		every := 4
		if raceEnabled {
			every = 16
		}
		for moves := 0; moves < 5000; moves++ {
			pend := st.Pending()
			over := st.Result() != nil || len(pend) == 0
			for seat := range n {
				if moves%every != 0 && !over {
					break
				}
				views := []any{st.View(seat)}
				if hv, ok := views[0].(heavenale.View); ok {
					hv.Narrow = !hv.Narrow
					views = append(views, hv)
				}
				for _, v := range views {
					for _, compact := range []bool{false, true} {
						lang := s.Languages()[li%len(s.Languages())]
						li++
						c := Ctx{Lang: lang, Game: game, Seat: seat, Seats: names[:n], Data: v, Compact: compact}
						renderKeptOnly(t, s, c, summaryValueData[game], fail.Tree.Root, keyed)
					}
				}
			}
			if over {
				break
			}
			playRandom(t, st, pend, rng)
		}
		if st.Result() == nil {
			t.Errorf("%s: the game did not end: the final scores were not rendered", game)
		}
		for _, name := range summaryValueData[game] {
			if keyed[name] == 0 {
				t.Errorf("%s: %s never called: the test checks nothing", game, name)
			}
		}
		t.Logf("%s: texts kept of %v: %v", game, summaryValueData[game], keyed)
	}
}

// renderKeptOnly renders c's summary twice, the kept texts emptied
// before: the second time with each template of names made to fail
// (its tree's root replaced by failRoot, then put back). A call with a
// value as its data finds the first time's text kept and runs nothing; a
// call with a Ctx or a view (never kept) runs it and fails the render. A
// call inside a kept text is not made again, and needs no check: its data
// can only be made of the kept call's data, values. The texts the first
// render kept of each of names are counted into keyed.
func renderKeptOnly(t *testing.T, s *Set, c Ctx, names []string, failRoot *parse.ListNode, keyed map[string]int) {
	t.Helper()
	for i := range s.kept.shards {
		s.kept.shards[i].m = nil
	}
	want, err := s.Render(c.Game, c.Lang, "summary", c)
	if err != nil {
		t.Fatalf("%s: %v", c.Game, err)
	}
	for i := range s.kept.shards {
		for k := range s.kept.shards[i].m {
			if slices.Contains(names, k.t.Name()) {
				keyed[k.t.Name()]++
			}
		}
	}
	var trees []*parse.Tree
	var roots []*parse.ListNode
	for _, name := range names {
		if d := s.lookup(c.Game, c.Lang, name); d != nil && d.Tree != nil {
			trees, roots = append(trees, d.Tree), append(roots, d.Tree.Root)
			d.Tree.Root = failRoot
		}
	}
	got, err := s.Render(c.Game, c.Lang, "summary", c)
	for i, tr := range trees {
		tr.Root = roots[i]
	}
	if err != nil || got != want {
		t.Fatalf("%s/%s seat %d compact %v: a template of %v ran again, given data that is not a value (a Ctx or a view?): %v",
			c.Game, c.Lang, c.Seat, c.Compact, names, err)
	}
}

// TestHeavenAleBoardsKeptByWhatTheyShow_Issue25: Heaven & Ale's boards
// (ha.board, ha.nboard) are given the values they show
// (heavenale.PlayerView.Board), not the whole PlayerView: a summary of a
// view whose players differ only in what no board shows (the raw garden,
// the disc spots, the turns counted, the figure's place, the standing
// orders) finds every board's text kept, in every language, wide and
// narrow, and reads as the summary rendered afresh. Given the whole
// PlayerView, every board is rendered again.
func TestHeavenAleBoardsKeptByWhatTheyShow_Issue25(t *testing.T) {
	s, err := LoadFS(Files())
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := LoadUnkept()
	if err != nil {
		t.Fatal(err)
	}
	// A template made to fail, run in place of the boards on the second
	// summary: a board not found kept fails the render.
	fail, err := template.New("fail").Parse(`{{index nil 1}}`)
	if err != nil {
		t.Fatal(err)
	}
	boardNames := []string{"ha.board", "ha.nboard"}
	g, err := engine.Lookup("heavenale")
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := g.NewState(engine.Config{Seats: []string{"ann", "bob", "cat"}, Seed: "boards"})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 25))
	checked := 0
	for moves := 0; moves < 400 && st.Result() == nil; moves++ {
		pend := st.Pending()
		if len(pend) == 0 {
			break
		}
		if moves%20 == 0 {
			for seat := range 3 {
				v := st.View(seat).(heavenale.View)
				for _, narrow := range []bool{false, true} {
					v.Narrow = narrow
					w := v
					w.Players = slices.Clone(v.Players)
					for i := range w.Players {
						p := &w.Players[i]
						p.Player.Garden = append(slices.Clone(p.Player.Garden), "x")
						p.Spots[0] = !p.Spots[0]
						p.Turns += 7
						p.Pos += 3
						p.PrefHome = append(p.PrefHome, "CASH")
					}
					for _, lang := range s.Languages() {
						c := Ctx{Lang: lang, Game: "heavenale", Seat: seat, Seats: []string{"Ann", "Bob", "Cat"}, Data: v}
						if _, err := s.Render("heavenale", lang, "summary", c); err != nil {
							t.Fatal(err)
						}
						kept := 0
						for i := range s.kept.shards {
							for k := range s.kept.shards[i].m {
								if slices.Contains(boardNames, k.t.Name()) {
									kept++
								}
							}
						}
						if kept == 0 {
							t.Fatalf("seat %d %s narrow %v: no board kept: the test checks nothing", seat, lang, narrow)
						}
						c.Data = w
						want, err := fresh.Render("heavenale", lang, "summary", c)
						if err != nil {
							t.Fatal(err)
						}
						// Every board of w's summary must be found kept by
						// v's: the boards run as the failing template.
						var trees []*parse.Tree
						var roots []*parse.ListNode
						for _, name := range boardNames {
							if d := s.lookup("heavenale", lang, name); d != nil && d.Tree != nil {
								trees, roots = append(trees, d.Tree), append(roots, d.Tree.Root)
								d.Tree.Root = fail.Tree.Root
							}
						}
						got, err := s.Render("heavenale", lang, "summary", c)
						for i, tr := range trees {
							tr.Root = roots[i]
						}
						if err != nil {
							t.Fatalf("seat %d %s narrow %v: a board rendered again: keyed by what it does not show: %v", seat, lang, narrow, err)
						}
						if got != want {
							t.Fatalf("seat %d %s narrow %v: the summary differs from the one rendered afresh:\n%s\n--- afresh:\n%s", seat, lang, narrow, got, want)
						}
						checked++
					}
				}
			}
		}
		playRandom(t, st, pend, rng)
	}
	if checked < 100 {
		t.Fatalf("%d summaries checked", checked)
	}
}

// playRandom plays a random legal answer to one of the pending decisions.
func playRandom(t *testing.T, st engine.State, pend []engine.Decision, rng *rand.Rand) {
	t.Helper()
	d := pend[rng.IntN(len(pend))]
	opts := st.Legal(d)
	m, err := st.Parse(d.Seat, opts[rng.IntN(len(opts))].Cmd)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Apply(d.Seat, m); err != nil {
		t.Fatal(err)
	}
}
