package referee

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/templates"
)

// allCommands is every row of the command table.
func allCommands() []*command {
	var out []*command
	for _, fam := range commandTable() {
		for i := range fam.rows {
			out = append(out, &fam.rows[i])
		}
	}
	return out
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
	rn, err := NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	set := rn.T
	if got := strings.Join(templates.Languages, ","); got != "en,it,fr,nl" {
		t.Fatalf("languages %s", got)
	}
	for _, c := range allCommands() {
		if c.HelpTemplate() == "" {
			t.Errorf("%s (%s, %s): no help", c.Keyword, c.Who, c.family)
		}
		n := 0
		seat := c.door != nil && c.door.Seat != nil
		player := c.door != nil && c.door.Player != nil
		if (seat || player) && (c.Who == bySeat) != seat {
			t.Errorf("%s (%s): a door row of the wrong audience", c.Keyword, c.Who)
		}
		for _, set := range []bool{seat, player, c.org != nil, c.anyone != nil} {
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
			rd := Reader{Game: "referee", Lang: lang, Seat: -1}
			text, err := set.Render("referee", lang, c.HelpTemplate(), rn.ctx(rd, map[string]any{"games": []string{"toy"}}))
			if err != nil {
				t.Errorf("%s (%s) %s: %v", c.Keyword, c.Who, lang, err)
				continue
			}
			word := set.Word("referee", lang, c.Keyword)
			if c.Who == byPlayer && c.Keyword == "HELP" {
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
		who    audience
		family string
	}{{bySeat, ""}, {byOrganiser, famOrgGames}, {byOrganiser, famOrgTournaments}} {
		for i, c := range listed(l.who, l.family) {
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
	f, err := os.Open(filepath.Join("..", "templates", scope, lang, "aliases.txt"))
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
// (refereeCommands, playerCommands, ...) are the table's.
func TestCommandTableRoutes(t *testing.T) {
	rn, err := NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	set := rn.T
	kws := map[audience]map[string]bool{bySeat: refereeCommands, byPlayer: playerCommands}
	for _, c := range allCommands() {
		rows := lookupCommands(c.Who, c.Keyword)
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
		if c.Aliased && !orgTourKeywords[c.Keyword] {
			t.Errorf("%s: aliased but not among orgTourKeywords", c.Keyword)
		}
		if c.Once && !infoCommands[c.Keyword] {
			t.Errorf("%s: answered once but not among infoCommands", c.Keyword)
		}
	}
	routed := 0
	for _, lang := range templates.Languages {
		for _, scope := range []string{"common", "referee"} {
			for word, kw := range readAliases(t, scope, lang) {
				var who []audience
				for _, a := range []audience{bySeat, byPlayer, byOrganiser, byAnyone} {
					if len(lookupCommands(a, kw)) > 0 {
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
					case bySeat:
						// As a seat writes it: normalise tries the
						// player's language, then every other.
						if !refereeCommands[set.Alias("toy", lang, word)] {
							t.Errorf("%s %s: a seat's %s does not route", scope, lang, word)
						}
					case byPlayer:
						if !playerCommands[set.Alias("referee", lang, word)] {
							t.Errorf("%s %s: a player's %s does not route", scope, lang, word)
						}
					case byAnyone:
						if len(lookupCommands(byAnyone, set.Alias("referee", lang, word))) == 0 {
							t.Errorf("%s %s: an untagged %s does not route", scope, lang, word)
						}
					case byOrganiser:
						if c := lookupCommands(byOrganiser, kw); c[0].Aliased && !orgTourKeywords[kw] {
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

// TestCommandTableOrganiserRoutes: every organiser keyword reaches its
// handler through a real organiser mail (none is answered as unknown), and
// the unknown-command answer lists every keyword of the table.
func TestCommandTableOrganiserRoutes(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", "ann@p.test", "bob@p.test")
	h.mails()
	var kws []string
	for kw := range byAudience[byOrganiser] {
		kws = append(kws, kw)
	}
	sort.Strings(kws)
	for _, kw := range kws {
		if kw == "RULESET" || kw == "ERRATUM" || kw == "ABORT" || kw == "KICK" {
			continue // they end the script or the game: below
		}
		h.org(kw + " g1")
		res := orgResults(t, h)
		lacks(t, res, "unknown organiser command")
	}
	h.org("NEW toy id=g2\nPLAYER cat@p.test Cat\nRULESET\n")
	lacks(t, orgResults(t, h), "unknown organiser command")
	h.org("KICK g1 bob\nABORT g1")
	res := orgResults(t, h)
	lacks(t, res, "unknown organiser command")
	contains(t, res, "KICK g1:", "ABORT g1: aborted")
	h.org("ERRATUM g1")
	lacks(t, orgResults(t, h), "unknown organiser command")
	h.org("FROBNICATE g1")
	res = orgResults(t, h)
	for _, c := range allCommands() {
		if c.Who == byOrganiser {
			contains(t, res, c.Keyword)
		}
	}
}

// TestCommandTablePlayerHelp: the help a player gets at their own address
// names every command of the player family, in every language.
func TestCommandTablePlayerHelp(t *testing.T) {
	rn, err := NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range templates.Languages {
		rd := Reader{Game: "referee", Lang: lang, Seat: -1}
		text, err := rn.T.Render("referee", lang, "help.player", rn.ctx(rd, nil))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range playerFamily {
			if c.Keyword == "HELP" || c.Who != byPlayer {
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

// TestCommandTableSeatRoutes: every seat command of the table, written as
// a player of each language writes it (the language's word for it), is
// the referee's in a real game's thread: the mail is answered, never
// passed to the game's engine (which would refuse an unknown order).
func TestCommandTableSeatRoutes(t *testing.T) {
	n := 0
	for _, lang := range templates.Languages {
		h := newHarness(t) // a harness a language: the organiser's mails have a budget
		set := h.r.render.T
		for kw, rows := range byAudience[bySeat] {
			if rows[0].Overridable {
				continue // a game may declare it itself
			}
			n++
			id := fmt.Sprintf("r%d", n)
			h.newToyGame(id, "ann@p.test", "bob@p.test")
			h.mails()
			word := set.Word("referee", lang, kw)
			out := h.send(id, "ann@p.test", word, -1)
			if (out.Status != "answered" && out.Status != "applied") || strings.Contains(out.Detail, "refused") {
				t.Errorf("%s %s (%s): %+v", lang, word, kw, out)
			}
		}
	}
	if n < 4*15 {
		t.Errorf("only %d seat commands tried", n)
	}
}

// TestSeatCommandsAllOrNoneEveryLanguage_Issue25: a seat's command whose
// arguments do not read whole changes nothing of the seat, and is answered
// with the usage error of its row (referee/commands), in the seat's
// language, whichever of the language's keywords it is written with; a
// good one changes the setting. Languages x keyword words x argument forms.
func TestSeatCommandsAllOrNoneEveryLanguage_Issue25(t *testing.T) {
	bad := map[string][]string{
		"NOTIFY":   {"", " sometimes", " every turn"},
		"LANG":     {"", " de", " en it"},
		"FORMAT":   {"", " xml", " text json"},
		"VACATION": {"", " 2026-04-01", " 2026-04-05 2026-04-01", " 01/04/2026 02/04/2026"},
	}
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, lang := range templates.Languages {
		words := map[string][]string{}
		for kw := range bad {
			words[kw] = []string{kw}
		}
		for _, scope := range []string{"common", "referee"} {
			for word, kw := range readAliases(t, scope, lang) {
				if _, ok := bad[kw]; ok && word != kw {
					words[kw] = append(words[kw], word)
				}
			}
		}
		h := newHarness(t)
		h.org("NEW toy id=g1 rounds=2 deadline=24h,misses=2,vacation=3\nPLAYER " + ann + " Ann " + lang + "\nPLAYER " + bob + " Bob " + lang)
		h.send("g1", ann, "JOIN", -1)
		h.send("g1", bob, "JOIN", -1)
		h.mails()
		for kw, forms := range bad {
			row := lookupCommands(bySeat, kw)[0]
			want, err := h.r.render.T.Render("referee", lang, "error.usage",
				h.r.render.ctx(Reader{Game: "toy", Lang: lang, Seat: 0}, map[string]any{"Params": map[string]any{"usage": row.Usage}}))
			if err != nil {
				t.Fatal(err)
			}
			for _, word := range words[kw] {
				for _, form := range forms {
					before := h.game("g1").Seats[0]
					h.send("g1", ann, word+form, -1)
					m := h.mailTo(h.mails(), ann)
					after := h.game("g1").Seats[0]
					if after.Notify != before.Notify || after.Lang != before.Lang || after.Format != before.Format ||
						len(after.Vacation) != len(before.Vacation) || after.Receipts != before.Receipts {
						t.Errorf("%s %q changed the seat", lang, word+form)
					}
					if !strings.Contains(flat(m.Body), flat(want)) {
						t.Errorf("%s %q: the answer lacks the row's usage %q:\n%s", lang, word+form, want, m.Body)
					}
				}
			}
		}
		for _, word := range words["FORMAT"] {
			h.send("g1", ann, word+" JSON", -1)
			h.mails()
			if f := h.game("g1").Seats[0].Format; f != "json" {
				t.Errorf("%s %q: format %q", lang, word+" JSON", f)
			}
			h.send("g1", ann, word+" text", -1)
			h.mails()
		}
	}
}
