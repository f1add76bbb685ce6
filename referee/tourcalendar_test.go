package referee

import (
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
)

// TestTournamentCalendarByMail: the organiser sets a calendar at creation
// (start= every= tz=); sign-up closes and round 1 opens on the first date
// by the clock; every entrant reads the dates in their own zone and
// language; the organiser gets the games not yet over a day before the
// deadline; a round over early waits for its date (the standings go out at
// once); SCHEDULE later switches to opening at completion, and a deadline
// then comes from the calendar.
func TestTournamentCalendarByMail(t *testing.T) {
	h := newHarness(t) // the clock: Mon 23 Nov 2026 09:00 UTC
	h.org("NEW TOURNAMENT cal game=toy rounds=3 start=2026-12-01T18:00 every=7d tz=Europe/Rome")
	res := orgResults(t, h)
	contains(t, res, "NEW TOURNAMENT cal", "Rounds open on their dates (Europe/Rome)",
		"round  1: opens Tue 1 Dec 2026 18:00 CET", "due Tue 8 Dec 2026 18:00 CET",
		"round  3: opens Tue 15 Dec 2026 18:00 CET", "due Tue 22 Dec 2026 18:00 CET",
		"Sign-up closes Tue 1 Dec 2026 18:00 CET")
	entrants := map[string]string{"ann@p.test": "Ann en America/New_York", "bob@p.test": "Bob it Europe/Rome",
		"cat@p.test": "Cat fr Europe/Paris", "dan@p.test": "Dan nl Europe/Amsterdam"}
	for _, a := range []string{"ann@p.test", "bob@p.test", "cat@p.test", "dan@p.test"} {
		h.org("ENTER cal " + a + " " + entrants[a])
	}
	ms := tourMails(h.mails())
	checkWidth(t, ms)
	contains(t, h.mailTo(ms, "ann@p.test").Body, "Round  1: Tue 1 Dec 2026 12:00 EST, due Tue 8 Dec 2026 12:00 EST",
		"Sign-up closes Tue 1 Dec 2026 12:00 EST")
	contains(t, h.mailTo(ms, "bob@p.test").Body, "mar 1 dic 2026 18:00 CET")
	contains(t, h.mailTo(ms, "cat@p.test").Body, "mar. 1 déc. 2026 18:00 CET")
	contains(t, h.mailTo(ms, "dan@p.test").Body, "di 1 dec 2026 18:00 CET")

	// Not yet: the day before.
	h.clock.Advance(time.Date(2026, 12, 1, 16, 59, 0, 0, time.UTC).Sub(h.clock.Now()))
	h.tick()
	if h.tour("cal").Status != tournament.StatusSignup {
		t.Fatal("started before its date")
	}
	// 18:00 in Rome is 17:00 UTC: round 1 opens by the clock.
	h.clock.Advance(2 * time.Minute)
	h.tick()
	tr := h.tour("cal")
	if tr.Status != tournament.StatusRunning || len(tr.Rounds) != 1 {
		t.Fatalf("round 1 did not open on its date: %s, %d rounds", tr.Status, len(tr.Rounds))
	}
	if want := time.Date(2026, 12, 8, 17, 0, 0, 0, time.UTC); !tr.Rounds[0].Due.Equal(want) {
		t.Fatalf("round 1 due %v, want the next round's date %v", tr.Rounds[0].Due, want)
	}
	ms = tourMails(h.mails())
	checkWidth(t, ms)
	contains(t, h.mailTo(ms, "ann@p.test").Body, "The round is due Tue 8 Dec 2026 12:00 EST", "Round 2 opens Tue 8 Dec 2026 12:00 EST")
	contains(t, h.mailTo(ms, "bob@p.test").Body, "Il turno scade mar 8 dic 2026 18:00 CET")

	// A day before the deadline the organiser gets the games not over.
	h.clock.Advance(6*24*time.Hour - 2*time.Minute) // Mon 7 Dec 16:59 UTC
	h.tick()
	if res := orgResults(t, h); strings.Contains(res, "not over yet") {
		t.Fatal("warned too early")
	}
	h.clock.Advance(2 * time.Minute)
	h.tick()
	res = orgResults(t, h)
	games := []string{tr.Rounds[0].Matches[0].GameID, tr.Rounds[0].Matches[1].GameID}
	contains(t, res, "cal round 1, due Tue 8 Dec 2026 18:00 CET:", "games not over yet:", games[0], games[1], "waiting for",
		"ADJUDICATE <game>")
	h.tick() // once
	if strings.Contains(orgResults(t, h), "not over yet") {
		t.Fatal("warned twice")
	}

	// The games end before the deadline: round 2 waits for its date, and
	// the standings go out now.
	for _, g := range games {
		h.org("ADJUDICATE " + g)
	}
	tr = h.tour("cal")
	if len(tr.Rounds) != 1 || !tr.Rounds[0].Complete() {
		t.Fatalf("round 2 opened before its date: %d rounds", len(tr.Rounds))
	}
	ms = h.mails()
	res = ""
	for _, m := range ms {
		if m.To == org {
			res += m.Body
		}
	}
	contains(t, res, "cal: round 1 is over", "Round 2 opens Tue 8 Dec 2026 18:00 CET")
	tms := tourMails(ms)
	checkWidth(t, tms)
	contains(t, h.mailTo(tms, "ann@p.test").Body, "round 1 of 3 of cal is over", "cal after round 1",
		"Round 2 opens Tue 8 Dec 2026 12:00 EST")
	contains(t, h.mailTo(tms, "dan@p.test").Subject, "na ronde 1")
	h.clock.Advance(time.Date(2026, 12, 8, 17, 1, 0, 0, time.UTC).Sub(h.clock.Now()))
	h.tick()
	tr = h.tour("cal")
	if len(tr.Rounds) != 2 {
		t.Fatalf("round 2 did not open on its date: %d rounds", len(tr.Rounds))
	}
	tms = tourMails(h.mails())
	if body := h.mailTo(tms, "ann@p.test").Body; strings.Contains(body, "The standings so far") {
		t.Fatalf("the standings twice:\n%s", body)
	}

	// Later the organiser has rounds open at completion; the last round
	// is due one interval after it opens.
	h.org("SCHEDULE cal open=complete warn=off")
	contains(t, orgResults(t, h), "SCHEDULE cal:", "A round opens once the previous one is over",
		"round  2: opened Tue 8 Dec 2026 18:01 CET", "No list of late games")
	for _, m := range h.tour("cal").Rounds[1].Matches {
		if !m.Decided() {
			h.org("ADJUDICATE " + m.GameID)
		}
	}
	tr = h.tour("cal")
	if len(tr.Rounds) != 3 {
		t.Fatalf("round 3 did not open at completion: %d rounds", len(tr.Rounds))
	}
	if want := h.clock.Now().Add(7 * 24 * time.Hour); !tr.Rounds[2].Due.Equal(want) {
		t.Fatalf("round 3 due %v, want %v", tr.Rounds[2].Due, want)
	}
	h.mails()
	h.clock.Advance(7*24*time.Hour + time.Minute)
	h.tick()
	res = orgResults(t, h)
	contains(t, res, "the deadline has passed; games not over")
	if strings.Contains(res, "not over yet") {
		t.Fatal("warned with warn=off")
	}
	// Bad calendars are refused with a reason.
	h.org("SCHEDULE cal dates=2027-01-10,2027-01-03\nSCHEDULE cal every=soon\nNEW TOURNAMENT old game=toy start=2020-01-01")
	contains(t, orgResults(t, h), "is not after the date of round 1", "every=soon", "is past")
}

