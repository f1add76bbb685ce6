package cmdtable

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/templates"
)

// Rule (issue 11, item 5: a line that looks like a command is never
// prose): a word is known in a game's mail when it is a seat's keyword, a
// command of the game (any case), or an alias of either in any language;
// anything else is not, nor is a game's command in another game's mail.
// Generated: every alias of the referee's and of the real games' scopes
// in every language x with and without the game x the seat's keywords.
func TestKnownIn(t *testing.T) {
	rn, err := tell.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, g := range engine.Games() {
		name := g.Info().Name
		for _, lang := range templates.Languages {
			for alias := range rn.T.Aliases(name, lang) {
				checked++
				if !KnownIn(rn.T, g, name, alias) {
					t.Errorf("%s/%s: alias %q is not known", name, lang, alias)
				}
			}
			for alias := range rn.T.Aliases("referee", lang) {
				checked++
				if !KnownIn(rn.T, nil, "referee", alias) || !KnownIn(rn.T, g, name, alias) {
					t.Errorf("referee/%s: alias %q is not known in %s", lang, alias, name)
				}
			}
		}
		for _, c := range g.Info().Commands {
			if !KnownIn(rn.T, g, name, c) || !KnownIn(nil, g, name, strings.ToLower(c)) {
				t.Errorf("%s: its command %s is not known", name, c)
			}
		}
	}
	for kw := range SeatKeywords {
		if !KnownIn(nil, nil, "referee", kw) {
			t.Errorf("the seat's keyword %s is not known", kw)
		}
	}
	for _, w := range []string{"", "HELLO", "DEAR", "THANKS", "ZZZ"} {
		for _, g := range append(engine.Games(), nil) {
			scope := "referee"
			if g != nil {
				scope = g.Info().Name
			}
			if KnownIn(rn.T, g, scope, w) {
				t.Errorf("%q is known in %s", w, scope)
			}
		}
	}
	toy, err := engine.Lookup("toy")
	if err != nil {
		t.Fatal(err)
	}
	if KnownIn(rn.T, nil, "referee", "AUTOHOLD") || !KnownIn(rn.T, toy, "toy", "AUTOHOLD") {
		t.Errorf("a game's command is known outside its game, or not in it")
	}
	if checked < 20 {
		t.Fatalf("%d aliases checked: the check reads little", checked)
	}
}

// Rule (issue 22): the organiser's help, and the answer to an organiser
// who wrote to the plain address, are in the organiser's language, list
// every row of the organiser's game commands and of the tournaments' in
// the table's order, the games, and the organiser's own address.
// Generated: the languages x both templates x with and without an
// address.
func TestOrgHelp(t *testing.T) {
	rn, err := tell.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, lang := range templates.Languages {
		rd := tell.Reader{Game: "referee", Lang: lang, Seat: -1}
		for _, name := range []string{"org.help", "org.hello"} {
			for _, addr := range []string{"ref+org.s3cr3t@r.test", ""} {
				text, err := OrgHelp(rn, lang, name, addr, []string{"toy", "claimgame"})
				if err != nil {
					t.Fatalf("%s %s: %v", lang, name, err)
				}
				if addr != "" && !strings.Contains(text, addr) {
					t.Errorf("%s %s: the address is not in it:\n%s", lang, name, text)
				}
				if name != "org.help" {
					continue
				}
				seen[lang] = text
				if !strings.Contains(text, "toy") {
					t.Errorf("%s: the games are not in it", lang)
				}
				at := 0
				for _, fam := range []string{FamOrgGames, FamOrgTournaments} {
					rows, err := HelpRows(rn, rd, Organiser, fam, map[string]any{"address": addr, "games": []string{"toy", "claimgame"}})
					if err != nil || len(rows) == 0 {
						t.Fatalf("%s %s: %d rows, %v", lang, fam, len(rows), err)
					}
					for _, r := range rows {
						first, _, _ := strings.Cut(strings.TrimSpace(r), "\n")
						i := strings.Index(text[at:], first)
						if i < 0 {
							t.Fatalf("%s: row %q missing or out of order:\n%s", lang, r, text)
						}
						at += i
					}
				}
			}
		}
	}
	for _, lang := range templates.Languages {
		if lang != "en" && seen[lang] == seen["en"] {
			t.Errorf("%s: the organiser's help is in English", lang)
		}
	}
}
