package referee

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// optionLine reads "  1) PIAZZA MH1 SEME" (the first column of a menu).
var optionLine = regexp.MustCompile(`^\s+1\) (.+?)(\s{2,}\d+\) .*)?$`)

// firstOption returns the text of option 1 of the mail's menu.
func firstOption(t *testing.T, body string) string {
	t.Helper()
	for _, l := range strings.Split(body, "\n") {
		if m := optionLine.FindStringSubmatch(l); m != nil {
			return strings.TrimSpace(m[1])
		}
	}
	t.Fatalf("no menu:\n%s", body)
	return ""
}

// Issue 12.7: argument words in the reader's language. The menu and the
// examples of a prompt show them as the reader writes them (PIAZZA MH1
// SEME, PLACER MH1 GRAINE, PLAATS MH1 ZAADJE; PRENDI struttura bestiame),
// and such a line sent back as shown is played; English is still accepted;
// NOTIFY's argument too (NOTIFICHE ogni).
func TestArgumentsInTheReadersLanguage(t *testing.T) {
	seedWord := map[string]string{"it": "SEME", "fr": "GRAINE", "nl": "ZAADJE"}
	every := map[string]string{"it": "NOTIFICHE ogni", "fr": "NOTIFIER chaque", "nl": "MELDINGEN elke"}
	for _, l := range []string{"it", "fr", "nl"} {
		h := newHarness(t)
		h.org("NEW dicebrewing id=d1 seed=fs1 deadline=48h\nPLAYER ann@example.test Ann " + l + "\nPLAYER bob@example.test Bob " + l)
		h.send("d1", ann, "JOIN", -1)
		h.send("d1", bob, "JOIN", -1)
		ms := h.mails()
		first := placeTurn(t, h, "d1")
		var body string
		for _, m := range ms {
			if m.To == first {
				body = m.Body // the last one: the prompt
			}
		}
		opt := firstOption(t, body)
		if !strings.Contains(opt, seedWord[l]) || strings.Contains(body, " SEED") {
			t.Errorf("%s: the menu and examples do not use %s:\n%s", l, seedWord[l], body)
		}
		before := h.table("d1").Token()
		out := h.send("d1", first, opt, -1)
		if out.Status != "applied" || h.table("d1").Token() == before {
			t.Errorf("%s: %q as shown was not played: %+v\n%s", l, opt, out, h.mailTo(h.mails(), first).Body)
		}
		h.mails()
		// NOTIFY's argument in the reader's words (the alias of NOTIFY
		// from the common aliases).
		other := ann
		if first == ann {
			other = bob
		}
		h.send("d1", other, every[l], -1)
		h.mails()
		g := h.game("d1")
		if s := g.Seats[g.SeatOfAddress(other)]; s.Notify != "every" {
			t.Errorf("%s: %q left NOTIFY at %q", l, every[l], s.Notify)
		}
	}

	// Fromage: resources as the Italian reader reads them in the menu.
	h := newHarness(t)
	h.org("NEW fromage id=f1 seed=arrangement-a venues=CFDB tile=structure boards=fixed deadline=24h\n" +
		"PLAYER ann@example.test Ann it\nPLAYER bob@example.test Bob it")
	h.send("f1", ann, "JOIN", -1)
	h.send("f1", bob, "JOIN", -1)
	h.mails()
	gm := h.game("f1")
	p0, p1 := gm.Seats[0].Address, gm.Seats[1].Address
	h.send("f1", p1, "PRODUCI D7\nFATTO", -1)
	h.mails()
	h.send("f1", p0, "FATTO", -1)
	body := h.mailTo(h.mails(), p1).Body
	opt := firstOption(t, body)
	if opt != "PRENDI struttura bestiame" || !strings.Contains(body, `"PRENDI frutta ordine"`) {
		t.Errorf("the take prompt is not in Italian words (%q):\n%s", opt, body)
	}
	before := h.table("f1").Token()
	if out := h.send("f1", p1, opt, -1); out.Status != "applied" || h.table("f1").Token() == before {
		t.Errorf("%q as shown was not played: %+v\n%s", opt, out, h.mailTo(h.mails(), p1).Body)
	}
}

// Issue 12.7 over whole games: in Italian, French and Dutch, every answer
// is sent back exactly as the mail's menu shows it (the reader's keywords
// and argument words), and the referee plays it. (Heaven & Ale's menu
// lines carry a '#' description after the command; they have a test of
// their own, TestHeavenAleMenuLinesAsShownArePlayed.)
func TestMenusAsShownArePlayed(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	if raceEnabled {
		t.Skip("whole games by mail in one goroutine: make check runs it without -race (make content)")
	}
	for _, c := range []struct {
		game    string
		players int
		moves   int
	}{{"dicebrewing", 2, 400}, {"fromage", 2, 200}, {"brewcrafters", 2, 200}} {
		for _, lang := range []string{"it", "fr", "nl"} {
			t.Run(c.game+"/"+lang, func(t *testing.T) {
				shown := playMenuAnswers(t, menuGame{game: c.game, lang: lang, seed: "menus1", moves: c.moves, rng: [2]uint64{5, 6}, option: shownOption})
				t.Logf("%d answers sent as shown in the menu", shown)
			})
		}
	}
}

// shownOption returns the text of option n in a rendered prompt's menu
// (one or two columns).
func shownOption(text string, n int) string {
	mark := fmt.Sprintf("%d) ", n)
	for _, l := range strings.Split(text, "\n") {
		for _, cell := range regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(l), -1) {
			if strings.HasPrefix(cell, mark) {
				return strings.TrimSpace(strings.TrimPrefix(cell, mark))
			}
		}
	}
	return ""
}

// Issue 12.7: a game's help names its commands and argument words as the
// reader writes them, and every line still fits 80 columns.
func TestGameHelpInTheReadersWords(t *testing.T) {
	want := map[string][2]string{
		"it": {"PIAZZA <spazio> <elemento>[, ...] [POI]", "PRODUCI <spazio> [TIENI]"},
		"fr": {"PLACER <", "PRODUIRE <case> [GARDER]"},
		"nl": {"PLAATS <", "MAAK <veld> [HOUD]"},
	}
	for lang, w := range want {
		for i, game := range []string{"dicebrewing", "fromage"} {
			h := newHarness(t)
			h.org("NEW " + game + " id=h1 seed=help1\nPLAYER ann@example.test Ann " + lang + "\nPLAYER bob@example.test Bob " + lang)
			h.send("h1", ann, "JOIN", -1)
			h.send("h1", bob, "JOIN", -1)
			h.mails()
			h.send("h1", ann, "HELP", -1)
			body := h.mailTo(h.mails(), ann).Body
			if !strings.Contains(body, w[i]) || strings.Contains(body, "PLACE <") || strings.Contains(body, "MAKE <") {
				t.Errorf("%s %s: the help is not in the reader's words (want %q):\n%s", lang, game, w[i], body)
			}
			for _, l := range strings.Split(body, "\n") {
				if n := len([]rune(l)); n > 80 {
					t.Errorf("%s %s: %d columns: %q", lang, game, n, l)
				}
			}
		}
	}
}
