package referee

import (
	"errors"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store"
)

// The queries the edges ask (issue 13.2): the seat of a secret with each
// refusal told apart, the state token, the table, the counts, the log and
// the echo's reply, on a toy game in progress.
func TestQueries(t *testing.T) {
	h := newHarness(t)
	if _, ok, err := h.r.StateToken("g1"); err == nil || ok {
		t.Errorf("state token of no game: %v %v", ok, err)
	}
	h.org("NEW toy id=g1 rounds=2\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob")
	h.org("NEW toy id=g2 rounds=2\nPLAYER cat@example.test Cat\nPLAYER dan@example.test Dan")
	if _, ok, err := h.r.StateToken("g1"); err != nil || ok {
		t.Errorf("state token before the start: %v %v", ok, err)
	}
	if _, err := h.r.Table("g1"); err == nil {
		t.Error("a table before the start")
	}
	h.send("g1", ann, "JOIN", -1)
	h.send("g1", bob, "JOIN", -1)
	g := h.game("g1")
	annSeat := g.SeatOfAddress(ann)
	annSecret := g.Seats[annSeat].Secret

	a, err := h.r.SeatForSecret("g1", annSecret)
	if err != nil || a.Seat != annSeat || a.Address != ann || a.Game != "g1" {
		t.Fatalf("ann's seat: %+v %v", a, err)
	}
	g2 := h.game("g2")
	for name, c := range map[string]struct {
		game, secret string
		want         error
	}{
		"no game":              {"zz", annSecret, ErrNoGame},
		"unknown secret":       {"g1", "nosuchsecretxxxx", ErrNotSeatToken},
		"another game's token": {"g1", g2.Seats[0].Secret, ErrNotSeatToken},
		"an organiser's token": {"g1", "orgsecretorgsecret", ErrNotSeatToken},
	} {
		if _, err := h.r.SeatForSecret(c.game, c.secret); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
	// A replaced secret no longer authenticates (its token stays behind).
	if err := h.db.Update(func(tx *store.Tx) error {
		g, err := loadGame(tx, "g1")
		if err != nil {
			return err
		}
		g.Seats[annSeat].Secret = "annnewsecretannn"
		return saveGame(tx, g)
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.r.SeatForSecret("g1", annSecret); !errors.Is(err, ErrTokenRevoked) {
		t.Errorf("a replaced secret: %v", err)
	}

	tb, err := h.r.Table("g1")
	if err != nil {
		t.Fatal(err)
	}
	tok, ok, err := h.r.StateToken("g1")
	if err != nil || !ok || tok != tb.Token() {
		t.Errorf("state token %d %v %v, table at %d", tok, ok, err, tb.Token())
	}
	c, err := h.r.Counts(OutboxQueue, HooksQueue)
	if err != nil || c.Games[StatusRunning] != 1 || c.Games[StatusForming] != 1 || c.Games[StatusOver] != 0 ||
		c.Queues[OutboxQueue] == 0 || c.Queues[HooksQueue] != 0 {
		t.Errorf("counts %+v %v", c, err)
	}
	var ids []string
	if err := h.r.EachGame(func(g *Game) error { ids = append(ids, g.ID+"/"+g.Status); return nil }); err != nil ||
		len(ids) != 2 || ids[0] != "g1/running" || ids[1] != "g2/forming" {
		t.Errorf("games %v %v", ids, err)
	}
	stop := errors.New("stop")
	if err := h.r.EachGame(func(*Game) error { return stop }); err != stop {
		t.Errorf("EachGame does not return fn's error: %v", err)
	}
	log, err := h.r.Entries("g1")
	joins := 0
	for _, e := range log {
		if e.Kind == EntryJoin {
			joins++
		}
	}
	if err != nil || len(log) == 0 || log[0].Kind != EntryCreate || joins != 2 {
		t.Errorf("log of %d entries, %d joins: %v", len(log), joins, err)
	}
	n, size, err := h.r.QueueSize(OutboxQueue)
	if err != nil || n != c.Queues[OutboxQueue] || size <= 0 {
		t.Errorf("outbox %d items of %d bytes, %v", n, size, err)
	}

	// The echo's reply: queued once, a duplicate input queues nothing.
	reply := RawReply{Keys: []string{"msgid:<p1@x>"}, Source: "imap", From: "e1@example.test", MessageID: "<echo.1@example.test>",
		Kind: "echo", To: "e1@example.test", Sender: "referee@example.test", Payload: []byte("echo"), Created: h.clock.Now()}
	if fresh, err := h.r.QueueReply(reply); !fresh || err != nil {
		t.Fatalf("reply: %v %v", fresh, err)
	}
	if fresh, err := h.r.QueueReply(reply); fresh || err != nil {
		t.Errorf("the same input again: %v %v", fresh, err)
	}
	if n2, size2, _ := h.r.QueueSize(OutboxQueue); n2 != n+1 || size2 != size+4 {
		t.Errorf("outbox %d items of %d bytes after the reply, want %d of %d", n2, size2, n+1, size+4)
	}
	if _, err := h.r.QueueReply(RawReply{}); err == nil {
		t.Error("a reply without keys")
	}

	// Replay tokens: fresh once, then the message they first came with.
	now := h.clock.Now()
	if prev, fresh, err := h.r.UseReplayToken("mailgun:t", "<a@x>", now, now.Add(time.Minute), true); !fresh || prev != "" || err != nil {
		t.Errorf("first use: %q %v %v", prev, fresh, err)
	}
	if prev, fresh, err := h.r.UseReplayToken("mailgun:t", "<b@x>", now, now.Add(time.Minute), false); fresh || prev != "<a@x>" || err != nil {
		t.Errorf("second use: %q %v %v", prev, fresh, err)
	}
	later := now.Add(2 * time.Minute)
	if _, fresh, err := h.r.UseReplayToken("mailgun:t", "<b@x>", later, later.Add(time.Minute), true); !fresh || err != nil {
		t.Errorf("after expiry and pruning: %v %v", fresh, err)
	}
}
