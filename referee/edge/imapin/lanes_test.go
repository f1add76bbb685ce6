package imapin

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

// messageFrom is message from another sender.
func messageFrom(from, msgid, body string) []byte {
	return []byte(strings.Replace(string(message(msgid, body)), "Alice <alice@example.test>", from, 1))
}

// laneHandler is a storeHandler whose calls overlap when they can: each
// waits a little for another call to begin, counts the most in flight,
// and commits its record through DB.Group, as the referee's speculations
// do (so that the lanes' rides share transactions).
type laneHandler struct {
	*fakeHandler
	db *store.DB

	mu             sync.Mutex
	inflight, most int
}

func (h *laneHandler) HandleMail(ctx context.Context, in mailin.Inbound) (referee.Outcome, error) {
	h.mu.Lock()
	h.inflight++
	h.most = max(h.most, h.inflight)
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.inflight--
		h.mu.Unlock()
	}()
	for end := time.Now().Add(100 * time.Millisecond); time.Now().Before(end); time.Sleep(time.Millisecond) {
		h.mu.Lock()
		n := h.inflight
		h.mu.Unlock()
		if n > 1 {
			break
		}
	}
	out, err := h.fakeHandler.HandleMail(ctx, in)
	if err == nil && out.Status == "applied" {
		err = h.db.Group(func(tx *store.Tx) error {
			return tx.MarkInbound(store.InboundRecord{Keys: in.Keys, Received: time.Now(), Outcome: "applied"})
		})
	}
	return out, err
}

func (h *laneHandler) mostInFlight() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.most
}

// laneMail is the test mailbox: three senders, interleaved.
var laneMail = []struct{ from, id string }{
	{"Ann <ann@a.test>", "<a1@a>"}, {"Bob <bob@b.test>", "<b1@b>"}, {"Cy <cy@c.test>", "<c1@c>"},
	{"Ann <ann@a.test>", "<a2@a>"}, {"Bob <bob@b.test>", "<b2@b>"}, {"Ann <ann@a.test>", "<a3@a>"},
	{"Cy <cy@c.test>", "<c2@c>"},
}

// senderOf names the sender of a test Message-ID (its first letter).
func senderOf(id string) byte { return id[1] }

