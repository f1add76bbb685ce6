package referee

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/referee/tournament"
)

// failOpening makes the opening of one tournament game fail (the games
// before it in the round are opened first: a failure midway).
func (h *harness) failOpening(id string) {
	h.r.openGameHook = func(g string) error {
		if g == id {
			return errors.New("injected failure")
		}
		return nil
	}
}

// noGame fails when a game exists.
func (h *harness) noGame(id string) {
	h.t.Helper()
	if g, err := h.r.GameRecord(id); err == nil {
		h.t.Fatalf("game %s exists (%s): a half-done round", id, g.Status)
	}
}

// TestTournamentStartAllOrNone (issue 25: every organiser command is
// atomic; a START that failed midway left 14 games running and the
// tournament still in sign-up): START fails at each table of round 1 in
// turn, after the tables before it were opened; each time nothing of the
// START is left (no game, no round, no mail to an entrant, sign-up still
// open) while the other commands of the same mail are applied once, and
// the organiser reads why. Then START succeeds.
func TestTournamentStartAllOrNone(t *testing.T) {
	const tables = 4
	for k := 1; k <= tables; k++ {
		t.Run(fmt.Sprintf("table%d", k), func(t *testing.T) {
			h := newHarness(t)
			text := "NEW TOURNAMENT cup game=toy rounds=2\n"
			for i := 0; i < 2*tables-1; i++ {
				text += fmt.Sprintf("ENTER cup p%d@p.test P%d\n", i, i)
			}
			h.org(text)
			h.mails()
			h.failOpening(fmt.Sprintf("cupr1t%d", k))
			h.org("ENTER cup last@p.test Last\nSTART cup\nSTANDINGS cup")
			ms := h.mails()
			body := h.mailTo(ms, org).Body
			contains(t, body, "last@p.test entered in cup", fmt.Sprintf("START: no round drawn: round 1 table %d: its game could not be created", k),
				"P0")
			lacks(t, body, "injected") // the error's own words go to the log only
			for _, m := range ms {
				if m.To != org && m.To != "last@p.test" {
					t.Errorf("a mail to %s from a START undone:\n%s", m.To, m.Body)
				}
			}
			tr := h.tour("cup")
			if tr.Status != tournament.StatusSignup || len(tr.Rounds) != 0 || len(tr.Entrants) != 2*tables {
				t.Fatalf("after a failed START: %s, %d rounds, %d entrants", tr.Status, len(tr.Rounds), len(tr.Entrants))
			}
			for i := 1; i <= tables; i++ {
				h.noGame(fmt.Sprintf("cupr1t%d", i))
			}
			// The last entrant was entered once: one confirmation.
			if n := strings.Count(body, "last@p.test entered"); n != 1 {
				t.Fatalf("ENTER answered %d times:\n%s", n, body)
			}
			h.r.openGameHook = nil
			h.org("START cup")
			contains(t, orgResults(t, h), fmt.Sprintf("cup started: round 1 of 2 open, %d games", tables))
			for i := 1; i <= tables; i++ {
				if g := h.game(fmt.Sprintf("cupr1t%d", i)); g.Status != StatusRunning {
					t.Fatalf("game %s is %s", g.ID, g.Status)
				}
			}
		})
	}
}

// TestTournamentRoundOpeningAllOrNone: the games that complete round 1 end
// (the bots finish them for ADJUDICATE) and round 2 fails to open at each
// of its tables in turn: the games' ends and round 1's results stand,
// nothing of round 2 is left, the organiser hears why; SCHEDULE <id>
// opens it once the failure is gone.
func TestTournamentRoundOpeningAllOrNone(t *testing.T) {
	for k := 1; k <= 2; k++ {
		t.Run(fmt.Sprintf("table%d", k), func(t *testing.T) {
			h := newHarness(t)
			h.org("NEW TOURNAMENT cup game=toy rounds=2\nENTER cup a@p.test A\nENTER cup b@p.test B\n" +
				"ENTER cup c@p.test C\nENTER cup d@p.test D\nSTART cup")
			h.mails()
			h.failOpening(fmt.Sprintf("cupr2t%d", k))
			h.org("ADJUDICATE cupr1t1\nADJUDICATE cupr1t2")
			ms := h.mails()
			var res strings.Builder
			for _, m := range ms {
				if m.To == org {
					res.WriteString(m.Body)
				} else if m.Kind == "tournament" {
					t.Errorf("a tournament mail to %s from a round undone:\n%s", m.To, m.Body)
				}
			}
			contains(t, res.String(), "the bots finish the game", fmt.Sprintf("round 2 table %d: its game could not be created", k))
			lacks(t, res.String(), "injected") // the error's own words go to the log only
			tr := h.tour("cup")
			if len(tr.Rounds) != 1 || !tr.Rounds[0].Complete() || tr.Status != tournament.StatusRunning {
				t.Fatalf("after a failed round 2: %d rounds, complete %v, %s", len(tr.Rounds), tr.Rounds[0].Complete(), tr.Status)
			}
			for _, id := range []string{"cupr1t1", "cupr1t2"} {
				if g := h.game(id); g.Status != StatusOver {
					t.Fatalf("game %s is %s", id, g.Status)
				}
			}
			h.noGame("cupr2t1")
			h.noGame("cupr2t2")
			h.r.openGameHook = nil
			h.org("SCHEDULE cup")
			h.mails()
			if tr := h.tour("cup"); len(tr.Rounds) != 2 {
				t.Fatalf("round 2 not opened: %d rounds", len(tr.Rounds))
			}
			for _, id := range []string{"cupr2t1", "cupr2t2"} {
				if g := h.game(id); g.Status != StatusRunning {
					t.Fatalf("game %s is %s", id, g.Status)
				}
			}
		})
	}
}
