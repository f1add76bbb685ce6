package referee

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
)

// TestTournamentOpeningInBatchesCrash (issue 24: a round is opened in
// batches, each its own unit of work, bymail.openBatch): the process
// stops after each batch's commit in turn (the first game of the next
// batch panics), at START (round 1) and at the opening of round 2 that the
// organiser's last ADJUDICATE of round 1 or the round's deadline
// (late=adjudicate, a Tick) sets off; a new process's Tick finishes the
// round. Every entrant then has exactly one round mail and one game of
// the round (or their bye), every game one start mail a seat, the round
// is no longer opening, a second Tick does nothing, and the tournament
// replays. Swiss and tables, an even and an odd field (a bye), batches
// of 2 games.
func TestTournamentOpeningInBatchesCrash(t *testing.T) {
	const batch = 2
	for _, format := range []string{"swiss", "tables"} {
		for _, n := range []int{10, 11} {
			for _, by := range []string{"start", "adjudicate", "deadline"} {
				// after each batch but the last (a stop after the last
				// one is TestTournamentRoundLeftDueOpensOnTick's)
				for after, more := 1, true; more; after++ {
					t.Run(fmt.Sprintf("%s/%d/%s/after%d", format, n, by, after), func(t *testing.T) {
						more = openingCrash(t, format, n, by, batch, after)
					})
				}
			}
		}
	}
}

// openingCrash: the round opening set off by "by" stops after batch
// "after" committed; a new process's Tick finishes it. It reports whether
// the round has a batch after "after" (false: no stop, nothing checked).
func openingCrash(t *testing.T, format string, n int, by string, batch, after int) bool {
	h := newHarness(t)
	h.r.openBatch = batch
	text := fmt.Sprintf("NEW TOURNAMENT cup game=toy format=%s rounds=3 deadline=24h late=adjudicate\n", format)
	for i := 0; i < n; i++ {
		text += fmt.Sprintf("ENTER cup p%d@p.test P%d\n", i, i)
	}
	h.org(text)
	round := 1
	var sent []*Outgoing
	var games []string
	if by != "start" {
		h.org("START cup")
		h.mails()
		round = 2
		for _, m := range h.tour("cup").Rounds[0].Matches {
			if m.GameID != "" {
				games = append(games, m.GameID)
			}
		}
		if by == "adjudicate" {
			h.org("ADJUDICATE " + strings.Join(games[:len(games)-1], "\nADJUDICATE "))
			h.mails()
		}
		defer func() {
			for _, id := range games {
				if g := h.game(id); g.Status == StatusRunning {
					t.Errorf("round 1 game %s still running", id)
				}
			}
		}()
	} else {
		h.mails()
	}
	opened := 0
	h.r.openGameHook = func(string) error {
		if opened++; opened == after*batch+1 {
			panic(errCrash{})
		}
		return nil
	}
	crashed := crashing(func() {
		switch by {
		case "start":
			h.org("START cup")
			sent = append(sent, h.mails()...)
		case "adjudicate":
			h.org("ADJUDICATE " + games[len(games)-1])
		default:
			h.clock.Advance(25 * time.Hour)
			h.tick()
		}
	})
	if !crashed {
		if opened > after*batch {
			t.Fatalf("no crash (%d games opened)", opened)
		}
		return false // the round has no batch after this one
	}
	sent = append(sent, h.mails()...)
	tr := h.tour("cup")
	if len(tr.Rounds) != round || !tr.Opening {
		t.Fatalf("after the stop: %d rounds (want %d), opening %v", len(tr.Rounds), round, tr.Opening)
	}
	rd := tr.Rounds[round-1]
	open := 0
	for _, m := range rd.Matches {
		if m.GameID != "" {
			open++
		}
	}
	if open != after*batch {
		t.Fatalf("after the stop: %d games of round %d open, want %d (the batches committed)", open, round, after*batch)
	}
	h.r.openGameHook = nil
	h.restart()
	h.tick()
	sent = append(sent, h.mails()...)
	tr = h.tour("cup")
	if len(tr.Rounds) != round || tr.Opening || tr.Status != tournament.StatusRunning {
		t.Fatalf("after Tick: %d rounds, opening %v, %s", len(tr.Rounds), tr.Opening, tr.Status)
	}
	oneEach(t, h, tr, round, sent)
	h.tick()
	if again := h.tour("cup"); len(again.Rounds) != round || again.Opening {
		t.Fatalf("a second Tick: %d rounds, opening %v", len(again.Rounds), again.Opening)
	}
	for _, m := range h.mails() {
		if m.Kind == "tournament" || m.Game != "" {
			t.Fatalf("a second Tick mailed %s: %s", m.To, m.Subject)
		}
	}
	if err := tournament.Replay(tr); err != nil {
		t.Fatal(err)
	}
	return true
}

// lastGame is the id of the last match of rd that has a game.
func lastGame(rd tournament.Round) string {
	id := ""
	for _, m := range rd.Matches {
		if m.GameID != "" {
			id = m.GameID
		}
	}
	return id
}

