package referee

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
	"github.com/pbem-referee/referee/store"
)

func (h *harness) player(addr string) *Player {
	h.t.Helper()
	var p *Player
	if err := h.db.View(func(tx *store.Tx) error {
		var err error
		p, err = loadPlayer(tx, addr)
		return err
	}); err != nil {
		h.t.Fatal(err)
	}
	return p
}

func (h *harness) tour(id string) *tournament.Tournament {
	h.t.Helper()
	var t *tournament.Tournament
	if err := h.db.View(func(tx *store.Tx) error {
		var err error
		t, err = bymail.Record(tx, id)
		return err
	}); err != nil {
		h.t.Fatal(err)
	}
	return t
}

// asPlayer sends a mail from a registered player with their player tag.
func (h *harness) asPlayer(addr, text string) Outcome {
	h.t.Helper()
	return h.sendAs(Request{From: addr, Kind: "player", Secret: h.player(addr).Secret, Text: text})
}

func checkWidth(t *testing.T, ms []*Outgoing) {
	t.Helper()
	for _, m := range ms {
		if m.Kind != "tournament" {
			continue // the games' own mails are tested with the games
		}
		for _, l := range strings.Split(m.Body, "\n") {
			if utf8.RuneCountInString(l) > 80 {
				t.Errorf("mail to %s (%s) has a line of %d columns:\n%s", m.To, m.Subject, utf8.RuneCountInString(l), l)
			}
		}
	}
}

// tourMails keeps the tournament's own mails.
func tourMails(ms []*Outgoing) []*Outgoing {
	var out []*Outgoing
	for _, m := range ms {
		if m.Kind == "tournament" {
			out = append(out, m)
		}
	}
	return out
}

func orgResults(t *testing.T, h *harness) string {
	t.Helper()
	var b strings.Builder
	for _, m := range h.mails() {
		if m.To == org {
			b.WriteString(m.Body + "\n")
		}
	}
	return b.String()
}