// checkSenderOrder fails unless each sender's mails were applied in the
// order they arrived, each once.
func checkSenderOrder(t *testing.T, applied []string) {
	t.Helper()
	if len(applied) != len(laneMail) {
		t.Errorf("applied %v, want each of the %d mails once", applied, len(laneMail))
	}
	for _, s := range []byte("abc") {
		var got, want []string
		for _, id := range applied {
			if senderOf(id) == s {
				got = append(got, id)
			}
		}
		for _, m := range laneMail {
			if senderOf(m.id) == s {
				want = append(want, m.id)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("sender %c: applied %v, want %v", s, got, want)
		}
	}
}

// Lanes (doc.go): the messages of one fetch from different senders are
// handed over at once, each sender's in the order they arrived; every
// message is applied once and filed, the cursor ends past the last with
// the next hand-over presumed, and no attempt stays on record. With
// Lanes 1 they are handed over one at a time, in UID order. Generated
// over fetch sizes (every message in one fetch, two per fetch).
func TestLanesHandSendersOverAtOnceInTheirOrder(t *testing.T) {
	for _, lanes := range []int{1, 4} {
		for _, batch := range []int{2, 20} {
			t.Run(fmt.Sprintf("lanes-%d-batch-%d", lanes, batch), func(t *testing.T) {
				ms := startServer(t, capsRev2)
				for _, m := range laneMail {
					ms.deliver(t, "INBOX", messageFrom(m.from, m.id, "x"))
				}
				db := openStore(t)
				h := &laneHandler{fakeHandler: newHandler(), db: db}
				o := testOptions(ms.addr, db, h, &testkit.SyncBuffer{})
				o.Lanes, o.FetchBatch = lanes, batch
				r := start(t, o)
				h.await(t, len(laneMail))
				eventually(t, "all filed", func() bool {
					return len(contents(t, ms.addr, testUser, testPass, "Processed")) == len(laneMail) &&
						len(contents(t, ms.addr, testUser, testPass, "INBOX")) == 0
				})
				_, applied := h.snapshot()
				checkSenderOrder(t, applied)
				switch most := h.mostInFlight(); {
				case lanes == 1 && most != 1:
					t.Errorf("%d hand-overs at once with one lane", most)
				case lanes == 1:
					var want []string
					for _, m := range laneMail {
						want = append(want, m.id)
					}
					if !slices.Equal(applied, want) {
						t.Errorf("one lane: applied %v, want UID order %v", applied, want)
					}
				case most < 2:
					t.Errorf("the lanes never handed two messages over at once")
				}
				if cur := cursor(t, db, r.w.CursorKey()); cur.LastUID != uint32(len(laneMail)) || cur.Armed != 1 {
					t.Errorf("cursor %+v, want the last message and one presumed hand-over", cur)
				}
				// A later look, after the cursor's presumption: the same
				// (the presumed hand-over is the first message's own, not
				// one before it that would make the look a crash's).
				h.mu.Lock()
				h.most = 0
				h.mu.Unlock()
				for _, m := range laneMail[:3] {
					ms.deliver(t, "INBOX", messageFrom(m.from, "<late-"+m.id[1:], "x"))
				}
				r.w.Kick()
				h.await(t, 3)
				eventually(t, "the later look filed", func() bool {
					return len(contents(t, ms.addr, testUser, testPass, "INBOX")) == 0
				})
				if most := h.mostInFlight(); (lanes == 1) != (most == 1) {
					t.Errorf("later look: %d hand-overs at once with %d lanes", most, lanes)
				}
				r.stop()
				checkNoAttempts(t, db, r.w.CursorKey())
			})
		}
	}
}

// checkNoAttempts fails if an intake attempt of a laneMail message is
// still on record.
func checkNoAttempts(t *testing.T, db *store.DB, cursorKey string) {
	t.Helper()
	validity := cursor(t, db, cursorKey).UIDValidity
	db.View(func(tx *store.Tx) error {
		for uid := 1; uid <= len(laneMail); uid++ {
			if c := tx.AttemptCount(keyOf(validity, imap.UID(uid))); c != 0 {
				t.Errorf("uid %d: %d attempts left on record", uid, c)
			}
		}
		return nil
	})
}

// A transient failure stops its sender's lane only: the sender's later
// mails wait for it (never applied before it), the other senders' are
// applied, and everything is filed once it succeeds.
func TestLanesTransientFailureHoldsItsSenderOnly(t *testing.T) {
	for _, failing := range []string{"<a1@a>", "<b2@b>", "<c2@c>"} {
		t.Run(failing, func(t *testing.T) {
			ms := startServer(t, capsRev2)
			for _, m := range laneMail {
				ms.deliver(t, "INBOX", messageFrom(m.from, m.id, "x"))
			}
			db := openStore(t)
			h := &laneHandler{fakeHandler: newHandler(), db: db}
			h.fail = func(id string, n int) error {
				if id == failing && n <= 2 {
					return fmt.Errorf("store busy")
				}
				return nil
			}
			r := start(t, testOptions(ms.addr, db, h, &testkit.SyncBuffer{}))
			h.await(t, len(laneMail)+2)
			eventually(t, "all filed", func() bool {
				return len(contents(t, ms.addr, testUser, testPass, "Processed")) == len(laneMail) &&
					len(contents(t, ms.addr, testUser, testPass, "INBOX")) == 0
			})
			_, applied := h.snapshot()
			checkSenderOrder(t, applied)
			if st := r.w.Stats(); st.Transient != 2 || st.Quarantined != 0 {
				t.Errorf("stats %+v", st)
			}
			if cur := cursor(t, db, r.w.CursorKey()); cur.LastUID != uint32(len(laneMail)) {
				t.Errorf("cursor %+v", cur)
			}
			r.stop()
			checkNoAttempts(t, db, r.w.CursorKey())
		})
	}
}

// A message that kills the process (here: panics) among other senders'
// is counted alone: after the first crash its chunk is handed over one
// message at a time, it is quarantined after MaxCrashes hand-overs, and
// every other message is applied once and filed, none quarantined.
func TestLanesPoisonCountsAlone(t *testing.T) {
	eachBombPlace(t, []int{0, 3, 6}, poisonAmongLanes)
}

// poisonAmongLanes: with later, the bomb's fetch follows a look whose
// commits presumed its first hand-over (the cursor's Armed).
func poisonAmongLanes(t *testing.T, at int, later bool) {
	ms := startServer(t, capsRev2)
	db := openStore(t)
	h := &laneHandler{fakeHandler: newHandler(), db: db}
	mails := slices.Clone(laneMail)
	var r *running
	if later {
		ms.deliver(t, "INBOX", messageFrom("Eve <eve@e.test>", "<e0@e>", "x"))
		ms.deliver(t, "INBOX", messageFrom("Fay <fay@f.test>", "<f0@f>", "x"))
		r = start(t, crashOptions(ms.addr, db, h))
		h.await(t, 2)
		eventually(t, "the first look filed", func() bool { return len(contents(t, ms.addr, testUser, testPass, "INBOX")) == 0 })
		h.mu.Lock()
		h.applied = nil
		h.mu.Unlock()
	}
	mails = slices.Insert(mails, at, struct{ from, id string }{"Dee <dee@d.test>", "<bomb@d>"})
	for _, m := range mails {
		ms.deliver(t, "INBOX", messageFrom(m.from, m.id, "x"))
	}
	h.mu.Lock()
	h.fail = killedBy("<bomb@d>")
	h.mu.Unlock()
	filed := len(laneMail)
	if later {
		filed += 2
		r.w.Kick()
	} else {
		r = start(t, crashOptions(ms.addr, db, h))
	}
	h.await(t, len(laneMail)+3)
	eventually(t, "the bomb quarantined, the rest filed", func() bool {
		return msgIDs(contents(t, ms.addr, testUser, testPass, "Quarantine")) == "<bomb@d>" &&
			len(contents(t, ms.addr, testUser, testPass, "Processed")) == filed
	})
	r.stop()
	h.checkHandedOver(t, "<bomb@d>", 3)
	_, applied := h.snapshot()
	checkSenderOrder(t, applied)
}

// A crash after the lanes' commits and before the messages are filed (at
// each message of the fetch in turn): after the restart nothing is lost
// and nothing applied twice, everything is filed, and the cursor never
// stood past a message whose record was not committed.
func TestLanesCrashBeforeFiling(t *testing.T) {
	for _, crashAt := range []imap.UID{1, 4, 7} {
		t.Run(fmt.Sprintf("crash-at-%d", crashAt), func(t *testing.T) {
			ms := startServer(t, capsRev2)
			for _, m := range laneMail {
				ms.deliver(t, "INBOX", messageFrom(m.from, m.id, "x"))
			}
			db := openStore(t)
			h := &laneHandler{fakeHandler: newHandler(), db: db}
			r := start(t, testOptions(ms.addr, db, h, &testkit.SyncBuffer{}), func(w *Watcher) {
				w.afterHandle = func(uid imap.UID) error {
					if uid == crashAt {
						return errCrash
					}
					return nil
				}
			})
			h.await(t, len(laneMail))
			r.stop()
			r = start(t, testOptions(ms.addr, db, h, &testkit.SyncBuffer{}))
			eventually(t, "all filed after the restart", func() bool {
				return len(contents(t, ms.addr, testUser, testPass, "Processed")) == len(laneMail) &&
					len(contents(t, ms.addr, testUser, testPass, "INBOX")) == 0
			})
			_, applied := h.snapshot()
			checkSenderOrder(t, applied)
			if cur := cursor(t, db, r.w.CursorKey()); cur.LastUID != uint32(len(laneMail)) {
				t.Errorf("cursor %+v", cur)
			}
			r.stop()
			checkNoAttempts(t, db, r.w.CursorKey())
		})
	}
}
