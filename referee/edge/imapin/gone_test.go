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
		db, w := goneRig(t)
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

// After a crash, the dead process's presumptions (and hand-overs it began)
// for UIDs that never come are taken back too (ahead.go readDead, doc.go
// "Rolling in", issue 25: they stood for good). Against a model over 300
// generated cases of three looks each: hand-overs on record (1 to 3
// times) under two UIDVALIDITYs at UIDs 1-30, the mails of some UIDs
// expunged before they were seen, the cursor and the UIDs the server
// lists growing look by look (a listed mail's hand-over ends its record).
// After each look: another UIDVALIDITY's records gone; at or below the
// first cursor (a leftover's, counted for its crashes) kept; above it,
// gone once a higher UID was listed and not theirs, kept while none was;
// this process's own presumptions as before; one commit at a look that
// took some back, none at one that took none.
func TestDropGoneOfADeadProcessAgainstAModel_Issue25(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 26))
		db, w := goneRig(t)
		cur := store.Cursor{UIDValidity: 7, LastUID: uint32(rng.IntN(8))}
		first := imap.UID(cur.LastUID)
		expunged := map[imap.UID]bool{}
		for u := imap.UID(1); u <= 40; u++ {
			expunged[u] = rng.IntN(3) == 0
		}
		counts := map[string]int{} // the dead process's records
		var own []string           // this process's presumptions
		if err := db.Update(func(tx *store.Tx) error {
			for range rng.IntN(14) {
				v, u := uint32(7), imap.UID(1+rng.IntN(30))
				if rng.IntN(4) == 0 {
					v = 6
				}
				k := keyOf(v, u)
				if counts[k] > 0 {
					continue
				}
				counts[k] = 1 + rng.IntN(3)
				if _, err := tx.BeginAttemptFrom(k, counts[k]-1); err != nil {
					return err
				}
			}
			// A mailbox of another name that shares the prefix.
			_, err := tx.BeginAttemptFrom(fmt.Sprintf("imap:%s/INBOX/sub/7/%d", testUser, 1+rng.IntN(30)), 0)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		arrived := first
		for look := range 3 {
			arrived += imap.UID(rng.IntN(12))
			var uids []imap.UID
			for u := imap.UID(cur.LastUID) + 1; u <= arrived; u++ {
				if !expunged[u] {
					uids = append(uids, u)
				}
			}
			top := imap.UID(cur.LastUID)
			if len(uids) > 0 {
				top = uids[len(uids)-1]
			}
			// This process presumes the window above the look before
			// (not a record of the dead one's).
			if look > 0 {
				if err := db.Update(func(tx *store.Tx) error {
					for u := top + 1; u <= top+2; u++ {
						if k := keyOf(7, u); counts[k] == 0 && !w.ahead[k] && tx.AttemptCount(k) == 0 {
							if _, err := tx.BeginAttemptFrom(k, 0); err != nil {
								return err
							}
							own = append(own, k)
							w.usedAhead(nil, []string{k})
						}
					}
					return nil
				}); err != nil {
					t.Fatal(err)
				}
			}
			want := map[string]int{}
			takes := false
			for k, n := range counts {
				var v uint32
				var u imap.UID
				fmt.Sscanf(k[len(keyOf(0, 0))-3:], "%d/%d", &v, &u)
				_, listed := slices.BinarySearch(uids, u)
				switch {
				case v != 7 || u > imap.UID(cur.LastUID) && u <= top && !listed:
					takes = true
				default:
					want[k] = n
				}
			}
			for _, k := range own {
				var u imap.UID
				fmt.Sscanf(k[len(keyOf(7, 0))-1:], "%d", &u)
				if _, listed := slices.BinarySearch(uids, u); u <= top && !listed && w.ahead[k] {
					takes = true
				}
			}
			ws := db.WriteStats()
			if err := w.dropGone(cur, uids); err != nil {
				t.Fatal(err)
			}
			if got := db.WriteStats().Sub(ws).Commits; got != map[bool]int64{false: 0, true: 1}[takes] {
				t.Errorf("seed %d, look %d: %d commits, want one if some were taken back (%v)", seed, look, got, takes)
			}
			for k := range counts {
				var n int
				db.View(func(tx *store.Tx) error { n = tx.AttemptCount(k); return nil })
				if n != want[k] {
					t.Errorf("seed %d, look %d: %s (first cursor %d, cursor %d, listed %v): on record %d, want %d",
						seed, look, k, first, cur.LastUID, uids, n, want[k])
				}
			}
			counts = want
			// The look hands the listed mails over: their records end.
			if err := db.Update(func(tx *store.Tx) error {
				for _, u := range uids {
					delete(counts, keyOf(7, u))
					w.usedAhead([]string{keyOf(7, u)}, nil)
					if err := tx.EndAttempt(keyOf(7, u)); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			cur.LastUID = uint32(top)
		}
		var other int
		db.View(func(tx *store.Tx) error {
			other = len(tx.AttemptKeys(fmt.Sprintf("imap:%s/INBOX/sub/", testUser)))
			return nil
		})
		if other != 1 {
			t.Errorf("seed %d: the other mailbox's record taken back", seed)
		}
		db.Close()
	}
}

// goneRig is a store and a Watcher on it that never connects (dropGone's
// model tests call it directly).
func goneRig(t *testing.T) (*store.DB, *Watcher) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "referee.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	w, err := New(testOptions("127.0.0.1:1", db, newHandler(), &testkit.SyncBuffer{}))
	if err != nil {
		t.Fatal(err)
	}
	return db, w
}
