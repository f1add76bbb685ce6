package referee

import (
	"regexp"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/commands"
	"github.com/pbem-referee/referee/referee/query"
	"github.com/pbem-referee/referee/templates"
)

// internalID is an id of a data file as the engine spells it
// (HEAD_BREWER, SPACE_STOREHOUSE): it never reaches a player (issue 22).
var internalID = regexp.MustCompile(`\b[A-Z0-9]+_[A-Z0-9_]+\b`)

// Issue 22: every card of every game that lists its cards (Brew Crafters:
// workers, buildings, partnerships, market spaces, recipes, research
// tracks, collaboration portions, ingredients, slots; Heaven & Ale: tiles,
// monks, privilege cards, start spaces, scoring spots and disc spaces,
// barrel goals, garden spots, sheds) answers HELP by its id, by the code
// players type and by its name in each of our languages, in every
// language, with its name, its kind and its rule id; no answer is "no
// help", shows an internal id, leaves a fact without words or runs past 80
// columns.
func TestHelpForEveryCard(t *testing.T) {
	want := map[string][]string{
		"brewcrafters": {"worker", "building", "partner", "space", "recipe", "track", "portion", "ingredient", "slot"},
		"heavenale":    {"resource", "tile", "monk", "privilege", "start", "discspace", "spot", "goal", "garden", "shed"},
		"dicebrewing":  {"die", "building", "ingredient", "token", "recipe"},
		"fromage":      {"venue", "resource", "type", "aging", "space", "order", "tile"},
	}
	for game, kindsWanted := range want {
		h := newHarness(t)
		h.org("NEW " + game + " id=h1 seed=cards1\nPLAYER ann@example.test Ann en\nPLAYER bob@example.test Bob en")
		h.send("h1", ann, "JOIN", -1)
		h.send("h1", bob, "JOIN", -1)
		h.mails()
		cards := h.table("h1").State.(engine.Carder).Cards()
		kinds := map[string]int{}
		for _, c := range cards {
			kinds[c.Kind]++
		}
		for _, k := range kindsWanted {
			if kinds[k] == 0 {
				t.Errorf("%s: no %s card", game, k)
			}
		}
		for _, lang := range templates.Languages {
			rd := Reader{Game: game, Lang: lang, Seat: 0, Seats: []string{"Ann", "Bob"}}
			for _, c := range cards {
				name, err := h.r.render.T.Render(game, lang, "card.name", h.r.render.ctx(rd, c))
				if err != nil || name == "" || strings.Contains(name, "no value") {
					t.Errorf("%s %s %s %s: no name (%q, %v)", game, lang, c.Kind, c.ID, name, err)
				}
				for _, topic := range []string{c.ID, c.Code, name, strings.ToLower(name)} {
					found := false
					for _, got := range query.FindCards(h.r.render.Renderer, rd, cards, topic) {
						found = found || got.Kind == c.Kind && got.ID == c.ID ||
							commands.Letters(got.Code) == commands.Letters(topic) || commands.Letters(got.ID) == commands.Letters(topic)
					}
					if !found {
						t.Errorf("%s %s: HELP %q does not find %s %s", game, lang, topic, c.Kind, c.ID)
					}
				}
				text, err := h.r.render.T.Render(game, lang, "card", h.r.render.ctx(rd, c))
				if err != nil {
					t.Fatalf("%s %s %s: %v", game, lang, c.ID, err)
				}
				text = templates.Fold(templates.Reflow(text, templates.Width))
				if !strings.Contains(text, c.Rule) || !strings.Contains(text, name) {
					t.Errorf("%s %s %s: the help lacks the rule or the name: %q", game, lang, c.ID, text)
				}
				if strings.Contains(text, "no value") || strings.Contains(text, "%!") {
					t.Errorf("%s %s %s: %q", game, lang, c.ID, text)
				}
				for _, f := range c.Facts {
					if strings.Contains(f.Key, "_") && strings.Contains(text, f.Key) {
						t.Errorf("%s %s %s: fact %q has no words: %q", game, lang, c.ID, f.Key, text)
					}
				}
				if m := internalID.FindString(text); m != "" {
					t.Errorf("%s %s %s: internal id %s in %q", game, lang, c.ID, m, text)
				}
				for _, l := range strings.Split(text, "\n") {
					if len([]rune(l)) > templates.Width {
						t.Errorf("%s %s: %d columns: %q", game, lang, len([]rune(l)), l)
					}
				}
			}
		}
	}
}

