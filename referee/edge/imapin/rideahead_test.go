package imapin

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

// gatedHandler is a storeHandler whose hand-overs wait, each, until the
// test opens its mail's gate: the test so knows which commits were made.
type gatedHandler struct {
	*storeHandler
	mu      sync.Mutex
	gates   map[string]chan struct{}
	entered chan string // the Message-ID of each hand-over, as it waits
	done    chan string // the Message-ID of each hand-over, committed
}

func (h *gatedHandler) gate(id string) chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.gates[id] == nil {
		h.gates[id] = make(chan struct{})
	}
	return h.gates[id]
}

func (h *gatedHandler) HandleMail(ctx context.Context, in mailin.Inbound) (referee.Outcome, error) {
	id := msgID(in.Raw)
	h.entered <- id
	<-h.gate(id)
	out, err := h.storeHandler.HandleMail(ctx, in)
	h.done <- id
	return out, err
}

// wait takes n Message-IDs from ch, in any order.
func wait(t *testing.T, ch chan string, ids ...string) {
	t.Helper()
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	for range ids {
		select {
		case id := <-ch:
			if !want[id] {
				t.Fatalf("hand-over of %s, want one of %v", id, ids)
			}
			delete(want, id)
		case <-time.After(10 * time.Second):
			t.Fatalf("hand-overs of %v never came", want)
		}
	}
}

// Mail rolled in past the window a look's commit presumed (ahead.go, the
// presumption a ride writes; doc.go "Rolling in") is handed over with no
// commit of its own once a ride of the look committed: that ride presumed
// the window above the highest UID the look had taken. The presumptions
// stand at most FetchBatch UIDs above it, and those the look did not use
// are taken back by a graceful stop.
func TestMailPastTheWindowRidesAPresumption_Issue25(t *testing.T) {
	ms := startServer(t, capsRev2)
	db := openStore(t)
	h := &gatedHandler{storeHandler: &storeHandler{fakeHandler: newHandler(), db: db}, gates: map[string]chan struct{}{},
		entered: make(chan string, 20), done: make(chan string, 20)}
	o := testOptions(ms.addr, db, h, &testkit.SyncBuffer{})
	o.FetchBatch, o.MaxCrashes, o.Lanes = 2, 3, 8 // a lane for every sender: all wait at once
	mails := []rollMail{{"<p1@x>", "Ann <ann@a.test>", "g1"}, {"<p2@x>", "Bob <bob@b.test>", "g2"},
		{"<p3@x>", "Ann <ann@a.test>", "g1"}, {"<p4@x>", "Cy <cy@c.test>", "g3"},
		{"<p5@x>", "Dee <dee@d.test>", "g4"}, {"<p6@x>", "Eve <eve@e.test>", "g5"}}
	deliver := func(from, to int) {
		for _, m := range mails[from:to] {
			ms.deliver(t, "INBOX", rollRaw(m))
		}
	}
	open := func(id string) { close(h.gate(id)) }
	deliver(0, 2)
	r := start(t, o)
	wait(t, h.entered, "<p1@x>", "<p2@x>")
	validity := cursor(t, db, r.w.CursorKey()).UIDValidity
	onRecord := func(uid imap.UID) (n int) {
		db.View(func(tx *store.Tx) error { n = tx.AttemptCount(keyOf(validity, uid)); return nil })
		return n
	}
	rolled := func(n uint64) func() bool { return func() bool { return r.w.rolledIn.Load() == n } }
	// UIDs 3 and 4: in the window of the look's commit.
	deliver(2, 4)
	r.w.Kick()
	eventually(t, "two rolled in", rolled(2))
	wait(t, h.entered, "<p4@x>")
	// p1's ride presumes 5 and 6, the window above 4, and no more.
	open("<p1@x>")
	wait(t, h.done, "<p1@x>")
	wait(t, h.entered, "<p3@x>")
	for uid, want := range map[imap.UID]int{5: 1, 6: 1, 7: 0} {
		if n := onRecord(uid); n != want {
			t.Errorf("uid %d: %d hand-overs on record after a ride, want %d", uid, n, want)
		}
	}
	before := db.WriteStats().Commits
	deliver(4, 6)
	r.w.Kick()
	eventually(t, "four rolled in", rolled(4))
	wait(t, h.entered, "<p5@x>", "<p6@x>")
	if got := db.WriteStats().Commits - before; got != 0 {
		t.Errorf("%d commits to roll in two mails a ride presumed, want none", got)
	}
	if n := r.w.rolledAhead.Load(); n != 4 {
		t.Errorf("%d of 4 mails rolled in under a presumption", n)
	}
	for _, m := range mails[1:] {
		open(m.id)
	}
	eventually(t, "every mail filed", func() bool {
		return len(contents(t, ms.addr, testUser, testPass, "Processed")) == len(mails)
	})
	r.stop()
	for uid := imap.UID(1); uid <= 12; uid++ {
		if n := onRecord(uid); n != 0 {
			t.Errorf("uid %d: %d hand-overs on record after a graceful stop", uid, n)
		}
	}
	checkRollModel(t, mails, h.applied)
}
