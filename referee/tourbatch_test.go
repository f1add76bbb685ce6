package referee

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
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

// TestTournamentOpeningStuckBatchToldOnce (issue 24): a game of a later
// batch fails to open (an error, not a stop), generated at each batch in
// turn, in each of the organiser's languages: the batches before it
// stand, that batch's unit of work rolls back alone (its games do not
// exist) and the round stays opening; the organiser is told once, in
// their language, what failed, how many games are open and that the
// referee tries again; the Ticks before the retry time do nothing and
// the tries after it that fail again mail nobody, each waiting longer
// (stuckRetry); once the failure is gone, the next try opens the rest,
// every entrant is told once, and the organiser hears that the round is
// open. A failure in the first batch still undoes the whole round
// (TestTournamentStartAllOrNone).
func TestTournamentOpeningStuckBatchToldOnce(t *testing.T) {
	stuckWords := map[string][]string{
		"en": {"round 1 is stuck while opening", "%d of its %d games are open", "round 1 is open now"},
		"it": {"il turno 1 è bloccato in apertura", "%d delle sue %d partite sono aperte", "il turno 1 ora è aperto"},
		"fr": {"la ronde 1 est bloquée à l'ouverture", "%d de ses %d parties sont ouvertes", "la ronde 1 est ouverte"},
		"nl": {"ronde 1 blijft steken bij het openen", "%d van haar %d partijen zijn open", "ronde 1 is nu open"},
	}
	for _, lang := range []string{"en", "it", "fr", "nl"} {
		for _, n := range []int{8, 9} {
			for failAt := 2; failAt <= n/2; failAt++ {
				t.Run(fmt.Sprintf("%s/%d/batch%d", lang, n, failAt), func(t *testing.T) {
					stuckBatch(t, lang, n, failAt, stuckWords[lang])
				})
			}
		}
	}
}

// stuckBatch: START of n entrants in batches of one game, the game of
// batch failAt failing until the test lifts it.
func stuckBatch(t *testing.T, lang string, n, failAt int, words []string) {
	h := newHarness(t)
	h.r.openBatch = 1
	text := fmt.Sprintf("NEW TOURNAMENT cup game=toy rounds=2 lang=%s\n", lang)
	for i := 0; i < n; i++ {
		text += fmt.Sprintf("ENTER cup p%d@p.test P%d\n", i, i)
	}
	h.org(text)
	h.mails()
	calls := 0
	h.r.openGameHook = func(string) error {
		if calls++; calls >= failAt {
			return errors.New("injected failure")
		}
		return nil
	}
	orgMails := func(ms []*Outgoing) (bodies []string) {
		for _, m := range ms {
			if m.To == org {
				fits(t, "the organiser's mail", m.Body)
				bodies = append(bodies, strings.Join(strings.Fields(m.Body), " "))
			}
		}
		return bodies
	}
	h.org("START cup")
	sent := h.mails()
	tr := h.tour("cup")
	before := fmt.Sprintf("cupr1t%d", failAt-1)
	if len(tr.Rounds) != 1 || !tr.Opening || lastGame(tr.Rounds[0]) != before || tr.Stuck == nil || tr.Stuck.Tries != 1 {
		t.Fatalf("after the failure: %d rounds, opening %v, last game %q, stuck %+v", len(tr.Rounds), tr.Opening, lastGame(tr.Rounds[0]), tr.Stuck)
	}
	h.noGame(fmt.Sprintf("cupr1t%d", failAt))
	// The organiser's mails: the answer to START, and the failure.
	told := orgMails(sent)
	if len(told) != 2 {
		t.Fatalf("the organiser got %d mails:\n%s", len(told), strings.Join(told, "\n---\n"))
	}
	told = slices.DeleteFunc(told, func(b string) bool { return !strings.Contains(b, words[0]) })
	// The failure in words (its class), never the raw error: that is the
	// log's.
	if len(told) != 1 || !strings.Contains(told[0], words[0]) || !strings.Contains(told[0], fmt.Sprintf(words[1], failAt-1, n/2)) ||
		strings.Contains(told[0], "injected failure") || !strings.Contains(told[0], fmt.Sprintf("table %d", failAt)) && lang == "en" {
		t.Fatalf("the organiser was told %d times:\n%s", len(told), strings.Join(told, "\n---\n"))
	}
	// Before the retry time: nothing is tried.
	h.clock.Advance(30 * time.Second)
	h.tick()
	if ms := h.mails(); len(ms) != 0 || calls != failAt {
		t.Fatalf("a Tick before the retry time: %d mails, %d tries", len(ms), calls-failAt)
	}
	// Tries that fail again: nobody is mailed, each waits longer.
	wait := time.Minute
	for try := 2; try <= 4; try++ {
		h.clock.Advance(wait)
		h.tick()
		if ms := h.mails(); len(ms) != 0 {
			t.Fatalf("try %d mailed %d times: %s", try, len(ms), ms[0].Body)
		}
		tr := h.tour("cup")
		if tr.Stuck == nil || tr.Stuck.Tries != try || lastGame(tr.Rounds[0]) != before || !tr.Opening {
			t.Fatalf("try %d: stuck %+v, last game %q", try, tr.Stuck, lastGame(tr.Rounds[0]))
		}
		wait *= 2
		if got := tr.Stuck.Retry.Sub(h.clock.Now()); got != wait {
			t.Fatalf("try %d: next in %v, want %v", try, got, wait)
		}
	}
	h.r.openGameHook = nil
	h.clock.Advance(wait)
	h.tick()
	rest := h.mails()
	tr = h.tour("cup")
	if tr.Opening || tr.Stuck != nil {
		t.Fatalf("still opening after the failure passed: stuck %+v", tr.Stuck)
	}
	if told := orgMails(rest); len(told) != 1 || !strings.Contains(told[0], words[2]) {
		t.Fatalf("the organiser was told of the round open %d times:\n%s", len(told), strings.Join(told, "\n---\n"))
	}
	oneEach(t, h, tr, 1, append(sent, rest...))
}

// TestTournamentOpeningRefusesChanges (issue 24): while a round is still
// opening (the process stopped after its first batch), every organiser's
// command whose row does not say it may run then (bymail.Command.Opening:
// the changes to the entrants or the round, ENTER, WITHDRAW, REPLACE,
// SWAP, BYE, REPAIR today) is refused in the organiser's language, saying
// the round is opening, and changes nothing; once a Tick finished the
// round, the same commands are answered as usual. The lines come from the
// table: a new row without Opening fails here until it has a line.
func TestTournamentOpeningRefusesChanges(t *testing.T) {
	says := map[string]string{"en": "is still opening", "it": "si sta ancora aprendo", "fr": "encore en cours d'ouverture",
		"nl": "wordt nog geopend"}
	sample := map[string]string{"ENTER": "ENTER cup late@p.test Late", "WITHDRAW": "WITHDRAW cup p1@p.test",
		"REPLACE": "REPLACE cup p2@p.test new@p.test New", "SWAP": "SWAP cup P0 P5", "BYE": "BYE cup P3 3",
		"REPAIR": "REPAIR cup"}
	var lines []string
	for _, row := range bymail.OrgCommands {
		line, ok := sample[row.Keyword]
		switch {
		case !row.Opening && !ok:
			t.Errorf("%s is refused while a round opens: give it a line here", row.Keyword)
		case row.Opening && ok:
			t.Errorf("%s runs while a round opens (Opening) but is listed as refused", row.Keyword)
		case ok:
			lines = append(lines, line)
		}
	}
	if len(lines) < 6 {
		t.Fatalf("%d commands refused while a round opens: %q", len(lines), lines)
	}
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
