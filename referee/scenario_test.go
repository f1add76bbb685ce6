package referee

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/store"
)

const (
	ann = "ann@example.test"
	bob = "bob@example.test"
	cat = "cat@example.test"
	dan = "dan@example.test"
)

// Invitations, joins, a decline replaced by a new invitation, and the start:
// seat order drawn from the seed and announced with the seed's commitment.
func TestScenarioInvitationsAndJoins(t *testing.T) {
	h := newHarness(t)
	out := h.org("NEW toy id=g1 rounds=1 deadline=24h\nPLAYER ann@example.test Ann en Europe/Rome\nPLAYER bob@example.test Bob\nPLAYER cat@example.test Cat")
	if out.Status != "applied" {
		t.Fatalf("NEW: %+v", out)
	}
	ms := h.mails()
	contains(t, h.mailTo(ms, org).Body, "NEW: created game g1")
	inv := h.mailTo(ms, ann)
	if !strings.HasPrefix(inv.Tag.String(), "g1.0.") || !strings.Contains(inv.Subject, "g1") {
		t.Errorf("invitation subject %q tag %q", inv.Subject, inv.Tag)
	}
	contains(t, inv.Body, "invited by olga@example.test", "JOIN")

	h.send("g1", bob, "NOTIFY every", -1) // bob wants to hear of every join
	h.mails()
	h.send("g1", ann, "JOIN", -1)
	ms = h.mails()
	contains(t, h.mailTo(ms, bob).Body, "Ann has joined")
	h.noMailTo(ms, cat) // under the default NOTIFY a join needs no mail of its own
	if h.game("g1").Status != StatusForming {
		t.Fatal("started with seats missing")
	}
	h.send("g1", cat, "DECLINE", -1)
	ms = h.mails()
	contains(t, h.mailTo(ms, cat).Body, "You declined")
	contains(t, h.mailTo(ms, org).Body, "Cat (cat@example.test) declined")
	if len(h.game("g1").Seats) != 2 {
		t.Fatalf("declined seat kept: %+v", h.game("g1").Seats)
	}
	h.org("INVITE g1 dan@example.test Dan en")
	h.mails()
	h.send("g1", bob, "join", -1)
	h.mails()
	h.send("g1", dan, "JOIN", -1)
	g := h.game("g1")
	if g.Status != StatusRunning || len(g.Seats) != 3 {
		t.Fatalf("not started: %s %+v", g.Status, g.Seats)
	}
	ms = h.mails()
	for _, s := range g.Seats {
		m := h.mailTo(ms, s.Address)
		contains(t, m.Body, "The game starts", g.Commitment, "Seat order, drawn from the game's seed: "+strings.Join(g.Names(), ", "))
	}
	// The seat order is the seed's: shuffling the invitation order with it
	// gives the same order.
	rnd := engine.NewRand(g.Seed + "/seat-order")
	inv3 := []string{"Ann", "Bob", "Dan"}
	rnd.Shuffle(3, func(i, j int) { inv3[i], inv3[j] = inv3[j], inv3[i] })
	if strings.Join(inv3, ",") != strings.Join(g.Names(), ",") {
		t.Errorf("seat order %v, seed gives %v", g.Names(), inv3)
	}
}

// Sealed simultaneous decisions stay hidden until every seat answered, may
// be revised, and are applied in the engine's priority order.
func TestScenarioSealedSimultaneous(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob, cat)
	for _, p := range []string{ann, bob, cat} {
		h.send("g1", p, "NOTIFY every", -1) // every seat sees the resolution
	}
	h.mails()
	out := h.send("g1", ann, "BID 3", -1)
	if out.Status != "queued" { // a sealed bid waits for the others (issue 11, item 3)
		t.Fatalf("bid: %+v", out)
	}
	ms := h.mails()
	contains(t, h.mailTo(ms, ann).Body, "sealed", "Your sealed answer so far: BID 3", "Your turn is complete")
	h.noMailTo(ms, bob) // nothing visible changed for bob
	h.send("g1", ann, "BID 4", -1)
	h.send("g1", bob, "BID 5", -1)
	ms = h.mails()
	lacks(t, h.mailTo(ms, bob).Body, "BID 4")
	h.send("g1", cat, "BID 1", -1)
	ms = h.mails()
	// Applied in priority order: highest bid first (TOY-1).
	g := h.game("g1")
	a, b, c := g.SeatOfAddress(ann), g.SeatOfAddress(bob), g.SeatOfAddress(cat)
	bids := make([]int, 3)
	bids[a], bids[b], bids[c] = 4, 5, 1
	want := fmt.Sprintf("toy.order bids=[%d,%d,%d] order=[%d,%d,%d]", bids[0], bids[1], bids[2], b, a, c)
	for _, p := range []string{ann, bob, cat} {
		contains(t, h.mailTo(ms, p).Body, want)
	}
}

