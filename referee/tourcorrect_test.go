package referee

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/templates"
)

// correctionWords are a word of each language's correction mail subject
// and of the organiser's answer (the players told).
var correctionWords = map[string][2]string{
	"en": {"correction", "Told by mail:"}, "it": {"correzione", "Avvisati per posta:"},
	"fr": {"correction", "Prévenus par courriel :"}, "nl": {"correctie", "Per mail gemeld:"},
}

// TestTournamentDirectorCorrections (issue 24): the director's corrections
// by mail, in every language, on Swiss and tables tournaments: a bye asked
// for round 2 (half a bye's points, the round mail says so), a late entry
// (paired from round 2), a SWAP of two players of the open round (their
// games' seats follow), RESULT of a game still played and then a change of
// it, DOUBLEFORFEIT (everyone loses, nobody scores). Each is mailed to the
// players it concerns, in their language, within 80 columns, the
// organiser's answer names whom it told, and at the end every round
// replays from the seed.
func TestTournamentDirectorCorrections(t *testing.T) {
	for _, lang := range templates.Languages {
		for _, format := range []string{"swiss", "tables"} {
			t.Run(lang+"/"+format, func(t *testing.T) {
				h := newHarness(t)
				table := ""
				if format == "tables" {
					table = " table=3"
				}
				h.org(fmt.Sprintf("NEW TOURNAMENT cup game=toy format=%s%s rounds=3 lang=%s", format, table, lang))
				var enter strings.Builder
				for i := 0; i < 9; i++ {
					fmt.Fprintf(&enter, "ENTER cup p%d@p.test P%d %s\n", i, i, lang)
				}
				h.org(enter.String() + "BYE cup P0 2\nSTART cup")
				words := correctionWords[lang]
				ans := orgResults(t, h)
				contains(t, ans, words[1]+" P0")
				tr := h.tour("cup")
				rd := tr.Rounds[0]
				// The late entry, from round 2.
				h.org("ENTER cup late@p.test Late " + lang)
				ms := tourMails(h.mails())
				checkWidth(t, ms)
				if m := h.mailTo(ms, "late@p.test"); !strings.Contains(m.Body, "2") {
					t.Fatalf("late entry's mail:\n%s", m.Body)
				}
				// SWAP the first seats of tables 1 and 2.
				a, b := rd.Matches[0].Seats[0], rd.Matches[1].Seats[0]
				h.org(fmt.Sprintf("SWAP cup P%d P%d", a, b))
				ms = h.mails()
				checkWidth(t, ms)
				for _, m := range tourMails(ms) {
					if !strings.Contains(m.Subject, words[0]) {
						t.Errorf("SWAP mail to %s: subject %q", m.To, m.Subject)
					}
				}
				told := 0
				for _, m := range ms {
					if m.Kind == "tournament" {
						told++
					}
				}
				if told != len(rd.Matches[0].Seats)+len(rd.Matches[1].Seats) {
					t.Fatalf("SWAP told %d players", told)
				}
				if g := h.game(rd.Matches[0].GameID); g.SeatOfAddress(fmt.Sprintf("p%d@p.test", b)) != 0 {
					t.Fatalf("the swap did not move the game's seat: %+v", g.Seats)
				}
				// RESULT of table 1 (still played), then a change of it;
				// DOUBLEFORFEIT of table 2; the rest adjudicated.
				g1, g2 := rd.Matches[0].GameID, rd.Matches[1].GameID
				places := strings.Repeat("1,", len(rd.Matches[0].Seats)-1)
				h.org(fmt.Sprintf("RESULT %s %s%d", g1, places, len(rd.Matches[0].Seats)))
				contains(t, orgResults(t, h), g1, words[1])
				h.org("DOUBLEFORFEIT " + g2)
				contains(t, orgResults(t, h), g2, words[1])
				if st := h.game(g2).Status; st != StatusAborted {
					t.Fatalf("double forfeit left game %s %s", g2, st)
				}
				var adj strings.Builder
				for _, m := range rd.Matches[2:] {
					if m.State != tournament.MatchBye {
						fmt.Fprintf(&adj, "ADJUDICATE %s\n", m.GameID)
					}
				}
				h.org(adj.String())
				h.mails()
				tr = h.tour("cup")
				if len(tr.Rounds) != 2 {
					t.Fatalf("%d rounds open", len(tr.Rounds))
				}
				r1 := *tr
				r1.Rounds = tr.Rounds[:1]
				pts := r1.PointTotals()
				for _, s := range r1.Standings() {
					for _, e := range tr.Rounds[0].Matches[1].Seats {
						if s.Entrant == e && (pts[e] != 0 || s.Lost != 1 || s.Drawn != 0) {
							t.Errorf("double forfeit: %s has %v points, W-D-L %d-%d-%d", s.Name, pts[e], s.Won, s.Drawn, s.Lost)
						}
					}
				}
				asked := false
				for _, m := range tr.Rounds[1].Matches {
					if m.Requested && m.Seats[0] == 0 {
						asked = true
					}
				}
				if !asked || tr.Entrant("late@p.test").Joined != 2 {
					t.Fatalf("round 2: bye asked %v, late entrant %+v", asked, tr.Entrant("late@p.test"))
				}
				// A result changed after the next round was drawn: the
				// mail names the one it replaced, and the rounds replay.
				h.org(fmt.Sprintf("RESULT %s %d,%s", g1, len(rd.Matches[0].Seats), strings.TrimSuffix(places, ",")))
				contains(t, orgResults(t, h), "1. P")
				for _, rdN := range []int{1, 2} {
					var adj strings.Builder
					for _, m := range h.tour("cup").Rounds[rdN].Matches {
						if m.State != tournament.MatchBye {
							fmt.Fprintf(&adj, "ADJUDICATE %s\n", m.GameID)
						}
					}
					h.org(adj.String())
					h.mails()
				}
				tr = h.tour("cup")
				if tr.Status != tournament.StatusOver {
					t.Fatalf("tournament %s after %d rounds", tr.Status, len(tr.Rounds))
				}
				if err := tournament.Replay(tr); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}