// TestTournamentSignupClosesBeforeRoundOne: with close= before the first
// date, sign-up closes on its date (a late JOIN is refused) and round 1
// opens on the calendar's; the organiser's START would open it at once.
func TestTournamentSignupClosesBeforeRoundOne(t *testing.T) {
	h := newHarness(t) // Mon 23 Nov 2026 09:00 UTC
	h.org("NEW TOURNAMENT early game=toy rounds=2 close=2026-11-25 start=2026-11-27T12:00 every=3d")
	contains(t, orgResults(t, h), "Sign-up closes Wed 25 Nov 2026 00:00 UTC", "round  1: opens Fri 27 Nov 2026 12:00 UTC")
	h.org("SCHEDULE early start=2026-11-20")
	contains(t, orgResults(t, h), "SCHEDULE: the first round's date (Fri 20 Nov 2026 00:00 UTC) is past")
	for _, p := range []string{"a", "b", "c", "d"} {
		h.org("ENTER early " + p + "@p.test " + strings.ToUpper(p))
	}
	h.mails()
	h.clock.Advance(39*time.Hour + time.Minute) // Wed 25 Nov 00:01
	h.tick()
	tr := h.tour("early")
	if tr.Status != tournament.StatusRunning || len(tr.Rounds) != 0 {
		t.Fatalf("at the closing date: %s, %d rounds", tr.Status, len(tr.Rounds))
	}
	contains(t, orgResults(t, h), "early: sign-up is closed (4 entrants);", "round 1 opens Fri 27 Nov 2026 12:00 UTC")
	h.sendAs(Request{From: "eve@p.test", Text: "REGISTER eve"})
	h.mails()
	h.asPlayer("eve@p.test", "JOIN early")
	contains(t, h.mailTo(h.mails(), "eve@p.test").Body, "Sign-up for tournament early is closed")
	h.clock.Advance(2*24*time.Hour + 12*time.Hour) // Fri 27 Nov 12:01
	h.tick()
	tr = h.tour("early")
	if len(tr.Rounds) != 1 || !tr.Rounds[0].Due.Equal(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)) {
		t.Fatalf("round 1 on its date: %d rounds, %+v", len(tr.Rounds), tr.Rounds)
	}
	ms := tourMails(h.mails())
	checkWidth(t, ms)
	contains(t, h.mailTo(ms, "a@p.test").Body, "round 1 of 2 of early is open", "due Mon 30 Nov 2026 12:00 UTC")
}
