package imapin

import (
	"fmt"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/pbem-referee/referee/store"
)

// The presumptions of UIDs that never come are taken back (ahead.go
// dropGone, doc.go "Rolling in", issue 25): once the server lists a
// higher UID than one presumed and not that one (it was expunged before
// the Watcher saw it), its record goes at that look, not at a graceful
// stop (and after a crash it would have stood for good). After a first
// look that presumed UIDs 3 to 5, n = 2 to 5 mails come, every non-empty
// set of them but the last expunged before the next look (those above 5
// were not presumed): 26 cases; the
// mails that stay are each handed over with one hand-over on record.
func TestPresumptionsOfUIDsGoneTakenBack_Issue25(t *testing.T) {
	for n := 2; n <= 5; n++ {
		for set := 1; set < 1<<(n-1); set++ {
			t.Run(fmt.Sprintf("%d-%b", n, set), func(t *testing.T) {
				var gone []imap.UID
				for i := range n - 1 {
					if set&(1<<i) != 0 {
						gone = append(gone, imap.UID(3+i))
					}
				}
				presumedGone(t, n, gone)
			})
		}
	}
}

func presumedGone(t *testing.T, n int, gone []imap.UID) {
	ms, db, h, o := aheadRig(t, t.TempDir())
	o.FetchBatch, o.Idle = 3, IdleOff // looks at a Kick only
	ms.deliver(t, "INBOX", aheadMail(1))
	ms.deliver(t, "INBOX", aheadMail(2))
	r := start(t, o)
	defer r.stop()
	h.await(t, 2)
	eventually(t, "two filed", func() bool { return len(contents(t, ms.addr, testUser, testPass, "Processed")) == 2 })
	time.Sleep(50 * time.Millisecond) // the look's own kick looked again
	validity := cursor(t, db, r.w.CursorKey()).UIDValidity
	attempts := func(uid imap.UID) (k int) {
		db.View(func(tx *store.Tx) error { k = tx.AttemptCount(keyOf(validity, uid)); return nil })
		return k
	}
	for _, u := range gone {
		if k := attempts(u); u <= 5 && k != 1 {
			t.Fatalf("uid %d: %d hand-overs on record before it came, want 1 presumed", u, k)
		}
	}
	for i := 3; i <= 2+n; i++ {
		ms.deliver(t, "INBOX", aheadMail(i))
	}
	expunge(t, ms.addr, gone)
	r.w.Kick()
	h.await(t, n-len(gone))
	eventually(t, "filed", func() bool { return len(contents(t, ms.addr, testUser, testPass, "Processed")) == 2+n-len(gone) })
	// A look of its own after the filing (a mail rolled in past an
	// expunged UID is looked at after the look that took it): two syncs
	// after a kick, so that one began after it.
	for range 2 {
		before := r.w.lastSync.Load()
		r.w.Kick()
		eventually(t, "a look", func() bool { return r.w.lastSync.Load() != before })
	}
	for _, u := range gone {
		if k := attempts(u); k != 0 {
			t.Errorf("uid %d expunged before it was seen: %d hand-overs on record, want the presumption taken back", u, k)
		}
	}
	for u := imap.UID(3); u <= imap.UID(2+n); u++ {
		if k := h.count(keyOf(validity, u)); k > 1 {
			t.Errorf("uid %d: %d hand-overs on record at its hand-over, want 1", u, k)
		}
	}
}

// expunge removes the messages of the given UIDs from INBOX over a
// connection of its own.
func expunge(t *testing.T, addr string, uids []imap.UID) {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(testUser, testPass).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.UIDSetNum(uids...), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true,
		Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Expunge().Close(); err != nil {
		t.Fatal(err)
	}
}