// oneEach checks round r of tr as opened, against every mail sent since
// before it began: each entrant is seated once (a game or a bye), has one
// round mail, and each seat of each game one mail of it (its start);
// each game is running, its seats as drawn.
func oneEach(t *testing.T, h *harness, tr *tournament.Tournament, r int, sent []*Outgoing) {
	t.Helper()
	rd := tr.Rounds[r-1]
	seated := map[int]int{}
	for _, m := range rd.Matches {
		for _, e := range m.Seats {
			seated[e]++
		}
		if m.State == tournament.MatchBye {
			continue
		}
		if m.GameID == "" {
			t.Fatalf("round %d table %d has no game", r, m.Table)
		}
		g := h.game(m.GameID)
		if g.Status != StatusRunning {
			t.Fatalf("game %s is %s", g.ID, g.Status)
		}
		for i, e := range m.Seats {
			if g.Seats[i].Address != tr.Entrants[e].Address {
				t.Fatalf("game %s seat %d is %s, drawn %s", g.ID, i, g.Seats[i].Address, tr.Entrants[e].Address)
			}
			starts := 0
			for _, o := range sent {
				if o.Game == m.GameID && o.To == tr.Entrants[e].Address {
					starts++
				}
			}
			if starts != 1 {
				t.Errorf("%s: %d start mails of %s, want 1", tr.Entrants[e].Address, starts, m.GameID)
			}
		}
	}
	subject := fmt.Sprintf("round %d", r)
	for _, e := range tr.Entrants {
		if seated[e.ID] != 1 {
			t.Errorf("%s seated %d times in round %d", e.Address, seated[e.ID], r)
		}
		mails := 0
		for _, o := range sent {
			if o.Kind == "tournament" && o.To == e.Address && strings.Contains(o.Subject, subject) {
				mails++
			}
		}
		if mails != 1 {
			t.Errorf("%s: %d round %d mails, want 1", e.Address, mails, r)
		}
	}
}

// TestTournamentOpeningBatchFailsThenTickFinishes (issue 24): a game of a
// later batch fails to open (an error, not a stop): the batches before it
// stand, that batch's unit of work rolls back alone, the round stays
// opening, and once the failure is gone the next Tick finishes the round,
// each entrant told once. A failure in the first batch still undoes the
// whole round (TestTournamentStartAllOrNone).
func TestTournamentOpeningBatchFailsThenTickFinishes(t *testing.T) {
	for _, n := range []int{8, 9} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			h := newHarness(t)
			h.r.openBatch = 1
			text := "NEW TOURNAMENT cup game=toy rounds=2\n"
			for i := 0; i < n; i++ {
				text += fmt.Sprintf("ENTER cup p%d@p.test P%d\n", i, i)
			}
			h.org(text)
			h.mails()
			calls := 0
			h.r.openGameHook = func(string) error {
				if calls++; calls >= 3 {
					return errors.New("injected failure")
				}
				return nil
			}
			h.org("START cup")
			sent := h.mails()
			tr := h.tour("cup")
			if len(tr.Rounds) != 1 || !tr.Opening || lastGame(tr.Rounds[0]) != "cupr1t2" {
				t.Fatalf("after the failure: %d rounds, opening %v, last game %q", len(tr.Rounds), tr.Opening, lastGame(tr.Rounds[0]))
			}
			h.noGame("cupr1t3")
			if _, err := h.r.Tick(context.Background()); err == nil { // still failing: nothing changes
				t.Fatal("a Tick whose batch failed reported no failure")
			}
			sent = append(sent, h.mails()...)
			if tr := h.tour("cup"); lastGame(tr.Rounds[0]) != "cupr1t2" || !tr.Opening {
				t.Fatalf("a failing Tick moved the round: last game %q", lastGame(tr.Rounds[0]))
			}
			h.r.openGameHook = nil
			h.tick()
			sent = append(sent, h.mails()...)
			tr = h.tour("cup")
			if tr.Opening {
				t.Fatal("still opening after Tick")
			}
			oneEach(t, h, tr, 1, sent)
		})
	}
}

// TestTournamentOpeningRefusesChanges (issue 24): while a round is still
// opening (the process stopped after its first batch), the organiser's
// changes to the entrants or the round (ENTER, WITHDRAW, REPLACE, SWAP,
// BYE, REPAIR) are refused in the organiser's language, saying the round
// is opening, and change nothing; once a Tick finished the round, the
// same commands are answered as usual.
func TestTournamentOpeningRefusesChanges(t *testing.T) {
	says := map[string]string{"en": "is still opening", "it": "si sta ancora aprendo", "fr": "encore en cours d'ouverture",
		"nl": "wordt nog geopend"}
	lines := []string{"ENTER cup late@p.test Late", "WITHDRAW cup p1@p.test", "REPLACE cup p2@p.test new@p.test New",
		"SWAP cup P0 P5", "BYE cup P3 3", "REPAIR cup"}
	for lang, want := range says {
		for _, line := range lines {
			t.Run(lang+"/"+strings.Fields(line)[0], func(t *testing.T) {
				h := newHarness(t)
				h.r.openBatch = 1
				text := "NEW TOURNAMENT cup game=toy rounds=3 lang=" + lang + "\n"
				for i := 0; i < 8; i++ {
					text += fmt.Sprintf("ENTER cup p%d@p.test P%d\n", i, i)
				}
				h.org(text)
				h.mails()
				opened := 0
				h.r.openGameHook = func(string) error {
					if opened++; opened == 2 {
						panic(errCrash{})
					}
					return nil
				}
				if !crashing(func() { h.org("START cup") }) {
					t.Fatal("no stop")
				}
				h.r.openGameHook = nil
				h.restart()
				h.mails()
				before := h.tour("cup")
				h.org(line)
				res := strings.Join(strings.Fields(orgResults(t, h)), " ")
				contains(t, res, want, "cup")
				after := h.tour("cup")
				if fmt.Sprint(after.Entrants, after.Rounds) != fmt.Sprint(before.Entrants, before.Rounds) {
					t.Fatalf("%s changed the tournament while its round opened", line)
				}
				h.tick()
				h.mails()
				if h.tour("cup").Opening {
					t.Fatal("still opening after Tick")
				}
				h.org(line)
				if res := strings.Join(strings.Fields(orgResults(t, h)), " "); strings.Contains(res, want) {
					t.Fatalf("%s refused after the round opened:\n%s", line, res)
				}
			})
		}
	}
}
