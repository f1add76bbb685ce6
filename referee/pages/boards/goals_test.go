package boards

import (
	"html"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale"
	"github.com/pbem-referee/referee/templates"
)

// TestHeavenAleBoardSaysEveryGoal_Issue22: the public board's barrel goal
// boxes (G01-G12) are said in words, in the page's language, as the mail
// says them (issue 22, "every option in words"): for every goal, its code,
// its condition (ha.fact, the words of the mail's "Barrels taken") and its
// large and small barrels' holders by name ("-" for none). Positions of 2
// to 4 greedy players at the start, mid-game and the end, in every language;
// the test fails if no position had a barrel taken.
func TestHeavenAleBoardSaysEveryGoal_Issue22(t *testing.T) {
	g, err := engine.Lookup("heavenale")
	if err != nil {
		t.Fatal(err)
	}
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"Ann", "Bob", "Cleo", "Dario"}
	taken := 0
	for n := 2; n <= 4; n++ {
		if !g.Info().Allows("", n) {
			continue
		}
		seats := names[:n]
		var bots []engine.Bot
		for range seats {
			b, err := g.(engine.BotMaker).NewBot("greedy")
			if err != nil {
				t.Fatal(err)
			}
			bots = append(bots, b)
		}
		for _, moves := range []int{0, 120, 100000} {
			st, _, _ := engine.PlayOut(g, engine.Config{Seats: seats, Seed: "goals"}, bots, rand.New(rand.NewPCG(22, uint64(n))), false, moves)
			if st == nil {
				t.Fatalf("%d players: no position after %d moves", n, moves)
			}
			view := st.View(-1)
			v, ok := view.(heavenale.View)
			if !ok {
				t.Fatalf("view %T", view)
			}
			if len(v.Goals) == 0 {
				t.Fatalf("%d players after %d moves: no goals", n, moves)
			}
			for _, lang := range templates.Languages {
				svg, err := Draw("heavenale", lang, seats, view)
				if err != nil {
					t.Fatal(err)
				}
				key := html.UnescapeString(groupText(groupOf(string(svg), "ha-goalkey")))
				for k, gl := range v.Goals {
					fact, err := set.Render("heavenale", lang, "ha.fact", gl.Goal)
					if err != nil || fact == "" {
						t.Fatalf("%s: goal %s has no words: %v", lang, gl.ID, err)
					}
					holder := func(s int) string {
						if s < 0 {
							return "-"
						}
						return seats[s]
					}
					i := strings.Index(key, gl.ID)
					if i < 0 {
						t.Errorf("%d players, %s, after %d moves: the board's key lacks goal %s:\n%s", n, lang, moves, gl.ID, key)
						continue
					}
					line := key[i:]
					if k+1 < len(v.Goals) {
						if j := strings.Index(line, " "+v.Goals[k+1].ID); j >= 0 {
							line = line[:j]
						}
					}
					words := strings.Join(strings.Fields(fact), " ")
					if !strings.Contains(line, words) || !strings.Contains(line, " "+holder(gl.Large)+",") ||
						!strings.HasSuffix(strings.TrimSpace(line), " "+holder(gl.Small)) {
						t.Errorf("%d players, %s, after %d moves: goal %s (%q, large %s, small %s) reads %q", n, lang, moves,
							gl.ID, words, holder(gl.Large), holder(gl.Small), line)
					}
					if gl.Large >= 0 {
						taken++
					}
				}
			}
		}
	}
	if taken == 0 {
		t.Fatal("no position had a barrel taken: the test proves nothing")
	}
}

// groupOf is the first SVG group of the class, with what it holds.
func groupOf(svg, class string) string {
	i := strings.Index(svg, `<g class="`+class+`"`)
	if i < 0 {
		return ""
	}
	end := strings.Index(svg[i:], "</g>")
	if end < 0 {
		return svg[i:]
	}
	return svg[i : i+end]
}
