package imapin

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/pbem-referee/referee/referee/rigs/testkit"
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

// dropGone against a model: 300 generated cases of presumptions under two
// UIDVALIDITYs, a cursor and the UIDs the server lists above it; those of
// another UIDVALIDITY, and those at most the highest UID (or the cursor)
// and not listed, are taken back in the store and in the Watcher's set,
// the others stay.
func TestDropGoneAgainstAModel_Issue25(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 25))
		db, err := store.Open(filepath.Join(t.TempDir(), "referee.db"), &store.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		w, err := New(testOptions("127.0.0.1:1", db, newHandler(), &testkit.SyncBuffer{}))
		if err != nil {
			t.Fatal(err)
		}
		cur := store.Cursor{UIDValidity: 7, LastUID: uint32(rng.IntN(10))}
		var uids []imap.UID
		for u := cur.LastUID + 1; u <= 30; u++ {
			if rng.IntN(3) == 0 {
				uids = append(uids, imap.UID(u))
			}
		}
		top := imap.UID(cur.LastUID)
		if len(uids) > 0 {
			top = uids[len(uids)-1]
		}
		want := map[string]bool{} // key -> stays
		var added []string
		if err := db.Update(func(tx *store.Tx) error {
			for range rng.IntN(12) {
				v, u := uint32(7), imap.UID(1+rng.IntN(30))
				if rng.IntN(4) == 0 {
					v = 6
				}
				k := keyOf(v, u)
				if _, ok := want[k]; ok {
					continue
				}
				_, listed := slices.BinarySearch(uids, u)
				want[k] = v == cur.UIDValidity && (u > top || listed)
				added = append(added, k)
				if _, err := tx.BeginAttemptFrom(k, 0); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		w.usedAhead(nil, added)
		if err := w.dropGone(cur, uids); err != nil {
			t.Fatal(err)
		}
		for k, stays := range want {
			var n int
			db.View(func(tx *store.Tx) error { n = tx.AttemptCount(k); return nil })
			if (n == 1) != stays || w.ahead[k] != stays {
				t.Errorf("seed %d: %s (cursor %d, listed %v): on record %d, in the set %v, want it to stay: %v",
					seed, k, cur.LastUID, uids, n, w.ahead[k], stays)
			}
		}
		db.Close()
	}
}
