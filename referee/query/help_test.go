package query

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/cmdtable"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/templates"
)

// TestHelpEveryGameLanguageTopic: a seat's HELP alone lists every seat
// row of the referee's table in the reader's language; HELP <keyword>
// written as an alias of any of our languages answers what HELP of the
// keyword itself answers, in the reader's language (AIUTO PIAZZA is HELP
// PLACE, issue 12.7); a topic nobody documents gets the info.no_help
// note. For every game, every language and every aliased keyword.
func TestHelpEveryGameLanguageTopic(t *testing.T) {
	rn, err := tell.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	aliased := 0
	for _, eg := range engine.Games() {
		game := eg.Info().Name
		for _, lang := range templates.Languages {
			rd := tell.Reader{Game: game, Lang: lang, Seat: 0, Seats: []string{"Ann", "Bob"}}
			all := Help(rn, rd, "")
			rows, err := cmdtable.HelpRows(rn, rd, cmdtable.Seat, "", nil)
			if err != nil || len(rows) == 0 {
				t.Fatalf("%s %s: rows %v, %v", game, lang, rows, err)
			}
			for _, r := range rows {
				if !strings.Contains(all, strings.TrimSpace(r)) {
					t.Errorf("%s %s: HELP lacks the row %q", game, lang, r)
				}
			}
			none, err := rn.T.Render("referee", lang, "info.no_help", rn.Ctx(rd, map[string]any{"topic": "ZZQX"}))
			if err != nil {
				t.Fatal(err)
			}
			if got := Help(rn, rd, "ZZQX"); got != none {
				t.Errorf("%s %s: HELP of an unknown topic: %q, want %q", game, lang, got, none)
			}
			for _, other := range templates.Languages {
				for alias, kw := range rn.T.Aliases(game, other) {
					if alias == kw || !rn.T.Has(game, lang, "help."+kw) || rn.T.Alias(game, lang, alias) != alias && rn.T.Alias(game, lang, alias) != kw {
						continue // not documented, or a word of the reader's language for another keyword
					}
					aliased++
					want := Help(rn, rd, kw)
					if want == none {
						t.Errorf("%s %s: HELP %s not answered", game, lang, kw)
					}
					if got := Help(rn, rd, alias); got != want {
						t.Errorf("%s %s: HELP %s (%s's %s): %q, want %q", game, lang, alias, other, kw, got, want)
					}
				}
			}
		}
	}
	if aliased == 0 {
		t.Fatal("no aliased keyword with help: the test checks nothing")
	}
}
