package imapin

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

// storeHandler records each message it applies in the store, as the
// referee does (one write transaction with the de-duplication record), so
// that the watcher's writes can ride in it.
type storeHandler struct {
	*fakeHandler
	db *store.DB
}

func (h *storeHandler) HandleMail(ctx context.Context, in mailin.Inbound) (referee.Outcome, error) {
	out, err := h.fakeHandler.HandleMail(ctx, in)
	if err == nil && out.Status == "applied" {
		err = h.db.Update(func(tx *store.Tx) error {
			return tx.MarkInbound(store.InboundRecord{Keys: in.Keys, Received: time.Now(), Outcome: "applied"})
		})
	}
	return out, err
}

// One write transaction per message at intake (issue 25): the end of the
// intake attempt and the cursor past the message ride in the handler's
// commit, and the next hand-over's attempt is presumed by it (no commit of
// its own), whether the messages come one at a time or several per look.
// Beyond the first hand-over of a session (one commit for its attempt)
// and the last cursor of a look, every message costs exactly the commit
// of its record.
func TestOneCommitPerMessage(t *testing.T) {
	for _, perLook := range []int{1, 3} {
		t.Run(fmt.Sprintf("per-look-%d", perLook), func(t *testing.T) {
			ms := startServer(t, capsRev2)
			db := openStore(t)
			h := &storeHandler{fakeHandler: newHandler(), db: db}
			r := start(t, testOptions(ms.addr, db, h, &testkit.SyncBuffer{}))
			n := 0
			deliver := func() {
				for range perLook {
					n++
					ms.deliver(t, "INBOX", message(fmt.Sprintf("<m%d@a>", n), "x"))
				}
				r.w.Kick()
				h.await(t, perLook)
				eventually(t, "filed", func() bool { return len(contents(t, ms.addr, testUser, testPass, "INBOX")) == 0 })
			}
			deliver() // the session's first hand-over
			before := db.WriteStats().Commits
			const looks = 6
			for range looks {
				deliver()
			}
			got := db.WriteStats().Commits - before
			if want := int64(looks * perLook); got != want {
				t.Errorf("%d commits for %d messages, want %d", got, looks*perLook, want)
			}
			if cur := cursor(t, db, r.w.CursorKey()); cur.LastUID != uint32(n) || cur.Armed != 1 {
				t.Errorf("cursor %+v, want the last message and one presumed hand-over", cur)
			}
			r.stop()
			if cur := cursor(t, db, r.w.CursorKey()); cur.LastUID != uint32(n) || cur.Armed != 0 {
				t.Errorf("cursor %+v after a graceful stop, want the presumed hand-over taken back", cur)
			}
			validity := cursor(t, db, r.w.CursorKey()).UIDValidity
			db.View(func(tx *store.Tx) error {
				for uid := 1; uid <= n; uid++ {
					if c := tx.AttemptCount(keyOf(validity, imap.UID(uid))); c != 0 {
						t.Errorf("uid %d: %d attempts left on record", uid, c)
					}
				}
				return nil
			})
		})
	}
}

// A hand-over presumed by the cursor (no commit of its own) still counts
// when it kills the process: the restarted watcher finds the presumption
// on record and counts on from it, whether the message is the session's
// first or follows one whose commit presumed it, and with a restart
// after every crash or none.
func TestPresumedAttemptCountsAfterCrash(t *testing.T) {
	for _, before := range []int{0, 1, 2} {
		for _, restart := range []bool{false, true} {
			t.Run(fmt.Sprintf("before-%d-restart-%v", before, restart), func(t *testing.T) {
				ms := startServer(t, capsRev2)
				for i := range before {
					ms.deliver(t, "INBOX", message(fmt.Sprintf("<m%d@a>", i+1), "x"))
				}
				ms.deliver(t, "INBOX", message("<bomb@a>", "x"))
				ms.deliver(t, "INBOX", message("<last@a>", "x"))
				db := openStore(t)
				h := &storeHandler{fakeHandler: newHandler(), db: db}
				h.fail = killedBy("<bomb@a>")
				o := crashOptions(ms.addr, db, h)
				r := start(t, o)
				h.await(t, before+1)
				for range 2 {
					if restart {
						r.stop()
						r = start(t, o)
					}
					h.await(t, 1)
				}
				h.await(t, 1) // the last one
				eventually(t, "the bomb quarantined", func() bool {
					return len(contents(t, ms.addr, testUser, testPass, "Quarantine")) == 1 &&
						len(contents(t, ms.addr, testUser, testPass, "Processed")) == before+1
				})
				r.stop()
				h.checkHandedOver(t, "<bomb@a>", 3)
			})
		}
	}
}