// TestTournamentByMail runs a Swiss tournament of the toy game by mail:
// sign-up (players and the organiser's ENTER), the start, adjudication by
// the bots, a forfeit, a withdrawal, standings mails in the players'
// languages at 80 columns, the end with the seed, and the replay of every
// pairing.
func TestTournamentByMail(t *testing.T) {
	h := newHarness(t)
	out := h.org("NEW TOURNAMENT cup game=toy rounds=3 deadline=72h rounds=3 points=1,0.5,0")
	if out.Status != "applied" {
		t.Fatalf("%+v", out)
	}
	res := orgResults(t, h)
	contains(t, res, "NEW TOURNAMENT cup", "swiss", "Seed commitment")
	players := []string{"ann@p.test", "bob@p.test", "cat@p.test", "dan@p.test"}
	langs := []string{"en", "it", "fr", "nl"}
	for i, p := range players {
		h.sendAs(Request{From: p, Text: "REGISTER " + strings.Split(p, "@")[0] + " " + langs[i]})
	}
	h.mails()
	for _, p := range players {
		h.asPlayer(p, "JOIN cup")
	}
	ms := h.mails()
	checkWidth(t, ms)
	contains(t, h.mailTo(ms, "ann@p.test").Body, "Points by place: 1/0.5/0", "buchholz", "STANDINGS cup")
	contains(t, h.mailTo(ms, "bob@p.test").Body, "sei iscritto")
	// Joining twice, and an unknown tournament.
	h.asPlayer("ann@p.test", "JOIN cup\nSTANDINGS nosuch")
	ms = h.mails()
	contains(t, h.mailTo(ms, "ann@p.test").Body, "already in tournament cup", "no tournament nosuch")
	// The organiser lists a fifth player.
	h.org("ENTER cup eve@p.test Eve en")
	contains(t, orgResults(t, h), "eve@p.test entered in cup\n(5 entrants)")
	// A stranger cannot run the organiser's commands.
	out = h.sendAs(Request{From: "mallory@p.test", Kind: "org", Secret: "orgsecretorgsecret", Text: "START cup"})
	if out.Status == "applied" || h.tour("cup").Status != tournament.StatusSignup {
		t.Fatalf("forged organiser mail applied: %+v", out)
	}
	h.org("START cup")
	res = orgResults(t, h)
	contains(t, res, "cup started: round 1 of 3 open, 3 games")
	tr := h.tour("cup")
	if len(tr.Rounds) != 1 || len(tr.Rounds[0].Matches) != 3 {
		t.Fatalf("round 1: %+v", tr.Rounds)
	}
	ms = h.mails()
	checkWidth(t, ms)
	// Sign-up is closed now.
	h.sendAs(Request{From: "fay@p.test", Text: "REGISTER fay"})
	h.mails()
	h.asPlayer("fay@p.test", "JOIN cup")
	contains(t, h.mailTo(h.mails(), "fay@p.test").Body, "Sign-up for tournament cup is closed")

	var games []string
	for _, m := range tr.Rounds[0].Matches {
		if m.State == tournament.MatchBye {
			continue
		}
		games = append(games, m.GameID)
		g := h.game(m.GameID)
		if g.Status != StatusRunning || !g.Ordered {
			t.Fatalf("game %s: %s ordered %v", m.GameID, g.Status, g.Ordered)
		}
		// The seats are in the drawn order.
		for i, e := range m.Seats {
			if g.Seats[i].Address != tr.Entrants[e].Address {
				t.Fatalf("game %s seat %d is %s, drawn %s", m.GameID, i, g.Seats[i].Address, tr.Entrants[e].Address)
			}
		}
	}
	// The bots finish game 1; game 2 is forfeited by its first seat.
	h.org("ADJUDICATE " + games[0])
	contains(t, orgResults(t, h), "the bots finish the game")
	if g := h.game(games[0]); g.Status != StatusOver {
		t.Fatalf("adjudicated game is %s", g.Status)
	}
	loser := h.game(games[1]).Seats[0].Address
	h.org("FORFEIT " + games[1] + " " + loser)
	ms = h.mails()
	res = ""
	for _, m := range ms {
		if m.To == org {
			res += m.Body
		}
	}
	contains(t, res, "forfeits")
	tr = h.tour("cup")
	if len(tr.Rounds) != 2 {
		t.Fatalf("round 2 did not open: %+v", tr.Rounds)
	}
	if tr.Rounds[0].Matches[0].State != tournament.MatchAdjudicated || tr.Rounds[0].Matches[1].State != tournament.MatchForfeit {
		t.Fatalf("states %+v", tr.Rounds[0].Matches)
	}
	checkWidth(t, ms)
	var sawStandings bool
	for _, m := range ms {
		if strings.Contains(m.Body, "cup after round 1") {
			sawStandings = true
			contains(t, m.Body, "Tie-breaks", "W-D-L")
		}
	}
	if !sawStandings {
		for _, m := range ms {
			t.Log(m.To, m.Subject)
		}
		t.Fatal("no standings mail after round 1")
	}
	// The forfeiting player withdraws: their round 2 game is forfeited.
	h.asPlayer(loser, "WITHDRAW cup")
	contains(t, h.mailTo(h.mails(), loser).Body, "withdrawn from tournament cup")
	tr = h.tour("cup")
	if e := tr.Entrant(loser); e == nil || e.Withdrawn != 3 {
		t.Fatalf("withdrawn entrant %+v", e)
	}
	// The rest: the bots finish every open game until the end.
	for round := 0; round < 5 && h.tour("cup").Status != tournament.StatusOver; round++ {
		tr = h.tour("cup")
		for _, m := range tr.Rounds[len(tr.Rounds)-1].Matches {
			if !m.Decided() {
				h.org("ADJUDICATE " + m.GameID)
			}
		}
	}
	tr = h.tour("cup")
	if tr.Status != tournament.StatusOver || len(tr.Rounds) != 3 {
		t.Fatalf("status %s after %d rounds", tr.Status, len(tr.Rounds))
	}
	for _, m := range tr.Rounds[2].Matches {
		for _, e := range m.Seats {
			if tr.Entrants[e].Address == loser {
				t.Fatal("withdrawn entrant paired in round 3")
			}
		}
	}
	ms = h.mails()
	checkWidth(t, ms)
	final := ""
	for _, m := range tourMails(ms) {
		if m.To == "bob@p.test" {
			final += m.Body
		}
	}
	contains(t, final, "è finito", tr.Seed, "referee tournament replay cup")
	var danBodies string
	for _, m := range tourMails(ms) {
		if m.To == "dan@p.test" {
			danBodies += m.Body
		}
	}
	contains(t, danBodies, "Eindstand:", "ronde 3 van 3")
	if err := tournament.Replay(tr); err != nil {
		t.Fatalf("replay: %v", err)
	}
	// Ratings moved for the games that were played.
	h.asPlayer("ann@p.test", "RATING")
	contains(t, h.mailTo(h.mails(), "ann@p.test").Body, "no rating yet") // a forfeit and a bye rate nothing
	h.asPlayer("eve@p.test", "RATING")
	contains(t, h.mailTo(h.mails(), "eve@p.test").Body, "Bid & Roll", "two-player", "Glicko-2")
	// STANDINGS any time.
	h.asPlayer("cat@p.test", "STANDINGS cup")
	contains(t, h.mailTo(h.mails(), "cat@p.test").Body, "(final)")
}

