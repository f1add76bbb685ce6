package referee

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Issue 20, never silent: every branch of the intake of a seat's mail ends
// in an answer to the seat that names what became of each line (applied,
// queued, refused with a reason, or chat), except the abuse guards, whose
// limits a player's first tries of a day never reach (they are walked
// too, with their limits).
func TestSeatMailIsNeverSilent(t *testing.T) {
	type branch struct {
		name  string
		setup func(h *harness) // before the mail (the toy game g1 is running)
		text  string
		from  string // "" is ann
		token int    // -1 current; -2 the token before setup
		want  []string
	}
	branches := []branch{
		{name: "applied or sealed", text: "BID 2", want: []string{"BID 2"}},
		{name: "number", text: "3", want: []string{"sealed   3"}},
		{name: "number forms", text: "Hi! option 3 - thanks", want: []string{"sealed   option 3", "Hi!", "  thanks"}},
		{name: "copied menu line", text: "3) BID 2", want: []string{"BID 2"}},
		{name: "copied line disagreeing", text: "3) BID 5", want: []string{"option 3 is BID 2", "REFUSED"}},
		{name: "number out of range", text: "40", want: []string{"no option 40: choose 1-11"}},
		{name: "typo read", text: "bidd 2", want: []string{`I read "bidd" as BID`}},
		{name: "typo ambiguous", text: "HOLL", want: []string{"did you mean HOLD or ROLL?"}},
		{name: "refused by the rules", text: "BID 99", want: []string{"BID 99"}},
		{name: "unknown command", text: "FOO 3", want: []string{"FOO 3"}},
		{name: "prose only", text: "I choose option 2 please", want: []string{`line 1 "I choose option 2 please": did you mean 2?`, "reads as a command"}},
		{name: "chat only", text: "Hello referee, how are you today", want: []string{"reads as a command", "Hello referee"}},
		{name: "referee command", text: "STATUS", want: []string{"Bid & Roll"}},
		{name: "referee command and chat", text: "Hi! STATUS - thanks", want: []string{"Hi!", "thanks"}},
		{name: "too many orders", text: strings.Repeat("BID 1\n", 120), want: []string{"100"}},
		{name: "game paused", setup: func(h *harness) { h.org("PAUSE g1") }, text: "BID 2", want: []string{"paused"}},
		{name: "stale resend", setup: func(h *harness) {
			h.send("g1", ann, "BID 2", -1)
			h.send("g1", bob, "BID 1", -1)
		}, text: "BID 2", token: -2, want: []string{"already applied"}},
		{name: "spoofed sender", from: "mallory@example.test", text: "BID 2", want: []string{"mallory@example.test"}},
	}
	for _, b := range branches {
		t.Run(b.name, func(t *testing.T) {
			h := newHarness(t)
			h.newToyGame("g1", ann, bob)
			h.mails()
			before := h.table("g1").Token()
			if b.setup != nil {
				b.setup(h)
				h.mails()
			}
			g := h.game("g1")
			seat := g.SeatOfAddress(ann)
			tok := h.table("g1").Token()
			if b.token == -2 {
				tok = before
			}
			from := ann
			if b.from != "" {
				from = b.from
			}
			out := h.sendAs(Request{From: from, Kind: "seat", Game: "g1", Seat: seat, Secret: g.Seats[seat].Secret, Token: tok, Text: b.text})
			m := h.mailTo(h.mails(), ann)
			contains(t, m.Body, b.want...)
			t.Logf("%s: %s (%s)", b.name, out.Status, out.Detail)
		})
	}
}

// A player's first tries of a day are always answered, even when no line
// reads as a command; later ones are answered when a line looks like an
// answer; the others (a vacation notice's) are not, nor are more than
// three identical mails in a day or mails over the hourly rate.
func TestNeverSilentLimitsAreForAbuseOnly(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob)
	h.mails()
	for i := 0; i < proseAnswers; i++ {
		h.clock.Advance(time.Minute)
		h.send("g1", ann, fmt.Sprintf("what should I do now? (try %c)", 'a'+i), -1)
		contains(t, h.mailTo(h.mails(), ann).Body, "reads as a command")
	}
	h.send("g1", ann, "I take option 2 please", -1)
	contains(t, h.mailTo(h.mails(), ann).Body, "did you mean 2?")
	h.send("g1", ann, "Ik ben afwezig tot en met maandag", -1)
	h.noMailTo(h.mails(), ann)
	// The next day, answered again.
	h.clock.Advance(25 * time.Hour)
	h.send("g1", ann, "what now?", -1)
	contains(t, h.mailTo(h.mails(), ann).Body, "reads as a command")
	// The same mail: answered three times a day.
	n := 0
	for i := 0; i < 5; i++ {
		h.send("g1", ann, "STATUS", -1)
		for _, m := range h.mails() {
			if m.To == ann {
				n++
			}
		}
	}
	if n != loopRepeats {
		t.Errorf("five identical mails got %d answers, want %d", n, loopRepeats)
	}
}

// The branches before and after play: a game not started yet, a seat that
// resigned. Each mail is answered.
func TestSeatMailIsNeverSilentOutsidePlay(t *testing.T) {
	h := newHarness(t)
	h.org("NEW toy id=g2 rounds=2 deadline=24h\nPLAYER ann@example.test ann\nPLAYER bob@example.test bob")
	h.send("g2", ann, "JOIN", -1)
	h.mails()
	h.send("g2", ann, "Hi! 2", -1)
	contains(t, h.mailTo(h.mails(), ann).Body, "Hi!")
	h.send("g2", bob, "JOIN", -1)
	h.mails()
	h.send("g2", ann, "RESIGN", -1)
	h.mails()
	g := h.game("g2")
	if s := g.SeatOfAddress(ann); s < 0 || g.Seats[s].State == SeatPlaying {
		t.Fatalf("RESIGN: seat %d %+v", s, g.Seats)
	}
	h.send("g2", ann, "option 2", -1)
	contains(t, h.mailTo(h.mails(), ann).Body, "option 2")
}

// HasCommand (an out-of-office subject never hides an answer) knows every
// answer form.
func TestHasCommandKnowsAnswerForms(t *testing.T) {
	h := newHarness(t)
	for _, s := range []string{"2.", "Hi! PASS", "option 2", "opzione 3 - grazie", "(4)", "  2) PLACE HP1 SEED   # costs", "Hallo,PASSA"} {
		if !h.r.HasCommand(&Request{Text: s}) {
			t.Errorf("HasCommand(%q) = false", s)
		}
	}
	for _, s := range []string{"I am out of the office until Monday.", "Ciao!\nGrazie", ""} {
		if h.r.HasCommand(&Request{Text: s}) {
			t.Errorf("HasCommand(%q) = true", s)
		}
	}
}