// Issue 22: HELP <code>, HELP <name words> and a translated name, sent by
// mail, answer with the card (HELP HEAD_BREWER said "no help").
func TestBrewCraftersHelpCardByMail(t *testing.T) {
	for _, c := range []struct{ lang, line, want string }{
		{"en", "HELP HEAD_BREWER", "Head Brewer (HEADBREWER, skilled worker): +1 Rep"},
		{"en", "HELP Oak Barrelhouse", "Oak Barrelhouse (OAK, building): +2 Rep per batch"},
		{"it", "AIUTO Mastro birraio", "Mastro birraio (HEADBREWER, lavoratore specializzato)"},
		{"fr", "AIDE FUND", "Financement (FUND, case du marché)"},
		{"nl", "HULP Opslagplaats", "Opslagplaats (STOREHOUSE, gebouw)"},
		{"en", "HELP M", "M [space] <keyword>"}, // a command's help, then the Malt card
		{"en", "HELP M", "Malt (M, ingredient)"},
	} {
		h := newHarness(t)
		h.org("NEW brewcrafters id=h1 seed=cards2\nPLAYER ann@example.test Ann " + c.lang + "\nPLAYER bob@example.test Bob " + c.lang)
		h.send("h1", ann, "JOIN", -1)
		h.send("h1", bob, "JOIN", -1)
		h.mails()
		h.send("h1", ann, c.line, -1)
		body := h.mailTo(h.mails(), ann).Body
		if !strings.Contains(body, c.want) {
			t.Errorf("%s %q: want %q in:\n%s", c.lang, c.line, c.want, body)
		}
	}
}

// Issue 22: over whole games in every language, every option of every Brew
// Crafters menu is in words (its command, then "#" and what it costs and
// gives), grouped under headings, with no internal id and every line within
// 80 columns; each answer as shown is played.
func TestBrewCraftersMenusInWords(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	if raceEnabled {
		t.Skip("whole games by mail in one goroutine: make check runs it without -race (make content)")
	}
	for _, lang := range templates.Languages {
		t.Run(lang, func(t *testing.T) {
			menus := 0
			playMenuAnswers(t, menuGame{game: "brewcrafters", lang: lang, seed: "words22", moves: 300, rng: [2]uint64{22, 4},
				option: shownOption, required: true, shown: func(text, as string) {
					menus++
					for _, l := range strings.Split(text, "\n") {
						if len([]rune(l)) > 80 {
							t.Errorf("%d columns: %q", len([]rune(l)), l)
						}
						if m := internalID.FindString(l); m != "" && !strings.Contains(l, "@") {
							t.Errorf("internal id %s: %q", m, l)
						}
						if regexp.MustCompile(`^\s+\d+\) `).MatchString(l) && !strings.Contains(l, "#") {
							t.Errorf("an option without words: %q", l)
						}
						if _, words, ok := strings.Cut(l, "# "); ok {
							if m := pluralMismatch.FindString(words); m != "" {
								t.Errorf("plural mismatch %q: %q", m, l)
							}
							for _, w := range englishWords.FindAllString(words, -1) {
								if lang != "en" && w != strings.ToUpper(w) && !(lang == "nl" && strings.EqualFold(w, "winter")) {
									t.Errorf("English %q: %q", w, l)
								}
							}
						}
					}
					if !strings.Contains(text, "# ") || !strings.Contains(text, ":\n") {
						t.Errorf("a menu without words or headings:\n%s", text)
					}
				}})
			if menus < 40 {
				t.Errorf("only %d menus", menus)
			}
		})
	}
}

