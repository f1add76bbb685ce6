package referee

import (
	"regexp"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/templates"
)

// menuWordsCheck checks a rendered numbered prompt of a game whose menus
// are in words (issue 22): every option line says in words what it costs
// and gives (after "#", the comment players may copy), in the reader's
// language; no internal id; every line within 80 columns; a long menu is
// grouped under headings; the codes are explained in a legend. It returns
// whether the menu had headings.
func menuWordsCheck(t *testing.T, game, lang, text string) bool {
	t.Helper()
	headed := false
	lines := strings.Split(text, "\n")
	options := 0
	for i, l := range lines {
		if len([]rune(l)) > 80 {
			t.Errorf("%s %s: %d columns: %q", game, lang, len([]rune(l)), l)
		}
		if m := internalID.FindString(l); m != "" {
			t.Errorf("%s %s: internal id %s: %q", game, lang, m, l)
		}
		if !menuLine.MatchString(l) {
			continue
		}
		options++
		if i > 0 && strings.HasSuffix(lines[i-1], ":") && !menuLine.MatchString(lines[i-1]) {
			headed = true
		}
		for _, cell := range optionStart.Split(l, -1)[1:] {
			cmd, words, ok := strings.Cut(cell, "#")
			if !ok || strings.TrimSpace(words) == "" {
				t.Errorf("%s %s: an option without words: %q", game, lang, l)
				continue
			}
			if strings.TrimSpace(cmd) == "" {
				t.Errorf("%s %s: an option without its command: %q", game, lang, l)
			}
			if m := pluralMismatch.FindString(words); m != "" {
				t.Errorf("%s %s: plural mismatch %q: %q", game, lang, m, l)
			}
			if lang == "en" {
				continue
			}
			for _, w := range englishWords.FindAllString(words, -1) {
				if w != strings.ToUpper(w) && !(lang == "nl" && strings.EqualFold(w, "winter")) {
					t.Errorf("%s %s: English %q: %q", game, lang, w, l)
				}
			}
		}
	}
	if options > 15 && !headed {
		t.Errorf("%s %s: a menu of %d options without headings:\n%s", game, lang, options, text)
	}
	return headed
}

// Issue 22: over whole Heaven & Ale games in every language, every option
// of every menu (destinations, purchases, sheds, scoring spots, privilege
// cards, start spaces) is in words with its price or gain, long menus are
// grouped by kind of action with a legend of the codes, and each option is
// played as the menu shows it.
func TestHeavenAleMenusInWords_Issue22(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	legend := regexp.MustCompile(`(?m)^(Codes|Codici|Codes :)`)
	for _, lang := range templates.Languages {
		t.Run(lang, func(t *testing.T) {
			menus, headed, kinds := 0, 0, map[string]bool{}
			playMenuAnswers(t, menuGame{game: "heavenale", lang: lang, seed: "words22", moves: 400, rng: [2]uint64{22, 7},
				option: shownOption, required: true, shown: func(text, as string) {
					menus++
					if menuWordsCheck(t, "heavenale", lang, text) {
						headed++
						if !legend.MatchString(text) {
							t.Errorf("a grouped menu without its legend:\n%s", text)
						}
					}
					if strings.Contains(text, "/") && strings.Contains(as, "#") {
						kinds["priced"] = true
					}
				}})
			if menus < 40 || headed < 10 {
				t.Errorf("only %d menus, %d with headings", menus, headed)
			}
			t.Logf("%d menus, %d grouped", menus, headed)
		})
	}
}

// Issue 22: over whole Fromage games in every language, every option of a
// turn menu (gather, make, milk, build, workstation, done) says in words
// what it gives and costs (resources, the cheese made, the worker's time
// away, Fruit, the Order it completes), long menus are grouped by kind of
// action with a legend, and each option is played as the menu shows it.
func TestFromageMenusInWords_Issue22(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, lang := range templates.Languages {
		t.Run(lang, func(t *testing.T) {
			menus, headed := 0, 0
			playMenuAnswers(t, menuGame{game: "fromage", lang: lang, seed: "words22", moves: 400, rng: [2]uint64{22, 9},
				option: shownOption, required: true, shown: func(text, as string) {
					if !strings.Contains(text, "#") && !strings.Contains(as, "#") {
						return // a short menu of another kind (TAKE, TRADE, CHOOSE)
					}
					menus++
					if menuWordsCheck(t, "fromage", lang, text) {
						headed++
					}
				}})
			if menus < 30 || headed < 10 {
				t.Errorf("only %d menus in words, %d with headings", menus, headed)
			}
			t.Logf("%d menus, %d grouped", menus, headed)
		})
	}
}
