package referee

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store"
)

// TestSeatAuthenticationIsOneRule_Issue25: a mail's tag and the webhook's
// bearer token are authenticated by one function (authSeat): for every
// kind of secret the query (SeatForSecret) and the request (Process) agree,
// and the outcome says why with a typed Reason, never only in words.
func TestSeatAuthenticationIsOneRule_Issue25(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob)
	h.newToyGame("g2", ann, bob)
	g1, g2 := h.game("g1"), h.game("g2")
	annSeat := g1.SeatOfAddress(ann)
	cases := []struct {
		name, secret, from string
		err                error
		reason             OutcomeReason
	}{
		{"the seat's own secret", g1.Seats[annSeat].Secret, ann, nil, ""},
		{"the seat's secret from another sender", g1.Seats[annSeat].Secret, "eve@example.test", nil, ReasonSender},
		{"another game's seat secret", g2.Seats[g2.SeatOfAddress(ann)].Secret, ann, ErrNotSeatToken, ReasonUnknownSeat},
		{"an unknown secret", "abcdefghijkl2345", ann, ErrNotSeatToken, ReasonUnknownSeat},
		{"the organiser's secret", "orgsecretorgsecret", ann, ErrNotSeatToken, ReasonUnknownSeat},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := h.r.SeatForSecret("g1", c.secret)
			if !errors.Is(err, c.err) {
				t.Fatalf("SeatForSecret: %v, want %v", err, c.err)
			}
			if err == nil && (a.Seat != annSeat || a.Address != ann) {
				t.Errorf("SeatForSecret: %+v, want seat %d %s", a, annSeat, ann)
			}
			h.clock.Advance(time.Minute)
			out := h.sendAs(Request{From: c.from, Kind: KindSeat, Game: "g1", Seat: annSeat, Secret: c.secret, Token: -1,
				Text: "STATUS", MessageID: fmt.Sprintf("<auth%d@players.test>", i)})
			if out.Reason != c.reason {
				t.Errorf("Process: reason %q (%s: %s), want %q", out.Reason, out.Status, out.Detail, c.reason)
			}
			if (c.err == nil) != (out.Game == "g1") {
				t.Errorf("Process: game %q for %s", out.Game, c.name)
			}
		})
	}

	// Revoked: the token still names the seat's address, but the seat's
	// secret changed (the token of a seat handed on and back).
	old := g1.Seats[annSeat].Secret
	if err := h.db.Update(func(tx *store.Tx) error {
		g, err := loadGame(tx, "g1")
		if err != nil {
			return err
		}
		g.Seats[annSeat].Secret = "newsecretnewsecret"
		return saveGame(tx, g)
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.r.SeatForSecret("g1", old); !errors.Is(err, ErrTokenRevoked) {
		t.Fatalf("SeatForSecret of a changed seat secret: %v", err)
	}
	out := h.sendAs(Request{From: ann, Kind: KindSeat, Game: "g1", Seat: annSeat, Secret: old, Token: -1, Text: "STATUS"})
	if out.Reason != ReasonRevoked || out.Game != "g1" {
		t.Errorf("a replaced seat's secret: reason %q (%s: %s)", out.Reason, out.Status, out.Detail)
	}
}

// TestOutcomeCarriesTheStateToken_Issue25: the outcome of a request
// carries the state token its own transaction left (the webhook answers
// with it), for a move, a duplicate and an informational command alike,
// and nothing before the game starts.
func TestOutcomeCarriesTheStateToken_Issue25(t *testing.T) {
	h := newHarness(t)
	h.org("NEW toy id=g1 rounds=2 deadline=24h\nPLAYER " + ann + " ann\nPLAYER " + bob + " bob")
	if out := h.send("g1", ann, "JOIN", -1); out.Started || out.StateToken != 0 {
		t.Errorf("before the start: %+v", out)
	}
	if out := h.send("g1", bob, "JOIN", -1); !out.Started || out.StateToken != h.table("g1").Token() {
		t.Errorf("at the start: started %v token %d, table %d", out.Started, out.StateToken, h.table("g1").Token())
	}
	for _, text := range []string{"BID 3", "STATUS", "BID 4"} {
		before := h.table("g1").Token()
		out := h.send("g1", ann, text, -1)
		if !out.Started || out.StateToken != h.table("g1").Token() {
			t.Errorf("%s: token %d (started %v), the table's %d (before %d)", text, out.StateToken, out.Started, h.table("g1").Token(), before)
		}
	}
	g := h.game("g1")
	seat := g.SeatOfAddress(bob)
	req := Request{From: bob, Kind: KindSeat, Game: "g1", Seat: seat, Secret: g.Seats[seat].Secret, Token: -1, Text: "STATUS", MessageID: "<dup@players.test>"}
	first := h.sendAs(req)
	again := h.sendAs(req)
	if again.Status != OutcomeDuplicate || !again.Started || again.StateToken != first.StateToken {
		t.Errorf("a duplicate: %+v, first %+v", again, first)
	}
}

// TestRateLimitIsAReason_Issue25: mail beyond a sender's budget is ignored
// with ReasonRateLimited (the webhook's 429), and nothing before it is.
func TestRateLimitIsAReason_Issue25(t *testing.T) {
	h := newHarness(t)
	h.r.opt.RateLimit = 3
	h.r.rate, h.r.anon = newRateLimiter(3, time.Hour), newRateLimiter(3, time.Hour)
	limited := 0
	for i := range 6 {
		out := h.sendAs(Request{From: "eve@example.test", Text: "hello", MessageID: fmt.Sprintf("<e%d@x.test>", i)})
		if out.Reason == ReasonRateLimited {
			limited++
			if out.Status != OutcomeIgnored {
				t.Errorf("mail %d: rate limited but %s", i, out.Status)
			}
		} else if limited > 0 {
			t.Errorf("mail %d: %q after the limit", i, out.Reason)
		}
	}
	if limited != 3 {
		t.Errorf("%d of 6 mails rate limited, want 3 (budget 3)", limited)
	}
}
