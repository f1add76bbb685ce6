package referee

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/referee/cmdtable"
	"github.com/pbem-referee/referee/templates"
)

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

// TestCommandTableOrganiserRoutes: every organiser keyword reaches its
// handler through a real organiser mail (none is answered as unknown), and
// the unknown-command answer lists every keyword of the table.
func TestCommandTableOrganiserRoutes(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", "ann@p.test", "bob@p.test")
	h.mails()
	var kws []string
	for kw := range cmdtable.Keywords(cmdtable.Organiser, nil) {
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
	for _, c := range cmdtable.All() {
		if c.Who == cmdtable.Organiser {
			contains(t, res, c.Keyword)
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
		for kw := range cmdtable.SeatKeywords {
			if cmdtable.OverridableKeywords[kw] {
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
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range templates.Languages {
		words := map[string][]string{}
		for kw := range bad {
			words[kw] = []string{kw}
		}
		for _, scope := range []string{"common", "referee"} {
			for word, kw := range set.Aliases(scope, lang) {
				if _, ok := bad[kw]; ok && word != kw {
					words[kw] = append(words[kw], word)
				}
			}
		}
		if lang != "en" && len(words["NOTIFY"]) < 2 {
			t.Fatalf("%s: no word of the language for NOTIFY among the aliases %v", lang, words)
		}
		h := newHarness(t)
		h.org("NEW toy id=g1 rounds=2 deadline=24h,misses=2,vacation=3\nPLAYER " + ann + " Ann " + lang + "\nPLAYER " + bob + " Bob " + lang)
		h.send("g1", ann, "JOIN", -1)
		h.send("g1", bob, "JOIN", -1)
		h.mails()
		for kw, forms := range bad {
			row := cmdtable.Lookup(cmdtable.Seat, kw)[0]
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

// TestUntaggedRowsHaveHandlers: every command of the table an untagged
// mail may use (cmdtable.Anyone) has its handler in the core (untagged),
// and the core has no handler the table does not route to.
func TestUntaggedRowsHaveHandlers(t *testing.T) {
	n := 0
	for _, c := range cmdtable.All() {
		if c.Who != cmdtable.Anyone {
			continue
		}
		n++
		if !c.Untagged || untagged[c.Keyword] == nil {
			t.Errorf("%s: an untagged mail's command without the core's handler", c.Keyword)
		}
	}
	if n == 0 || n != len(untagged) {
		t.Errorf("%d rows for an untagged mail, %d handlers in the core", n, len(untagged))
	}
}
