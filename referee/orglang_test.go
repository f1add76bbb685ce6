package referee

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// orgBody is the organiser's answer to the last mail, checked to fit 80
// columns.
func orgBody(t *testing.T, h *harness) string {
	t.Helper()
	body := orgResults(t, h)
	for _, l := range strings.Split(body, "\n") {
		if utf8.RuneCountInString(l) > 80 {
			t.Errorf("organiser's answer has a line of %d columns:\n%s", utf8.RuneCountInString(l), l)
		}
	}
	return body
}

// TestOrganiserAnswerInTheirLanguage (issue 16): an organiser's answer is
// framed, and its usage errors written, in the language of the mail's
// words (an Italian, French or Dutch alias), else of the tournament it
// names (lang=), else English; placeholders are in that language too, the
// lines within 80 columns; SCHEDULE has its aliases in it/fr/nl.
func TestOrganiserAnswerInTheirLanguage(t *testing.T) {
	h := newHarness(t)
	h.org("NEW TOURNAMENT cup game=toy rounds=2")
	contains(t, orgBody(t, h), "Results of your commands:")
	h.org("NEW TOURNAMENT coppa game=toy rounds=2 lang=it")
	contains(t, orgBody(t, h), "Risultati dei tuoi comandi:")

	for _, c := range []struct{ text, frame, usage string }{
		// English words: English.
		{"ENTER cup", "Results of your commands:", "ENTER: usage: ENTER <tournament> <address> <name>"},
		// An alias of one language: that language.
		{"ISCRIVI cup", "Risultati dei tuoi comandi:", "ENTER: uso: ENTER <torneo> <indirizzo> <nome>"},
		{"INSCRIRE cup", "Résultats de vos commandes :", "ENTER: syntaxe : ENTER <tournoi> <adresse> <nom>"},
		{"INSCHRIJVEN cup", "Resultaten van je opdrachten:", "ENTER: gebruik: ENTER <toernooi> <adres> <naam>"},
		// English words about an Italian tournament: Italian.
		{"ENTER coppa", "Risultati dei tuoi comandi:", "uso: ENTER <torneo>"},
		// A word several languages share (FORFAIT) decides nothing.
		{"FORFAIT", "Results of your commands:", "usage: FORFEIT <game> <player>"},
		// SCHEDULE in Italian, French and Dutch.
		{"CALENDARIO cup loudly", "Risultati dei tuoi comandi:", "uso: SCHEDULE <torneo>"},
		{"CALENDRIER cup loudly", "Résultats de vos commandes :", "syntaxe : SCHEDULE <tournoi>"},
		{"CALENDRIER cup loudly", "Résultats de vos commandes :", ` ; pas "loudly"`},
		{"ROOSTER cup loudly", "Resultaten van je opdrachten:", "gebruik: SCHEDULE <toernooi>"},
	} {
		h.org(c.text)
		body := orgBody(t, h)
		if !strings.Contains(body, c.frame) || !strings.Contains(strings.Join(strings.Fields(body), " "), c.usage) {
			t.Errorf("%q: want %q and %q in:\n%s", c.text, c.frame, c.usage, body)
		}
	}
	// A long usage (NEW TOURNAMENT's) is folded within 80 columns.
	h.org("AVVIA cup\nNEW TOURNAMENT")
	contains(t, orgBody(t, h), "uso: NEW TOURNAMENT <id> game=<gioco>")
	// The organiser's language is the mail's, not remembered.
	h.org("STANDINGS cup")
	contains(t, orgBody(t, h), "Results of your commands:")
}