func TestTournamentOrganiserErrors(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct{ cmd, want string }{
		{"NEW TOURNAMENT", "usage: NEW TOURNAMENT"},
		{"NEW TOURNAMENT x game=toy", "tournament id"},
		{"NEW TOURNAMENT cup", "usage: NEW TOURNAMENT"},
		{"NEW TOURNAMENT cup game=chess", "chess"},
		{"NEW TOURNAMENT cup game=toy format=ladder", "format"},
		{"NEW TOURNAMENT cup game=toy rounds=0", "rounds=0"},
		{"NEW TOURNAMENT cup game=toy tiebreaks=coin", "tie-break"},
		{"NEW TOURNAMENT cup game=toy rounds=2 colour=blue", "colour"},
		{"START nosuch", "no tournament"},
		{"FORFEIT g1 ann", "not a tournament game"},
	} {
		h.org(c.cmd)
		contains(t, orgResults(t, h), c.want)
	}
	h.org("NEW TOURNAMENT cup game=toy")
	h.mails()
	h.org("START cup")
	contains(t, orgResults(t, h), "0 entrants")
	h.org("NEW TOURNAMENT cup game=toy")
	contains(t, orgResults(t, h), "already exists")
}

// TestTournamentLateRoundAndReplacement: tables of 3 (the toy game), a
// round deadline: once it passes the organiser gets the late games, once;
// EXTEND moves it; REPLACE hands an entrant's place and open seat to a
// newcomer, whose history is the entrant's.
func TestTournamentLateRoundAndReplacement(t *testing.T) {
	h := newHarness(t)
	h.org("NEW TOURNAMENT tab game=toy format=tables table=3 rounds=2 deadline=48h public")
	contains(t, orgResults(t, h), "tables of 3", "points 2/1/0")
	for _, p := range []string{"a", "b", "c", "d", "e", "f"} {
		h.org("ENTER tab " + p + "@p.test " + strings.ToUpper(p))
	}
	h.org("START tab")
	contains(t, orgResults(t, h), "tab started: round 1 of 2 open, 2 games")
	tr := h.tour("tab")
	for _, m := range tr.Rounds[0].Matches {
		if len(m.Seats) != 3 {
			t.Fatalf("table of %d", len(m.Seats))
		}
	}
	// Before the deadline: nothing; after it: the late list, once.
	h.clock.Advance(47 * time.Hour)
	h.tick()
	if strings.Contains(orgResults(t, h), "the deadline has passed") {
		t.Fatal("late list before the deadline")
	}
	h.clock.Advance(2 * time.Hour)
	h.tick()
	late := orgResults(t, h)
	contains(t, late, "tab round 1", "tabr1t1: waiting for", "tabr1t2: waiting for", "EXTEND tab <hours>")
	h.clock.Advance(time.Hour)
	h.tick()
	if strings.Contains(orgResults(t, h), "the deadline has passed") {
		t.Fatal("late list sent twice")
	}
	h.org("EXTEND tab 24h")
	contains(t, orgResults(t, h), "Round 1 of tab is now due")
	h.clock.Advance(25 * time.Hour)
	h.tick()
	contains(t, orgResults(t, h), "the deadline has passed")
	// A replacement takes a's place and open seat.
	old := tr.Entrants[0].Address
	var gid string
	for _, m := range tr.Rounds[0].Matches {
		for _, e := range m.Seats {
			if e == 0 {
				gid = m.GameID
			}
		}
	}
	h.org("REPLACE tab " + old + " zed@p.test Zed")
	contains(t, orgResults(t, h), "zed@p.test now plays\nfor "+old)
	if g := h.game(gid); g.SeatOfAddress("zed@p.test") < 0 || g.SeatOfAddress(old) >= 0 {
		t.Fatalf("the open seat did not pass to the replacement: %+v", g.Seats)
	}
	tr = h.tour("tab")
	if e := tr.Entrant("zed@p.test"); e == nil || e.ID != 0 || e.Previous[0] != old {
		t.Fatalf("replacement entrant %+v", e)
	}
	// Who played which game (issue 24): the standings mark the place
	// that changed hands and name both players with their rounds.
	h.org("STANDINGS tab")
	contains(t, orgResults(t, h), "+ Zed plays for A from round 1.")
	h.org("ADJUDICATE tabr1t1\nADJUDICATE tabr1t2")
	tr = h.tour("tab")
	if len(tr.Rounds) != 2 || tr.Rounds[0].Matches[0].State != tournament.MatchDone && tr.Rounds[0].Matches[0].State != tournament.MatchAdjudicated {
		t.Fatalf("rounds %+v", tr.Rounds)
	}
	// Places at a table of 3 score 2, 1, 0: the points add up.
	total := 0.0
	for _, s := range tr.Standings() {
		total += s.Points
	}
	if total != 6 {
		t.Fatalf("points after round 1 add up to %v, want 6", total)
	}
	// The round 2 mails carry the standings; STANDINGS works any time.
	ms := tourMails(h.mails())
	checkWidth(t, ms)
	contains(t, h.mailTo(ms, "zed@p.test").Body, "round 2 of 2", "tab after round 1")
	// A second replacement, in round 2: both hand-overs are named.
	h.org("REPLACE tab zed@p.test yan@p.test Yan\nSTANDINGS tab")
	contains(t, orgResults(t, h), "+ Zed plays for A from round 1.", "+ Yan plays for Zed from round 2 (Zed played rounds 1-1).")
}

