package query

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	_ "github.com/pbem-referee/referee/engine/brewcrafters"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	_ "github.com/pbem-referee/referee/engine/fromage"
	_ "github.com/pbem-referee/referee/engine/heavenale"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/templates"
)

// Issue 22, HELP for everything a mail shows: for every game that lists
// its cards, every card is found by its id, its code and its name in each
// of our languages, and answered with the game's card template (its name
// and rule id, within the mail's width); a topic that names no card is
// not answered.
func TestCardHelpEveryCardEveryLanguage(t *testing.T) {
	rn, err := tell.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	games := 0
	for _, eg := range engine.Games() {
		name := eg.Info().Name
		st, _, err := eg.NewState(engine.Config{Seats: []string{"Ann", "Bob"}, Seed: "cards"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cr, ok := st.(engine.Carder)
		if !ok {
			continue
		}
		games++
		cards := cr.Cards()
		for _, lang := range templates.Languages {
			rd := tell.Reader{Game: name, Lang: lang, Seat: 0, Seats: []string{"Ann", "Bob"}}
			if _, ok := CardHelp(rn, rd, st, "NO SUCH CARD AT ALL"); ok {
				t.Errorf("%s %s: a topic naming no card is answered", name, lang)
			}
			for _, c := range cards {
				cname, err := rn.T.Render(name, lang, "card.name", rn.Ctx(rd, c))
				if err != nil || cname == "" {
					t.Fatalf("%s %s %s: no name (%v)", name, lang, c.ID, err)
				}
				for i, topic := range []string{c.ID, c.Code, cname} {
					if topic == "" {
						continue
					}
					// A name may be shared (Malt, the ingredient and the
					// market): the card's id is what names it alone.
					text, ok := CardHelp(rn, rd, st, topic)
					if !ok || i == 0 && !strings.Contains(text, c.Rule) {
						t.Errorf("%s %s: HELP %q: %v %q", name, lang, topic, ok, text)
					}
					for _, l := range strings.Split(text, "\n") {
						if len([]rune(l)) > templates.Width {
							t.Errorf("%s %s: HELP %q: %d columns: %q", name, lang, topic, len([]rune(l)), l)
						}
					}
				}
			}
		}
	}
	if games < 2 {
		t.Fatalf("only %d games list their cards", games)
	}
}

// HELP of a word: every alias of a game's command keyword, in every
// language, reads as the keyword, whatever the reader's language, and has
// help; a word that is none is left as it is and has none.
func TestHelpWordEveryAlias(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, eg := range engine.Games() {
		name := eg.Info().Name
		for _, lang := range templates.Languages {
			for word, kw := range set.Aliases(name, lang) {
				for _, reader := range templates.Languages {
					rd := tell.Reader{Game: name, Lang: reader}
					if got := HelpWord(set, rd, word); got != kw && set.Alias(name, reader, word) == word {
						t.Errorf("%s: a %s reader's HELP %s reads as %s, want %s", name, reader, word, got, kw)
					}
					n++
				}
			}
		}
		for _, lang := range templates.Languages {
			rd := tell.Reader{Game: name, Lang: lang}
			if HelpWord(set, rd, "FROBNICATE") != "FROBNICATE" || HasHelp(set, rd, "FROBNICATE") {
				t.Errorf("%s %s: FROBNICATE has help", name, lang)
			}
			if !HasHelp(set, rd, "STATUS") {
				t.Errorf("%s %s: STATUS has no help", name, lang)
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d aliases tried", n)
	}
}