func (h *harness) table(id string) *engine.Table {
	h.t.Helper()
	g := h.game(id)
	var rs []byte
	if g.RulesetSHA != "" {
		h.db.View(func(tx *store.Tx) error {
			var err error
			rs, err = tx.Ruleset(g.RulesetSHA)
			return err
		})
	}
	tb, err := engine.LoadTable(g.Table, rs)
	if err != nil {
		h.t.Fatal(err)
	}
	return tb
}

// A numbered reply picks an option of the last prompt; a stale reply is
// re-validated against the current state.
func TestScenarioNumberedAndStaleReplies(t *testing.T) {
	h := newHarness(t)
	h.org("NEW claim id=c1\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob\nPLAYER cat@example.test Cat")
	for _, p := range []string{ann, bob, cat} {
		h.mails()
		h.send("c1", p, "JOIN", -1)
	}
	g := h.game("c1")
	first := g.Seats[0].Address
	ms := h.mails()
	contains(t, h.mailTo(ms, first).Body, "WHAT YOU NEED TO DO NOW", " 1) CLAIM 1", " 6) PASS")
	old := h.table("c1").Token()
	out := h.send("c1", first, "2", -1)
	if out.Status != "applied" {
		t.Fatalf("numbered: %+v", out)
	}
	contains(t, h.mailTo(h.mails(), first).Body, "ok       2  =>  CLAIM 2")
	second := g.Seats[1].Address
	h.send("c1", second, "CLAIM 3", -1)
	h.mails()
	// The third seat answers the prompt it got at the start (now stale):
	// CLAIM 2 is gone, CLAIM 4 is still fine and is applied.
	third := g.Seats[2].Address
	out = h.send("c1", third, "CLAIM 2 | CLAIM 4", old)
	ms = h.mails()
	body := h.mailTo(ms, third).Body
	contains(t, body, "it answered an older state", "CLAIM 4")
	if out.Status != "applied" {
		t.Fatalf("stale: %+v", out)
	}
}

// Queued orders are halted when an opponent's move makes them illegal; the
// prompt says why.
func TestScenarioQueueHaltedByOpponent(t *testing.T) {
	h := newHarness(t)
	h.org("NEW claim id=c1\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob")
	h.send("c1", ann, "JOIN", -1)
	h.send("c1", bob, "JOIN", -1)
	g := h.game("c1")
	p0, p1 := g.Seats[0].Address, g.Seats[1].Address
	h.mails()
	h.send("c1", p0, "CLAIM 1\nCLAIM 5\nCLAIM 4", -1)
	contains(t, h.mailTo(h.mails(), p0).Body, "queued   CLAIM 5", "Queued for your later turns: CLAIM 5 / CLAIM 4")
	h.send("c1", p1, "CLAIM 5", -1)
	ms := h.mails()
	body := h.mailTo(ms, p0).Body
	contains(t, body, `Your queued line "CLAIM 5" could not be played`, "(CL-2)", "set aside", "CLAIM 4", "WHAT YOU NEED TO DO NOW")
	lacks(t, body, "space_taken") // a sentence, never the raw code (issue 12.6)
}

// A deadline passes: the default move is applied and counted as missed;
// reminders come before; after too many misses the bot plays the seat and
// the organiser is told; a command from the player takes the seat back.
func TestScenarioDeadlinesRemindersAndBot(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob)
	h.mails()
	g := h.game("g1")
	ai := g.SeatOfAddress(ann)
	dl := g.Seats[ai].Deadline
	if dl == nil || !dl.Due.Equal(h.clock.Now().Add(24*time.Hour)) || len(dl.Reminders) != 2 {
		t.Fatalf("deadline = %+v", dl)
	}
	h.send("g1", bob, "BID 2", -1)
	h.mails()
	h.clock.Advance(12*time.Hour + time.Minute)
	h.tick()
	ms := h.mails()
	contains(t, h.mailTo(ms, ann).Body, "WHAT YOU NEED TO DO NOW (deadline")
	h.noMailTo(ms, bob)
	h.clock.Advance(12 * time.Hour)
	h.tick()
	ms = h.mails()
	contains(t, h.mailTo(ms, ann).Body, "Your deadline passed: the referee played BID 0 for you", "row: 1 of 2")
	g = h.game("g1")
	if g.Seats[ai].Missed != 1 || g.Seats[ai].Bot != "" {
		t.Fatalf("seat after one miss: %+v", g.Seats[ai])
	}
	// Miss again until the bot takes over.
	for i := 0; i < 6 && h.game("g1").Seats[h.game("g1").SeatOfAddress(ann)].Bot == ""; i++ {
		h.clock.Advance(25 * time.Hour)
		h.tick()
	}
	g = h.game("g1")
	s := g.Seats[g.SeatOfAddress(ann)]
	if s.Bot == "" {
		t.Fatalf("no bot after misses: %+v", s)
	}
	ms = h.mails()
	var orgMail *Outgoing
	for _, m := range ms {
		if m.To == org && strings.Contains(m.Body, "missed 2 moves in a row") {
			orgMail = m
		}
	}
	if orgMail == nil {
		t.Fatal("the organiser was not told of the bot")
	}
}