// Issue 22: HELP SCORING (and its words in the reader's language: AIUTO
// PUNTEGGIO, AIDE DÉCOMPTE, HULP PUNTEN) tells how each of the four games
// scores, with its rule ids, in every language; the first mail of a game
// links it.
func TestHelpScoringEveryGameEveryLanguage(t *testing.T) {
	rule := map[string]string{"brewcrafters": "BC-7.2", "heavenale": "HA-7", "dicebrewing": "DB-7", "fromage": "FR-7"}
	local := map[string]string{"en": "HELP SCORING", "it": "AIUTO PUNTI", "fr": "AIDE DÉCOMPTE", "nl": "HULP PUNTEN"}
	for game, id := range rule {
		for _, lang := range templates.Languages {
			h := newHarness(t)
			h.org("NEW " + game + " id=s1 seed=score1\nPLAYER ann@example.test Ann " + lang + "\nPLAYER bob@example.test Bob " + lang)
			h.send("s1", ann, "JOIN", -1)
			h.mails()
			h.send("s1", bob, "JOIN", -1)
			first := h.mailTo(h.mails(), ann).Body
			if !strings.Contains(strings.Join(strings.Fields(first), " "), local[lang]) {
				t.Errorf("%s %s: the first mail does not say %q", game, lang, local[lang])
			}
			for _, line := range []string{"HELP SCORING", local[lang]} {
				h.send("s1", ann, line, -1)
				body := h.mailTo(h.mails(), ann).Body
				if !strings.Contains(body, id) || strings.Contains(body, `"SCORING"`) {
					t.Errorf("%s %s %q: no scoring help:\n%s", game, lang, line, body)
				}
				for _, l := range strings.Split(body, "\n") {
					if len([]rune(l)) > 80 {
						t.Errorf("%s %s: %d columns: %q", game, lang, len([]rune(l)), l)
					}
				}
			}
		}
	}
}

// englishWords are words of English that no Italian, French or Dutch mail
// should carry (names and codes excepted: they are upper case or
// capitalised card names the data files give).
var englishWords = regexp.MustCompile(`(?i)\b(the|and|each|when|your|you|hired|costs?|winter|take|give|brewing|research|step|with|none|nothing|coins?|spot|tile|barrels?|score|scores|leading|how)\b`)

// pluralMismatch finds a count that disagrees with its noun ("1 coins",
// "2 moneta").
var pluralMismatch = regexp.MustCompile(`\b1 (coins|monete|pièces|munten|ducati|dukaten|tokens|segnalini|jetons|actiefiches)\b|\b([02-9]|[1-9]\d+) (coin|moneta|pièce|munt|ducato|dukaat|token|segnalino|jeton|actiefiche)\b`)

// Issue 22: the words this issue added (every card of every game that
// lists them, HELP SCORING of the four games, the menus of whole Brew
// Crafters games) carry no English word in Italian, French and Dutch, and
// no count disagrees with its noun in any language.
func TestNewWordsInTheReadersLanguage(t *testing.T) {
	check := func(what, lang, text string) {
		t.Helper()
		if m := pluralMismatch.FindString(text); m != "" {
			t.Errorf("%s %s: plural mismatch %q in %q", what, lang, m, text)
		}
		if lang == "en" {
			return
		}
		for _, w := range englishWords.FindAllString(text, -1) {
			if w == strings.ToUpper(w) {
				continue // a code or command (TAKE, SCORE)
			}
			if lw := strings.ToLower(w); lw == "winter" && lang == "nl" || lw == "score" && lang != "it" {
				continue // Dutch winter, French and Dutch score
			}
			t.Errorf("%s %s: English %q in %q", what, lang, w, text)
		}
	}
	for _, game := range []string{"brewcrafters", "heavenale", "dicebrewing", "fromage"} {
		h := newHarness(t)
		h.org("NEW " + game + " id=w1 seed=words1\nPLAYER ann@example.test Ann en\nPLAYER bob@example.test Bob en")
		h.send("w1", ann, "JOIN", -1)
		h.send("w1", bob, "JOIN", -1)
		h.mails()
		st := h.table("w1").State
		for _, lang := range templates.Languages {
			rd := Reader{Game: game, Lang: lang, Seat: 0, Seats: []string{"Ann", "Bob"}}
			s, err := h.r.render.T.Render(game, lang, "help.SCORING", h.r.render.ctx(rd, nil))
			if err != nil {
				t.Fatal(err)
			}
			// Card and board names the help quotes stay: FIRST, BARREL.
			check(game+" help.SCORING", lang, s)
			cr, ok := st.(engine.Carder)
			if !ok {
				continue
			}
			for _, c := range cr.Cards() {
				text, err := h.r.render.T.Render(game, lang, "card", h.r.render.ctx(rd, c))
				if err != nil {
					t.Fatal(err)
				}
				if c.Name != "" {
					text = strings.ReplaceAll(text, c.Name, "") // a name of the data file
				}
				check(game+" "+c.ID, lang, text)
			}
		}
	}
}
