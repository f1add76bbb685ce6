package referee

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/store"
	"github.com/pbem-referee/referee/templates"
)

// TestTournamentOrganiserTextsFit: every organiser text of a tournament
// renders in every language, with long ids, names and dates, in lines of
// at most 80 columns and without a template's error; HELP TOURNAMENT
// answers in the language asked for (or the one of its word).
func TestTournamentOrganiserTextsFit(t *testing.T) {
	h := newHarness(t)
	long := "abcdefghijklmnop" // the longest tournament id
	at := time.Date(2026, 9, 16, 18, 0, 0, 0, time.UTC)
	cal := []map[string]any{}
	for n := 1; n <= 12; n++ {
		cal = append(cal, map[string]any{"n": n, "open": n < 3, "opens": "mer. 16 sept. 2026 18:00 CEST", "due": "mer. 23 sept. 2026 18:00 CEST"})
	}
	games := []map[string]any{{"game": long + "r10t10x1", "waiting": "Bartholomew, Maximiliana"}}
	for _, lang := range templates.Languages {
		tr := &tournament.Tournament{ID: long, Entrants: make([]tournament.Entrant, 12), Settings: tournament.Settings{Format: "roundrobin", Table: 4, OrgLang: lang,
			Calendar: tournament.Calendar{TZ: "America/Argentina/Buenos_Aires"}}}
		if err := h.db.Update(func(tx *store.Tx) error {
			w := h.r.newWork(tx, at)
			datas := map[string]map[string]any{
				"created": w.pageData(tr, map[string]any{"title": "Heaven & Ale", "format": "knockout", "table": 4, "num_rounds": 12,
					"points": "10/6/3/1", "tiebreaks": "buchholz,sb,score,h2h", "commitment": strings.Repeat("ab", 32),
					"closes": "mer. 16 sept. 2026 18:00 CEST", "deadline": "168h", "late": "adjudicate", "calendar": cal,
					"on_schedule": true, "tz": "America/Argentina/Buenos_Aires"}),
				"entered":         {"address": "bartholomew.longname@example.org", "entrants": 120},
				"started":         {"games": 60, "due": "mer. 16 sept. 2026 18:00 CEST"},
				"withdrawn":       {"address": "bartholomew.longname@example.org"},
				"extended":        {"round": 12, "due": "mer. 16 sept. 2026 18:00 CEST"},
				"replaced":        {"address": "bartholomew.longname@example.org", "old": "maximiliana.longname@example.org"},
				"pages":           {"public": true, "listed": false, "page": "https://referee.example.org/t/" + long + "-0123456789abcdef0123"},
				"schedule":        {"calendar": cal, "on_schedule": false, "warn": "24h", "tz": "America/Argentina/Buenos_Aires", "closes": "mer. 16 sept. 2026 18:00 CEST", "signup": true},
				"late":            {"kind": "warn", "round": 12, "due": "mer. 16 sept. 2026 18:00 CEST", "games": games, "late_rule": ""},
				"no_round":        {},
				"waiting":         {"round": 11, "next": "mer. 16 sept. 2026 18:00 CEST"},
				"over":            {"standings": "x"},
				"nodraw":          {"error": "tournament: all 12 rounds are played"},
				"cannot_start":    {"error": "1 entrants: " + long + " needs at least 2"},
				"adjudicated":     {"game": long + "r10t10x1", "result": "1. Bartholomew 123 / 2. Maximiliana 99"},
				"adjudicate_bots": {"game": long + "r10t10x1"},
				"forfeited":       {"game": long + "r10t10x1", "name": "Bartholomew"},
			}
			for name, data := range datas {
				fits(t, lang+" org."+name, w.orgText(tr, name, data))
			}
			late := map[string]any{"kind": "late", "round": 12, "due": "x", "games": games, "late_rule": "forfeit"}
			fits(t, lang+" org.late", w.orgText(tr, "late", late))
			fits(t, lang+" org.help", w.tourText(lang, "org.help", map[string]any{"games": gameNames()}))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
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
	contains(t, res, "a@p.test iscritto a ita", "ita: nessun turno aperto", "Ricevi le partite non finite 2h prima")
	h.clock.Advance(time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC).Sub(h.clock.Now()))
	h.tick()
	h.mails()
	h.clock.Advance(7*24*time.Hour - 2*time.Hour)
	h.tick()
	contains(t, orgResults(t, h), "ita turno 1, scade mar 8 dic 2026 20:00 CET:", "partite non ancora finite:")
}
