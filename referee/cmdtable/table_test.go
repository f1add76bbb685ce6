package cmdtable

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/templates"
)

func init() {
	// The contract's test games: the keyword tests read their commands.
	enginetest.RegisterToy()
	enginetest.RegisterClaim()
}

// definedIn reports whether name is defined in scope/lang itself (no
// fallback to English: a missing translation is a failure).
func definedIn(set *templates.Set, scope, lang, name string) bool {
	for _, n := range set.Defined(scope, lang) {
		if n == name {
			return true
		}
	}
	return false
}

// TestCommandTableHelpEveryLanguage: every command of the table has its
// help, its row in the help list and its error templates in en, it, fr and
// nl, and the help names the command (by its keyword or the language's
// word for it).
func TestCommandTableHelpEveryLanguage(t *testing.T) {
	rn, err := tell.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	set := rn.T
	if got := strings.Join(templates.Languages, ","); got != "en,it,fr,nl" {
		t.Fatalf("languages %s", got)
	}
	for _, c := range All() {
		if c.HelpTemplate() == "" {
			t.Errorf("%s (%s, %s): no help", c.Keyword, c.Who, c.Family)
		}
		n := 0
		seat := c.Door != nil && c.Door.Seat != nil
		player := c.Door != nil && c.Door.Player != nil
		if (seat || player) && (c.Who == Seat) != seat {
			t.Errorf("%s (%s): a door row of the wrong Audience", c.Keyword, c.Who)
		}
		for _, set := range []bool{seat, player, c.Org != nil, c.Untagged} {
			if set {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s (%s): %d handlers, want one", c.Keyword, c.Who, n)
		}
		for _, lang := range templates.Languages {
			for _, name := range []string{c.HelpTemplate(), c.ListRow()} {
				if name != "" && !definedIn(set, "referee", lang, name) {
					t.Errorf("%s (%s): %s not defined in referee/%s", c.Keyword, c.Who, name, lang)
				}
			}
			for _, code := range c.Errors {
				if !definedIn(set, "referee", lang, "error."+code) && !definedIn(set, "tournament", lang, "error."+code) {
					t.Errorf("%s (%s): error.%s not defined in %s", c.Keyword, c.Who, code, lang)
				}
			}
			// The help names the command.
			rd := tell.Reader{Game: "referee", Lang: lang, Seat: -1}
			text, err := set.Render("referee", lang, c.HelpTemplate(), rn.Ctx(rd, map[string]any{"games": []string{"toy"}}))
			if err != nil {
				t.Errorf("%s (%s) %s: %v", c.Keyword, c.Who, lang, err)
				continue
			}
			word := set.Word("referee", lang, c.Keyword)
			if c.Who == Player && c.Keyword == "HELP" {
				continue // a player's HELP is answered with that help itself
			}
			if !strings.Contains(text, c.Keyword) && !strings.Contains(text, word) {
				t.Errorf("%s (%s) %s: the help does not name it (%q):\n%s", c.Keyword, c.Who, lang, word, text)
			}
		}
	}
}

// TestCommandTableRows: the rows of each help list are numbered 1, 2, ...
// without gaps or repeats, so every listed command appears once.
func TestCommandTableRows(t *testing.T) {
	for _, l := range []struct {
		who    Audience
		family string
	}{{Seat, ""}, {Organiser, FamOrgGames}, {Organiser, FamOrgTournaments}} {
		for i, c := range Listed(l.who, l.family) {
			if c.Row != i+1 {
				t.Errorf("%s %s: row %d is %s (row %d)", l.who, l.family, i+1, c.Keyword, c.Row)
			}
		}
	}
}

// readAliases reads the alias files of a scope and language: word ->
// keyword.
func readAliases(t *testing.T, scope, lang string) map[string]string {
	t.Helper()
	out := map[string]string{}
	f, err := os.Open(filepath.Join("..", "..", "templates", scope, lang, "aliases.txt"))
	if os.IsNotExist(err) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		word, kw, ok := strings.Cut(line, "=")
		if ok {
			out[strings.ToUpper(strings.TrimSpace(word))] = strings.ToUpper(strings.TrimSpace(kw))
		}
	}
	return out
}

