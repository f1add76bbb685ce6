package imapin

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

// countingHandler is a fakeHandler that notes the hand-overs on record
// (the attempts of its key) at each call.
type countingHandler struct {
	*fakeHandler
	db     *store.DB
	mu     sync.Mutex
	counts map[string]int
}

func (h *countingHandler) HandleMail(ctx context.Context, in mailin.Inbound) (referee.Outcome, error) {
	h.db.View(func(tx *store.Tx) error {
		h.mu.Lock()
		h.counts[in.Keys[0]] = tx.AttemptCount(in.Keys[0])
		h.mu.Unlock()
		return nil
	})
	return h.fakeHandler.HandleMail(ctx, in)
}

// aheadRig is a server, a store in dir, a countingHandler and the
// Watcher's options for the tests of the presumption written ahead.
func aheadRig(t *testing.T, dir string) (*memServer, *store.DB, *countingHandler, Options) {
	ms := startServer(t, capsRev2)
	db, err := store.Open(filepath.Join(dir, "referee.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	h := &countingHandler{fakeHandler: newHandler(), db: db, counts: map[string]int{}}
	return ms, db, h, testOptions(ms.addr, db, h, &testkit.SyncBuffer{})
}

// aheadMail is the i-th mail of two senders about a game each.
func aheadMail(i int) []byte {
	senders := []string{"Ann <ann@a.test>", "Bob <bob@b.test>"}
	return rollRaw(rollMail{id: fmt.Sprintf("<a%d@x>", i), from: senders[i%2], game: fmt.Sprintf("g%d", i)})
}

func (h *countingHandler) count(key string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.counts[key]
}

// The presumption written ahead (ahead.go, doc.go "Rolling in"): a look's
// commit puts on record the hand-overs of the next FetchBatch UIDs, before
// their mails come; in the process that wrote it a presumption is never
// counted as a hand-over (the mails that come with those UIDs count one
// hand-over each, by a later look or one at a time), a graceful stop
// takes the unused ones back, and after a crash each one standing counts
// as a hand-over begun (the stated cost: a mail presumed by a dead
// process is counted twice at its first hand-over).
func TestPresumedAheadCountedOnlyAfterACrash_Issue25(t *testing.T) {
	dir := t.TempDir()
	ms, db, h, o := aheadRig(t, dir)
	o.FetchBatch, o.MaxCrashes = 3, 3
	filed := func(n int) func() bool {
		return func() bool { return len(contents(t, ms.addr, testUser, testPass, "Processed")) == n }
	}
	ms.deliver(t, "INBOX", aheadMail(1))
	ms.deliver(t, "INBOX", aheadMail(2))
	r := start(t, o)
	h.await(t, 2)
	eventually(t, "two filed", filed(2))
	validity := cursor(t, db, r.w.CursorKey()).UIDValidity
	attempts := func(db *store.DB, uid imap.UID) (n int) {
		db.View(func(tx *store.Tx) error { n = tx.AttemptCount(keyOf(validity, uid)); return nil })
		return n
	}
	for uid := imap.UID(3); uid <= 5; uid++ {
		if n := attempts(db, uid); n != 1 {
			t.Errorf("uid %d: %d hand-overs on record after the look, want 1 presumed", uid, n)
		}
	}
	ms.deliver(t, "INBOX", aheadMail(3))
	ms.deliver(t, "INBOX", aheadMail(4))
	h.await(t, 2)
	eventually(t, "four filed", filed(4))
	for uid := imap.UID(3); uid <= 4; uid++ {
		if n := h.count(keyOf(validity, uid)); n != 1 {
			t.Errorf("uid %d presumed by this process: %d hand-overs on record at its hand-over, want 1", uid, n)
		}
	}
	// The crash: the store as it stands; the graceful stop of the
	// original takes its presumptions back.
	copyPath := filepath.Join(dir, "crashed.db")
	testkit.CrashCopy(t, copyPath, db.Backup)
	standing := 0
	for uid := imap.UID(5); uid <= 8; uid++ {
		standing += attempts(db, uid)
	}
	r.stop()
	if standing == 0 {
		t.Fatalf("no presumption standing above uid 4 before the stop")
	}
	for uid := imap.UID(1); uid <= 8; uid++ {
		if n := attempts(db, uid); n != 0 {
			t.Errorf("uid %d: %d hand-overs on record after a graceful stop", uid, n)
		}
	}
	crashed, err := store.Open(copyPath, &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer crashed.Close()
	h2 := &countingHandler{fakeHandler: newHandler(), db: crashed, counts: map[string]int{}}
	o.Store, o.Handler = crashed, h2
	ms.deliver(t, "INBOX", aheadMail(5))
	r2 := start(t, o)
	defer r2.stop()
	h2.await(t, 1)
	if n := h2.count(keyOf(validity, 5)); n != 2 {
		t.Errorf("uid 5, presumed by the crashed process: %d hand-overs on record at its hand-over, want 2", n)
	}
}