// TestTournamentScheduledRounds: with late=adjudicate the rounds follow the
// deadline: at each one the bots finish the late games and the next round
// opens, to the end, with nobody writing a move.
func TestTournamentScheduledRounds(t *testing.T) {
	h := newHarness(t)
	h.org("NEW TOURNAMENT sched game=toy rounds=2 deadline=7d late=adjudicate")
	for _, p := range []string{"a", "b", "c", "d"} {
		h.org("ENTER sched " + p + "@p.test " + strings.ToUpper(p))
	}
	h.org("START sched")
	for i := 0; i < 3 && h.tour("sched").Status != tournament.StatusOver; i++ {
		h.clock.Advance(7*24*time.Hour + time.Minute)
		h.tick()
	}
	tr := h.tour("sched")
	if tr.Status != tournament.StatusOver || len(tr.Rounds) != 2 {
		t.Fatalf("status %s after %d rounds", tr.Status, len(tr.Rounds))
	}
	for _, rd := range tr.Rounds {
		for _, m := range rd.Matches {
			if m.State != tournament.MatchAdjudicated && m.State != tournament.MatchDone {
				t.Fatalf("round %d: %s", rd.N, m.State)
			}
		}
	}
	h.org("NEW TOURNAMENT bad game=toy late=never")
	contains(t, orgResults(t, h), "late=")
}

// TestTournamentClosingDate: sign-up closes at the date given; the clock
// then starts the tournament by itself; a late JOIN is refused; an entrant
// who withdraws during sign-up is simply dropped.
func TestTournamentClosingDate(t *testing.T) {
	h := newHarness(t)
	h.org("NEW TOURNAMENT open game=toy rounds=1 close=2026-11-25T12:00:00Z")
	contains(t, orgResults(t, h), "NEW TOURNAMENT open")
	for _, p := range []string{"ann@p.test", "bob@p.test", "cat@p.test", "dan@p.test"} {
		h.sendAs(Request{From: p, Text: "REGISTER " + strings.Split(p, "@")[0]})
		h.asPlayer(p, "JOIN open")
	}
	h.asPlayer("dan@p.test", "WITHDRAW open")
	contains(t, h.mailTo(tourMails(h.mails()), "dan@p.test").Subject, "you are in") // the confirmation
	if n := len(h.tour("open").Entrants); n != 3 {
		t.Fatalf("%d entrants after a withdrawal during sign-up", n)
	}
	h.clock.Advance(24 * time.Hour) // 2026-11-24 09:00: still open
	h.tick()
	if h.tour("open").Status != tournament.StatusSignup {
		t.Fatal("started before the closing date")
	}
	h.clock.Advance(28 * time.Hour) // past the closing date
	h.tick()
	tr := h.tour("open")
	if tr.Status != tournament.StatusRunning || len(tr.Rounds) != 1 {
		t.Fatalf("not started at the closing date: %s, %d rounds", tr.Status, len(tr.Rounds))
	}
	h.mails()
	h.asPlayer("dan@p.test", "JOIN open")
	contains(t, h.mailTo(h.mails(), "dan@p.test").Body, "Sign-up for tournament open is closed")
}
