package referee

import (
	"strings"
	"testing"
)

// Issue 12.7 for Brew Crafters: over a whole game in Italian, French and
// Dutch every answer is sent exactly as the mail's menu shows it, and the
// menu shows the argument words in the reader's language (MERCATO FONDI,
// BIRRIFICIO LAVORA BIRRA EA, MARKT MOUT), never the English ones; each is
// played.
func TestBrewCraftersMenusInTheReadersWords(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	if raceEnabled {
		t.Skip("whole games by mail in one goroutine: make check runs it without -race (make content)")
	}
	local := map[string][]string{
		"it": {"LAVORA", "RICERCA", "INSTALLA", "FONDI", "MALTO"},
		"fr": {"TRAITER", "RECHERCHE", "INSTALLER", "FONDS", "HOUBLON"},
		"nl": {"VERWERK", "ONDERZOEK", "INSTALLEER", "FONDS", "MOUT"},
	}
	english := []string{"PROCESS", "RESEARCH", "INSTALL", "FUND", "WORKER", "INVESTOR", "YEAST", "BASIC", "THEN"}
	for _, lang := range []string{"it", "fr", "nl"} {
		t.Run(lang, func(t *testing.T) {
			var sent []string
			playMenuAnswers(t, menuGame{game: "brewcrafters", lang: lang, seed: "words1", moves: 400, rng: [2]uint64{7, 8},
				option: shownOption, required: true, shown: func(text, as string) {
					for _, l := range strings.Split(text, "\n") {
						if len([]rune(l)) > 80 {
							t.Errorf("%d columns: %q", len([]rune(l)), l)
						}
					}
					for _, w := range strings.Fields(as) {
						for _, e := range english {
							if w == e {
								t.Errorf("the menu shows %q in English: %q", e, as)
							}
						}
					}
					sent = append(sent, as)
				}})
			all := " " + strings.Join(sent, " ") + " "
			for _, w := range local[lang] {
				if !strings.Contains(all, " "+w+" ") {
					t.Errorf("no answer shown with %q in %d answers", w, len(sent))
				}
			}
			if len(sent) < 40 {
				t.Errorf("only %d answers from a menu", len(sent))
			}
		})
	}
}

// Issue 12.7: Brew Crafters' help in Italian, French and Dutch has no
// English left (the placeholders, B PASS, ANNUAL) and names its commands
// and argument words as the reader writes them; every line fits.
func TestBrewCraftersHelpInTheReadersWords(t *testing.T) {
	want := map[string][]string{
		"it": {"B LAVORA BIRRA", "<traccia>", "per niente", "M MALTO", "B RICERCA BASE M"},
		"fr": {"B TRAITER BRASSER", "<piste>", "pour rien", "M OUVRIR", "B RECHERCHE BASE M"},
		"nl": {"B VERWERK BROUW", "<spoor>", "voor niets", "M MOUT", "B ONDERZOEK BASIS M"},
	}
	for lang, w := range want {
		h := newHarness(t)
		h.org("NEW brewcrafters id=h1 seed=help1\nPLAYER ann@example.test Ann " + lang + "\nPLAYER bob@example.test Bob " + lang)
		h.send("h1", ann, "JOIN", -1)
		h.send("h1", bob, "JOIN", -1)
		h.mails()
		h.send("h1", ann, "HELP", -1)
		body := h.mailTo(h.mails(), ann).Body
		for _, s := range w {
			if !strings.Contains(body, s) {
				t.Errorf("%s: the help lacks %q:\n%s", lang, s, body)
			}
		}
		for _, s := range []string{"<track>", "<command>", "<keyword>", "for nothing", "Winter", "B PROCESS"} {
			if strings.Contains(body, s) {
				t.Errorf("%s: the help still says %q:\n%s", lang, s, body)
			}
		}
		for _, l := range strings.Split(body, "\n") {
			if n := len([]rune(l)); n > 80 {
				t.Errorf("%s: %d columns: %q", lang, n, l)
			}
		}
	}
}
