package referee

import (
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
)

// errorWalk is the director's failures, mail by mail: each mail's lines all
// fail (the setup mails between them succeed), so every answer paragraph
// is a failure of the desk. Lines that depend on the draw (who plays which
// game) are made from the record.
var errorWalk = []func(tr *tournament.Tournament) (setup, fails []string){
	func(*tournament.Tournament) ([]string, []string) {
		setup := []string{"NEW TOURNAMENT rr game=toy format=roundrobin LANG", "ENTER rr x@p.test X", "ENTER rr y@p.test Y",
			"NEW TOURNAMENT solo game=toy LANG", "ENTER solo p0@p.test P0"}
		fails := []string{"START nosuch", "PUBLISH nosuch", "NEW TOURNAMENT cup game=toy", "NEW TOURNAMENT 1x game=toy",
			"NEW TOURNAMENT cupb game=nosuch", "NEW TOURNAMENT cupb game=toy rounds=0", "NEW TOURNAMENT cupb game=toy cap=1",
			"NEW TOURNAMENT cupb game=toy deadline=soon", "NEW TOURNAMENT cupb game=toy lang=xx",
			"NEW TOURNAMENT cupb game=toy " + strings.Repeat("k", 300) + "=1", "NEW TOURNAMENT cupb game=toy start=2020-01-01",
			"NEW TOURNAMENT cupb game=toy start=2027-01-01 every=soon", "NEW TOURNAMENT cupb game=toy tz=Nowhere",
			"NEW TOURNAMENT cupb game=toy start=someday", "NEW TOURNAMENT cupb game=toy dates=2027-01-02,2027-01-01",
			"NEW TOURNAMENT cupb game=toy open=sometimes", "NEW TOURNAMENT cupb game=toy open=schedule",
			"NEW TOURNAMENT cupb game=toy table=9", "NEW TOURNAMENT cupb game=toy format=swiss table=3",
			"NEW TOURNAMENT cupb game=toy format=ladder", "NEW TOURNAMENT cupb game=toy points=1",
			"NEW TOURNAMENT cupb game=toy late=never", "NEW TOURNAMENT cupb game=toy forfeits=never",
			"NEW TOURNAMENT cupb game=toy tiebreaks=coin", "NEW TOURNAMENT cupb game=toy points=x",
			"NEW TOURNAMENT cupb game=toy colour=blue",
			"BYE cup zed", "BYE cup p0 9", "WITHDRAW cup zed@p.test", "SWAP cup p0 p1", "REPAIR cup",
			"ENTER cup p0@p.test P0", "START solo", "BYE rr x", "SCHEDULE cup every=soon"}
		return setup, fails
	},
	func(*tournament.Tournament) ([]string, []string) {
		return []string{"START cup", "START rr"}, nil
	},
	func(tr *tournament.Tournament) ([]string, []string) {
		m1, m2 := tr.Rounds[0].Matches[0], tr.Rounds[0].Matches[1]
		name := func(e int) string { return tr.Entrants[e].Name }
		return nil, []string{"START cup", "RESULT " + m1.GameID + " 1,2,3", "RESULT " + m1.GameID + " 1,3",
			"RESULT nosuch 1,2", "FORFEIT " + m1.GameID + " zed", "FORFEIT " + m1.GameID + " " + name(m2.Seats[0]),
			"SWAP cup p0 zed", "SWAP cup " + name(m1.Seats[0]) + " " + name(m1.Seats[1]), "BYE cup p0 1",
			"REPLACE cup p0@p.test p1@p.test P1", "REPAIR cup 2", "ENTER cup p0@p.test P0"}
	},
	func(tr *tournament.Tournament) ([]string, []string) {
		m1 := tr.Rounds[0].Matches[0]
		return []string{"DOUBLEFORFEIT " + m1.GameID, "BYE cup p0 2"}, nil
	},
	func(tr *tournament.Tournament) ([]string, []string) {
		m1, m2 := tr.Rounds[0].Matches[0], tr.Rounds[0].Matches[1]
		name := func(e int) string { return tr.Entrants[e].Name }
		return nil, []string{"DOUBLEFORFEIT " + m1.GameID, "ADJUDICATE " + m1.GameID,
			"SWAP cup " + name(m1.Seats[0]) + " " + name(m2.Seats[0]), "BYE cup p0 2"}
	},
}

