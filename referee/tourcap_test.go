package referee

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pbem-referee/referee/templates"
)

// capWords are words of each language's answers: the waiting list mail's
// subject, the sign-up state, the time left and the time since.
var capWords = map[string][4]string{
	"en": {"waiting list", "3 entrants of 3, 2 waiting", "Due in 1d 23h 0m", "passed 2h 0m ago"},
	"it": {"lista d'attesa", "3 iscritti su 3, 2 in attesa", "Scade tra 1g 23h 0m", "passata da 2h 0m"},
	"fr": {"liste d'attente", "3 inscrits sur 3, 2 en attente", "Échéance dans 1j 23h 0min", "passée depuis 2h 0min"},
	"nl": {"wachtlijst", "3 deelnemers van 3, 2 wachtend", "Einde over 1d 23u 0m", "was 2u 0m geleden"},
}

// TestTournamentCapWaitingListAndLate (issue 24): with cap=N, who signs up
// beyond it (the organiser's ENTER or a player's JOIN) is put on the
// waiting list, told their place by mail, and moves in, told by mail, when
// an entrant withdraws during sign-up; WITHDRAW takes one off the list.
// LATE says when sign-up closes (or that no date is set) and, once a round
// runs, whether its deadline is coming, with the time left, or has passed,
// and how long ago. In every language, every line within 80 columns.
func TestTournamentCapWaitingListAndLate(t *testing.T) {
	for _, lang := range templates.Languages {
		t.Run(lang, func(t *testing.T) {
			w := capWords[lang]
			h := newHarness(t)
			h.org("NEW TOURNAMENT cup game=toy rounds=2 cap=3 deadline=48h lang=" + lang)
			h.mails()
			var enter strings.Builder
			for _, p := range []string{"a", "b", "c", "d", "e"} {
				fmt.Fprintf(&enter, "ENTER cup %s@p.test %s %s\n", p, strings.ToUpper(p), lang)
			}
			h.org(enter.String() + "ENTER cup e@p.test E " + lang + "\nLATE cup")
			ms := h.mails()
			checkWidth(t, ms)
			if m := h.mailTo(tourMails(ms), "e@p.test"); !strings.Contains(m.Subject, w[0]) || !strings.Contains(m.Body, "2") {
				t.Fatalf("waiting list mail: %s\n%s", m.Subject, m.Body)
			}
			ans := orgMailText(ms)
			contains(t, ans, "d@p.test", "e@p.test", w[1], "START cup")
			if tr := h.tour("cup"); len(tr.Entrants) != 3 || len(tr.Waitlist) != 2 {
				t.Fatalf("%d entrants, %d waiting", len(tr.Entrants), len(tr.Waitlist))
			}
			// A withdrawal lets d in; WITHDRAW takes e off the list.
			h.org("WITHDRAW cup a@p.test\nWITHDRAW cup e@p.test")
			ms = h.mails()
			h.mailTo(tourMails(ms), "d@p.test")
			tr := h.tour("cup")
			if len(tr.Entrants) != 3 || len(tr.Waitlist) != 0 || tr.Entrant("d@p.test") == nil || tr.Entrant("d@p.test").ID != 2 {
				t.Fatalf("after the withdrawal: %+v, waiting %+v", tr.Entrants, tr.Waitlist)
			}
			h.org("START cup")
			h.mails()
			h.clock.Advance(time.Hour)
			h.org("LATE cup")
			contains(t, orgMailText(h.mails()), w[2])
			h.clock.Advance(49 * time.Hour)
			h.org("LATE cup")
			ans = orgMailText(h.mails())
			contains(t, ans, w[3])
			for _, l := range strings.Split(ans, "\n") {
				if utf8.RuneCountInString(l) > 80 {
					t.Errorf("a line of %d columns: %s", utf8.RuneCountInString(l), l)
				}
			}
		})
	}
	// A closing date: LATE says when, and how long is left.
	h := newHarness(t)
	h.org("NEW TOURNAMENT cup game=toy rounds=2 close=2026-11-25")
	h.mails()
	h.org("LATE cup")
	contains(t, orgResults(t, h), "Sign-up closes", "in 1d 15h 0m")
}

// orgMailText is the organiser's mails among ms.
func orgMailText(ms []*Outgoing) string {
	var b strings.Builder
	for _, m := range ms {
		if m.To == org {
			b.WriteString(m.Body + "\n")
		}
	}
	return b.String()
}