// TestCommandTableRoutes: every keyword of the table, and every word of
// every language that is an alias of one, reaches the table's row through
// the lookup the dispatchers use; the keyword sets the mail reader uses
// (SeatKeywords, PlayerKeywords, ...) are the table's.
func TestCommandTableRoutes(t *testing.T) {
	rn, err := tell.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	set := rn.T
	kws := map[Audience]map[string]bool{Seat: SeatKeywords, Player: PlayerKeywords}
	for _, c := range All() {
		rows := Lookup(c.Who, c.Keyword)
		found := false
		for _, r := range rows {
			found = found || r == c
		}
		if !found {
			t.Errorf("%s (%s): the lookup does not reach its row", c.Keyword, c.Who)
		}
		if set, ok := kws[c.Who]; ok && !set[c.Keyword] {
			t.Errorf("%s (%s): not among the keywords the mail reader knows", c.Keyword, c.Who)
		}
		if c.Aliased && !OrgTourKeywords[c.Keyword] {
			t.Errorf("%s: aliased but not among OrgTourKeywords", c.Keyword)
		}
		if c.Once && !InfoKeywords[c.Keyword] {
			t.Errorf("%s: answered once but not among InfoKeywords", c.Keyword)
		}
	}
	routed := 0
	for _, lang := range templates.Languages {
		for _, scope := range []string{"common", "referee"} {
			for word, kw := range readAliases(t, scope, lang) {
				var who []Audience
				for _, a := range []Audience{Seat, Player, Organiser, Anyone} {
					if len(Lookup(a, kw)) > 0 {
						who = append(who, a)
					}
				}
				if len(who) == 0 {
					continue // a game's command (PASS, DONE): the engine's
				}
				if got := set.Alias("referee", lang, word); got != kw {
					t.Errorf("%s %s: %s reads as %s, not %s", scope, lang, word, got, kw)
				}
				for _, a := range who {
					switch a {
					case Seat:
						// As a seat writes it: normalise tries the
						// player's language, then every other.
						if !SeatKeywords[set.Alias("toy", lang, word)] {
							t.Errorf("%s %s: a seat's %s does not route", scope, lang, word)
						}
					case Player:
						if !PlayerKeywords[set.Alias("referee", lang, word)] {
							t.Errorf("%s %s: a player's %s does not route", scope, lang, word)
						}
					case Anyone:
						if len(Lookup(Anyone, set.Alias("referee", lang, word))) == 0 {
							t.Errorf("%s %s: an untagged %s does not route", scope, lang, word)
						}
					case Organiser:
						if c := Lookup(Organiser, kw); c[0].Aliased && !OrgTourKeywords[kw] {
							t.Errorf("%s %s: an organiser's %s does not route", scope, lang, word)
						}
					}
				}
				routed++
			}
		}
	}
	if routed < 50 {
		t.Errorf("only %d aliases of the referee's commands checked", routed)
	}
}

// TestCommandTablePlayerHelp: the help a player gets at their own address
// names every command of the player family, in every language.
func TestCommandTablePlayerHelp(t *testing.T) {
	rn, err := tell.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range templates.Languages {
		rd := tell.Reader{Game: "referee", Lang: lang, Seat: -1}
		text, err := rn.T.Render("referee", lang, "help.player", rn.Ctx(rd, nil))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range Listed(Player, "") {
			if c.Keyword == "HELP" || c.Who != Player {
				continue // the help itself; the plain address's REGISTER has its own
			}
			names := []string{c.Keyword}
			for word, kw := range readAliases(t, "referee", lang) {
				if kw == c.Keyword {
					names = append(names, word)
				}
			}
			for word, kw := range readAliases(t, "common", lang) {
				if kw == c.Keyword {
					names = append(names, word)
				}
			}
			ok := false
			for _, n := range names {
				ok = ok || strings.Contains(text, n)
			}
			if !ok {
				t.Errorf("%s help.player does not name %s (%v):\n%s", lang, c.Keyword, names, text)
			}
		}
	}
}

// The referee's keyword test knows its own commands, the games' commands
// and every alias in every language, and nothing else; without templates,
// only the keywords themselves.
func TestIsKeyword(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	for w, want := range map[string]bool{
		"JOIN": true, "LANG": true, "LINGUA": true, "TAAL": true, "LANGUE": true, "CLAIM": true, "PASS": true,
		"NEXT": true, "OR": true, "END": true, "CIAO": false, "GRAZIE": false, "THANKS": false, "HELLO": false,
	} {
		if got := IsKeyword(set, w); got != want {
			t.Errorf("IsKeyword(%q) = %v, want %v", w, got, want)
		}
	}
	for w, want := range map[string]bool{"JOIN": true, "CLAIM": true, "LINGUA": false, "TAAL": false} {
		if got := IsKeyword(nil, w); got != want {
			t.Errorf("IsKeyword(nil, %q) = %v, want %v", w, got, want)
		}
	}
}