// walkErrors runs errorWalk for a tournament whose organiser writes in
// lang, and returns the failures' answers, mail by mail, paragraph by
// paragraph (the frame's first paragraph left out), and every word of the
// lines sent.
func walkErrors(t *testing.T, lang string) ([][]string, map[string]bool) {
	h := newHarness(t)
	sent := map[string]bool{}
	send := func(lines []string) {
		text := strings.ReplaceAll(strings.Join(lines, "\n"), "LANG", "lang="+lang)
		for _, w := range words(text) {
			sent[w] = true
		}
		h.org(text)
	}
	text := "NEW TOURNAMENT cup game=toy rounds=2 LANG\n"
	for i := 0; i < 5; i++ {
		text += fmt.Sprintf("ENTER cup p%d@p.test P%d\n", i, i)
	}
	send(strings.Split(strings.TrimSpace(text), "\n"))
	h.mails()
	var out [][]string
	for _, step := range errorWalk {
		var tr *tournament.Tournament
		if len(h.tour("cup").Rounds) > 0 {
			tr = h.tour("cup")
		}
		setup, fails := step(tr)
		if len(setup) > 0 {
			send(setup)
			h.mails()
		}
		if len(fails) == 0 {
			continue
		}
		send(fails)
		paras := strings.Split(strings.TrimSpace(orgResults(t, h)), "\n\n")
		if len(paras) != len(fails)+1 {
			t.Fatalf("%s: %d answers to %d lines:\n%s", lang, len(paras)-1, len(fails), strings.Join(paras, "\n\n"))
		}
		out = append(out, paras[1:])
	}
	// A round that cannot be opened: the organiser's note.
	h.r.openGameHook = func(string) error { return fmt.Errorf("injected") }
	tr := h.tour("cup")
	var adj []string
	for _, m := range tr.Rounds[0].Matches {
		if !m.Decided() {
			adj = append(adj, "ADJUDICATE "+m.GameID)
		}
	}
	send(adj)
	// The note (its lines up to the failure's class, in words: the
	// error's own words go to the log only; the core's notes of the games
	// that ended follow it in the same paragraph).
	var note []string
	for _, p := range strings.Split(strings.TrimSpace(orgResults(t, h)), "\n\n") {
		if strings.Contains(p, "injected") {
			t.Errorf("%s: the organiser reads the error's own words:\n%s", lang, p)
		}
		flat := strings.Join(strings.Fields(p), " ")
		if i := strings.Index(flat, passingWords[lang]); i >= 0 {
			note = append(note, flat[:i+len(passingWords[lang])])
		}
	}
	if len(note) == 0 {
		t.Fatalf("%s: no note of the round that could not open", lang)
	}
	return append(out, note), sent
}

// passingWords end the words of a passing failure of the core's, in each
// language (templates/tournament/<lang>/errors.tmpl, err.cause).
var passingWords = map[string]string{"en": "try again later", "it": "riprova più tardi", "fr": "réessayez plus tard",
	"nl": "probeer het later opnieuw"}

// prefixOfSent reports whether w begins a word sent (a long value cut).
func prefixOfSent(w string, sent map[string]bool) bool {
	for s := range sent {
		if len(s) > len(w) && strings.HasPrefix(s, w) {
			return true
		}
	}
	return false
}

// words are the lower-case words of a text (letters only).
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
}

// cognates are words a language shares with English in these answers.
var cognates = map[string][]string{
	// Values an organiser types (open=complete), zone names.
	"all": {"schedule", "complete", "utc", "europe", "rome"},
	"it": {"format", "tables", "swiss", "roundrobin", "knockout", "skip", "count", "adjudicate", "forfeit", "buchholz",
		"score", "injected"},
	"fr": {"format", "tables", "swiss", "roundrobin", "knockout", "skip", "count", "adjudicate", "forfeit", "buchholz",
		"score", "injected", "points", "date", "table", "option", "options", "places", "partie", "ronde", "cause"},
	"nl": {"format", "tables", "swiss", "roundrobin", "knockout", "skip", "count", "adjudicate", "forfeit", "buchholz",
		"score", "injected", "tiebreak", "ronde", "opties", "letter", "letters", "jan", "was", "later"},
}

// TestTournamentErrorsInTheDirectorsLanguage (issue 24): every failure of
// the desk the walk reaches (bad settings, unknown names, corrections
// that do not fit, a round that cannot open) answers the organiser in
// their language: no word of the English answer that is not in what they
// wrote (ids, names, values, keywords) or a word the language shares
// appears in the Italian, French or Dutch answer, paragraph by paragraph.
func TestTournamentErrorsInTheDirectorsLanguage(t *testing.T) {
	en, _ := walkErrors(t, "en")
	for _, lang := range []string{"it", "fr", "nl"} {
		t.Run(lang, func(t *testing.T) {
			got, sent := walkErrors(t, lang)
			if len(got) != len(en) {
				t.Fatalf("%d mails, English %d", len(got), len(en))
			}
			shared := map[string]bool{}
			for _, w := range append(cognates[lang], cognates["all"]...) {
				shared[w] = true
			}
			for _, g := range engine.Games() {
				shared[g.Info().Name] = true
			}
			for i := range en {
				for j := range en[i] {
					if j >= len(got[i]) {
						t.Fatalf("mail %d: %d answers, English %d", i, len(got[i]), len(en[i]))
					}
					if got[i][j] == en[i][j] {
						t.Errorf("mail %d answer %d is the English one:\n%s", i, j, en[i][j])
						continue
					}
					mine := map[string]bool{}
					for _, w := range words(got[i][j]) {
						mine[w] = true
					}
					for _, w := range words(en[i][j]) {
						if len(w) >= 3 && mine[w] && !sent[w] && !shared[w] && !prefixOfSent(w, sent) {
							t.Errorf("mail %d answer %d: the English word %q in\n%s\n(English: %s)", i, j, w, got[i][j], en[i][j])
						}
					}
				}
			}
		})
	}
}
