package referee

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
	"github.com/pbem-referee/referee/store"
)

// errCrash is the panic that stands for the process stopping.
type errCrash struct{}

// crashing runs fn and reports whether it stopped with errCrash (the
// process "stopped" there: its transaction rolled back, nothing after it
// ran).
func crashing(fn func()) (crashed bool) {
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(errCrash); !ok {
				panic(v)
			}
			crashed = true
		}
	}()
	fn()
	return false
}

// restart replaces the harness's Referee by a new one on the same store,
// as after the process stopped: nothing in memory survives.
func (h *harness) restart() {
	h.t.Helper()
	r, err := New(h.r.opt)
	if err != nil {
		h.t.Fatal(err)
	}
	h.r = r
}

// TestTournamentRoundLeftDueOpensOnTick (issue 24): the unit of work that
// completes a round commits with the next round due (Tournament.Opening,
// its wake entry due now) and the round opens in a unit of work of its
// own after it (desk.go, openDue). The process stops between the two
// (the opening crashes: its transaction rolls back): the record says the
// round is due and nothing of it exists; a new process's Tick opens it
// once, every entrant gets its round mail, and a second Tick opens
// nothing more. For Swiss and tables, an even and an odd number of
// entrants (a bye), and the round completed by the organiser's ADJUDICATE
// or by the deadline (late=adjudicate, the completing unit of work is
// itself a Tick).
func TestTournamentRoundLeftDueOpensOnTick(t *testing.T) {
	for _, format := range []string{"swiss", "tables"} {
		for _, n := range []int{6, 7} {
			for _, by := range []string{"adjudicate", "deadline"} {
				t.Run(fmt.Sprintf("%s/%d/%s", format, n, by), func(t *testing.T) {
					roundLeftDue(t, format, n, by)
				})
			}
		}
	}
}

func roundLeftDue(t *testing.T, format string, n int, by string) {
	h := newHarness(t)
	text := fmt.Sprintf("NEW TOURNAMENT cup game=toy format=%s rounds=3 deadline=24h late=adjudicate\n", format)
	for i := 0; i < n; i++ {
		text += fmt.Sprintf("ENTER cup p%d@p.test P%d\n", i, i)
	}
	h.org(text + "START cup")
	h.mails()
	r1 := h.tour("cup").Rounds[0]
	var games []string
	for _, m := range r1.Matches {
		if m.GameID != "" {
			games = append(games, m.GameID)
		}
	}
	if len(games) < 2 {
		t.Fatalf("round 1 has %d games", len(games))
	}
	if by == "adjudicate" {
		h.org("ADJUDICATE " + strings.Join(games[:len(games)-1], "\nADJUDICATE "))
		h.mails()
	}
	// The process stops as the round after is being opened.
	opened := 0
	h.r.openGameHook = func(string) error { opened++; panic(errCrash{}) }
	crashed := crashing(func() {
		if by == "adjudicate" {
			h.org("ADJUDICATE " + games[len(games)-1])
		} else {
			h.clock.Advance(25 * time.Hour)
			h.tick()
		}
	})
	if !crashed || opened != 1 {
		t.Fatalf("the opening did not run (crashed %v, %d games tried)", crashed, opened)
	}
	tr := h.tour("cup")
	if len(tr.Rounds) != 1 || !tr.Rounds[0].Complete() || !tr.Opening {
		t.Fatalf("after the stop: %d rounds, round 1 complete %v, opening %v", len(tr.Rounds), tr.Rounds[0].Complete(), tr.Opening)
	}
	var wake bool
	if err := h.db.View(func(tx *store.Tx) error {
		at := tx.Wake(bymail.WakePrefix + "cup")
		wake = !at.IsZero() && !at.After(h.clock.Now())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !wake {
		t.Fatal("the tournament's wake entry is not due: nothing would open the round")
	}
	for _, m := range h.mails() {
		if strings.Contains(m.Subject, "round 2") {
			t.Fatalf("a round 2 mail before the round opened: %s", m.To)
		}
	}
	h.restart()
	h.tick()
	tr = h.tour("cup")
	if len(tr.Rounds) != 2 || tr.Opening || tr.Status != tournament.StatusRunning {
		t.Fatalf("after Tick: %d rounds, opening %v, %s", len(tr.Rounds), tr.Opening, tr.Status)
	}
	ms := h.mails()
	for _, e := range tr.Entrants {
		m := h.mailTo(filterKind(ms, "tournament"), e.Address)
		contains(t, m.Subject, "round 2")
	}
	for _, m := range tr.Rounds[1].Matches {
		if m.GameID == "" {
			continue
		}
		if g := h.game(m.GameID); g.Status != StatusRunning {
			t.Fatalf("round 2 game %s is %s", m.GameID, g.Status)
		}
	}
	h.tick()
	if again := h.tour("cup"); len(again.Rounds) != 2 {
		t.Fatalf("a second Tick opened round %d", len(again.Rounds))
	}
	for _, m := range h.mails() {
		if m.Kind == "tournament" {
			t.Fatalf("a second Tick mailed %s: %s", m.To, m.Subject)
		}
	}
	if err := tournament.Replay(tr); err != nil {
		t.Fatal(err)
	}
}

// filterKind keeps the mails of one kind.
func filterKind(ms []*Outgoing, kind string) []*Outgoing {
	var out []*Outgoing
	for _, m := range ms {
		if m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}
