package referee

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestTournamentOrganiserHelpFits: HELP TOURNAMENT answers in the
// language asked for (or the one of its word), in lines of at most 80
// columns (every organiser text of the desk: bymail's
// TestOrganiserTextsFit).
func TestTournamentOrganiserHelpFits(t *testing.T) {
	h := newHarness(t)
	for word, want := range map[string]string{"HELP TOURNAMENT": "TOURNAMENTS (organiser", "HELP TORNEO": "TORNEI (comandi",
		"HELP TOURNOI": "TOURNOIS (commandes", "help toernooi": "TOERNOOIEN (commando", "HELP TOURNAMENT nl": "TOERNOOIEN (commando"} {
		h.org(word)
		res := orgResults(t, h)
		contains(t, res, want, "SCHEDULE")
		fits(t, word, res)
	}
	// The organiser's general help points to it.
	h.org("HELP")
	contains(t, orgResults(t, h), "HELP TOURNAMENT")
}

func fits(t *testing.T, what, text string) {
	t.Helper()
	if strings.Contains(text, "<no value>") || strings.Contains(text, "%!") || strings.HasPrefix(text, "(") && strings.Contains(text, "template") {
		t.Errorf("%s: a template error:\n%s", what, text)
	}
	for _, l := range strings.Split(text, "\n") {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("%s: a line of %d columns:\n%s", what, n, l)
		}
	}
}

// TestTournamentOrganiserLanguage: with lang=it the organiser's answers and
// notes of the tournament come in Italian, by mail.
func TestTournamentOrganiserLanguage(t *testing.T) {
	h := newHarness(t)
	h.org("NEW TOURNAMENT ita game=toy rounds=2 lang=it start=2026-12-01T20:00 every=7d tz=Europe/Rome")
	res := orgResults(t, h)
	contains(t, res, "tavoli da 2", "Impegno del seme", "I turni si aprono alle loro date (Europe/Rome)",
		"turno  1: si apre mar 1 dic 2026 20:00 CET", "Le iscrizioni chiudono mar 1 dic 2026 20:00 CET")
	fits(t, "NEW TOURNAMENT lang=it", res)
	h.org("ENTER ita a@p.test A\nENTER ita b@p.test B\nLATE ita\nSCHEDULE ita warn=2h")
	res = orgResults(t, h)
	// LATE during sign-up: when it closes, and the time left (issue 24).
	contains(t, res, "a@p.test iscritto a ita", "ita: iscrizioni aperte:\n2 iscritti.", "chiudono mar 1 dic 2026 20:00 CET, tra 8g 10h 0m",
		"Ricevi le partite non finite 2h prima")
	h.clock.Advance(time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC).Sub(h.clock.Now()))
	h.tick()
	h.mails()
	h.clock.Advance(7*24*time.Hour - 2*time.Hour)
	h.tick()
	contains(t, orgResults(t, h), "ita turno 1, scade mar 8 dic 2026 20:00 CET:", "partite non ancora finite:")
}
