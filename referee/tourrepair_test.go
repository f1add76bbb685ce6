package referee

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/referee/tournament"
)

// TestTournamentRepair (issue 24): REPAIR <t> [round] draws the open round
// again before its games start. Five entrants, round 1 drawn (two games
// and a bye); a sixth enters late (paired from round 2) and the organiser
// re-pairs round 1: the late entrant plays in it, the old games are
// stopped, three new games run, the players whose game changed get the
// audit line in their round mail (one tournament mail each, nothing in
// the stopped games' threads), the organiser's answer names them, and
// the record replays.
// Once a game of the round has a move, REPAIR is refused and changes
// nothing. For each language of the organiser, and each form (with and
// without the round, in the language's word).
func TestTournamentRepair(t *testing.T) {
	words := map[string]string{"en": "REPAIR", "it": "RIABBINA", "fr": "REAPPARIER", "nl": "HERINDELEN"}
	audits := map[string]string{"en": "Round 1 is drawn again", "it": "Il turno 1 è sorteggiato di nuovo",
		"fr": "La ronde 1 est tirée à nouveau", "nl": "Ronde 1 is opnieuw ingedeeld"}
	refused := map[string]string{"en": "has a move", "it": "si è già mosso", "fr": "on a déjà joué", "nl": "is al gezet"}
	for _, lang := range []string{"en", "it", "fr", "nl"} {
		for _, withRound := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/round=%v", lang, withRound), func(t *testing.T) {
				h := newHarness(t)
				text := "NEW TOURNAMENT cup game=toy rounds=3 lang=" + lang + "\n"
				for i := 0; i < 5; i++ {
					text += fmt.Sprintf("ENTER cup p%d@p.test P%d %s\n", i, i, lang)
				}
				h.org(text + "START cup")
				h.mails()
				before := h.tour("cup").Rounds[0]
				h.org("ENTER cup late@p.test Late " + lang)
				h.mails()
				line := words[lang] + " cup"
				if withRound {
					line += " 1"
				}
				h.org(line)
				ms := h.mails()
				res := h.mailTo(ms, org).Body
				contains(t, res, audits[lang], "Late")
				tr := h.tour("cup")
				if len(tr.Rounds) != 1 || len(tr.Rounds[0].Matches) != 3 {
					t.Fatalf("round 1 after REPAIR: %+v", tr.Rounds)
				}
				plays := false
				for _, m := range tr.Rounds[0].Matches {
					if m.State == tournament.MatchBye {
						t.Fatalf("a bye with six entrants: %+v", m)
					}
					for _, s := range m.Seats {
						plays = plays || tr.Entrants[s].Address == "late@p.test"
					}
					if g := h.game(m.GameID); g.Status != StatusRunning {
						t.Fatalf("new game %s is %s", m.GameID, g.Status)
					}
				}
				if !plays {
					t.Fatal("the late entrant does not play the round drawn again")
				}
				for _, m := range before.Matches {
					if m.GameID != "" {
						if g := h.game(m.GameID); g.Status == StatusRunning {
							t.Fatalf("old game %s still runs", m.GameID)
						}
					}
				}
				// The audit line reaches the late entrant (their game is new)
				// in the round mail: one tournament mail an entrant, the
				// new game's own mail, nothing in a stopped game's thread
				// (issue 24: a REPAIR mailed a player three times).
				found := false
				stopped := map[string]bool{}
				for _, m := range before.Matches {
					stopped[m.GameID] = m.GameID != ""
				}
				count := map[string]int{}
				for _, m := range ms {
					if m.To == "late@p.test" && strings.Contains(m.Body, audits[lang]) {
						found = true
					}
					if m.Kind == "tournament" {
						count[m.To]++
					}
					if stopped[m.Game] {
						t.Errorf("a mail to %s in the stopped game %s:\n%s", m.To, m.Game, m.Body)
					}
				}
				if !found {
					t.Fatal("no audit line to the late entrant")
				}
				for _, e := range tr.Entrants {
					if count[e.Address] != 1 {
						t.Errorf("%s got %d tournament mails from one REPAIR, want 1", e.Address, count[e.Address])
					}
				}
				if err := tournament.Replay(tr); err != nil {
					t.Fatal(err)
				}
				// A move in one game: REPAIR is refused, nothing changes.
				m := tr.Rounds[0].Matches[0]
				h.send(m.GameID, tr.Entrants[m.Seats[0]].Address, "BID 1", -1)
				h.send(m.GameID, tr.Entrants[m.Seats[1]].Address, "BID 1", -1)
				h.mails()
				if h.game(m.GameID).Steps == 0 {
					t.Fatal("the move was not played")
				}
				h.org(line)
				contains(t, strings.Join(strings.Fields(orgResults(t, h)), " "), refused[lang])
				if now := h.tour("cup"); now.Rounds[0].Matches[0].GameID != m.GameID || h.game(m.GameID).Status != StatusRunning {
					t.Fatal("a refused REPAIR changed the round")
				}
			})
		}
	}
}
