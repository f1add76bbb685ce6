package boards

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters"
	"github.com/pbem-referee/referee/templates"
)

// TestBrewCraftersBoardNamesRecipes_Issue22: the recipes a brewery has
// brewed, its Gold Labels and its revealed Secret Recipes are named on
// the board in the reader's language, never by their code (issue 22:
// "no internal code ever reaches a player"). Positions of whole bot
// games, every variant, every language; a recipe code counts only where
// it is not part of the language's own name of a recipe (Hop Harvest IPA).
func TestBrewCraftersBoardNamesRecipes_Issue22(t *testing.T) {
	g, err := engine.Lookup("brewcrafters")
	if err != nil {
		t.Fatal(err)
	}
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile(`<text[^>]*>([^<]*)</text>`)
	brewedSeen := 0
	for _, v := range g.Info().Variants {
		seats := []string{"Ann", "Bob", "Cleo"}
		if !g.Info().Allows(v.Name, len(seats)) {
			continue
		}
		var bots []engine.Bot
		for range seats {
			b, err := g.(engine.BotMaker).NewBot("random")
			if err != nil {
				t.Fatal(err)
			}
			bots = append(bots, b)
		}
		for _, moves := range []int{150, 300, 0} {
			st, _, _ := engine.PlayOut(g, engine.Config{Seats: seats, Seed: "recipes-" + v.Name, Variant: v.Name},
				bots, rand.New(rand.NewPCG(7, 7)), false, moves)
			if st == nil {
				t.Fatalf("%s: no position", v.Name)
			}
			view, ok := st.View(-1).(*brewcrafters.View)
			if !ok {
				t.Fatalf("%s: view %T", v.Name, st.View(-1))
			}
			var codes []string
			for _, p := range view.Players {
				codes = append(codes, p.Brewed...)
				codes = append(codes, p.Labels...)
				codes = append(codes, p.Secrets...)
				brewedSeen += len(p.Brewed)
			}
			for _, lang := range templates.Languages {
				svg, err := Draw("brewcrafters", lang, seats, view)
				if err != nil {
					t.Fatal(err)
				}
				var words []string
				for _, m := range text.FindAllStringSubmatch(string(svg), -1) {
					words = append(words, m[1])
				}
				all := strings.Join(words, " ")
				for _, code := range codes {
					c, ok := bcCards()["recipe:"+code]
					if !ok {
						t.Fatalf("recipe %q has no card", code)
					}
					name, err := set.Render("brewcrafters", lang, "card.name", templates.Ctx{Lang: lang, Game: "brewcrafters", Seat: -1, Data: c})
					if err != nil {
						t.Fatal(err)
					}
					if !strings.Contains(all, name) {
						t.Errorf("%s %s after %d moves: recipe %s is not named %q on the board", v.Name, lang, moves, code, name)
					}
					whole := regexp.MustCompile(`(^|[^\pL\pN_])` + regexp.QuoteMeta(code) + `($|[^\pL\pN_])`)
					if whole.MatchString(strings.ReplaceAll(all, name, "")) {
						t.Errorf("%s %s after %d moves: the board shows the recipe code %s", v.Name, lang, moves, code)
					}
				}
			}
		}
	}
	if brewedSeen == 0 {
		t.Fatal("no position had a brewed recipe: the test proves nothing")
	}
}