// A resignation hands the seat to the bot and the game goes on to its end,
// where the seed is revealed and the attached log replays.
func TestScenarioResignAndEndWithReplay(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob)
	h.send("g1", ann, "RESIGN", -1)
	h.mails()
	for i := 0; i < 50 && h.game("g1").Status == StatusRunning; i++ {
		h.mails()
		h.send("g1", bob, "BID 1\nHOLD", -1)
	}
	g := h.game("g1")
	if g.Status != StatusOver {
		t.Fatalf("game not over: %s", g.Status)
	}
	ms := h.mails()
	m := h.mailTo(ms, bob)
	contains(t, m.Body, "FINAL RESULT", "The seed was: "+g.Seed, g.Commitment)
	if len(m.Attachments) != 1 {
		t.Fatalf("attachments: %d", len(m.Attachments))
	}
	var lg engine.Log
	if err := json.Unmarshal(m.Attachments[0].Data, &lg); err != nil {
		t.Fatal(err)
	}
	if lg.Config.Seed != g.Seed {
		t.Fatal("log without the seed")
	}
	eg, _ := engine.Lookup("toy")
	if _, err := engine.Replay(eg, lg); err != nil {
		t.Fatalf("replay of the published log: %v", err)
	}
	contains(t, h.mailTo(ms, ann).Body, "FINAL RESULT")
}

// Messages are never applied twice; a spoofed sender changes nothing and
// only the registered address hears about it.
func TestScenarioDuplicatesAndSpoofing(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob)
	h.mails()
	g := h.game("g1")
	seat := g.SeatOfAddress(ann)
	req := Request{From: ann, Kind: "seat", Game: "g1", Seat: seat, Secret: g.Seats[seat].Secret, Token: -1, Text: "BID 2", MessageID: "<same@x>"}
	if out := h.sendAs(req); out.Status != "queued" {
		t.Fatalf("first: %+v", out)
	}
	if out := h.sendAs(req); out.Status != "duplicate" {
		t.Fatalf("second: %+v", out)
	}
	h.mails()
	spoof := req
	spoof.From, spoof.MessageID, spoof.Text = "mallory@evil.test", "<spoof@x>", "BID 9"
	if out := h.sendAs(spoof); out.Status != "rejected" {
		t.Fatalf("spoof: %+v", out)
	}
	ms := h.mails()
	h.noMailTo(ms, "mallory@evil.test")
	contains(t, h.mailTo(ms, ann).Body, "came from mallory@evil.test", "ignored")
	if q := h.table("g1").Queued(seat); len(q) != 1 || q[0].Text != "BID 2" {
		t.Fatalf("queue changed by spoof: %+v", q)
	}
}

// Commands after a JOIN that starts the game (and so draws the seat order)
// apply to the joiner's new seat.
func TestScenarioCommandsAfterTheStartingJoin(t *testing.T) {
	h := newHarness(t)
	swapped := 0
	for _, id := range []string{"g1", "g2", "g3", "g4", "g5", "g6"} {
		h.org("NEW toy id=" + id + "\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob")
		h.send(id, ann, "JOIN\nFORMAT json", -1)
		h.send(id, bob, "JOIN\nFORMAT json\nNOTIFY every", -1)
		g := h.game(id)
		if g.SeatOfAddress(bob) == 0 {
			swapped++ // the draw moved bob: his later commands must follow him
		}
		for _, s := range g.Seats {
			if s.Format != "json" {
				t.Errorf("%s %s: format %q", id, s.Name, s.Format)
			}
		}
		if s := g.Seats[g.SeatOfAddress(bob)]; s.Notify != "every" {
			t.Errorf("%s: bob's NOTIFY went elsewhere: %+v", id, g.Seats)
		}
		if s := g.Seats[g.SeatOfAddress(ann)]; s.Notify != DefaultNotify {
			t.Errorf("%s: ann got bob's NOTIFY: %+v", id, g.Seats)
		}
	}
	if swapped == 0 {
		t.Fatal("no game drew bob into the first seat: the test proves nothing")
	}
}
