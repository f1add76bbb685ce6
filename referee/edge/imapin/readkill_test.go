package imapin

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/store"
)

// killingReader is the rolling model as a mailin.Reader whose reading of
// one mail (the bomb) kills the process: its Parse, and its HandleMail
// (which would parse it), copy the store as it stands and play dead.
type killingReader struct {
	*rollModel
	bomb string
}

func (k *killingReader) crashNow() {
	k.mu.Lock()
	k.crashA = k.steps + 1
	k.mu.Unlock()
	k.step()
}

func (k *killingReader) Parse(in mailin.Inbound) *mailin.Parsed {
	if msgID(in.Raw) == k.bomb {
		k.crashNow()
	}
	return mailin.ParseMail(in, 0, "")
}

func (k *killingReader) HandleParsed(ctx context.Context, p *mailin.Parsed) (referee.Outcome, error) {
	return k.HandleMail(ctx, p.In)
}

func (k *killingReader) HandleMail(ctx context.Context, in mailin.Inbound) (referee.Outcome, error) {
	if msgID(in.Raw) == k.bomb {
		k.crashNow()
		return referee.Outcome{}, referee.Permanent("dead")
	}
	return k.rollModel.HandleMail(ctx, in)
}

// One reading (doc.go): a mail whose reading kills the process (the
// reading the lanes make before any hand-over is on record, or the one in
// its hand-over) is counted alone: after each crash, the store as it
// stood at that instant, the Watcher restarts; the bomb is quarantined
// after MaxCrashes hand-overs, every other mail of four senders about
// three games is applied once, in order per game and per sender, filed,
// none quarantined, and no attempt stays on record. The bomb sits at
// every place of the mailbox in turn, with the first look before it
// or not (the presumption of a look of this process, or the one the
// Watcher writes at its first look).
func TestReadingThatKillsIsCountedAlone(t *testing.T) {
	eachBombPlace(t, []int{0, 2, 5}, readingKills)
}

func readingKills(t *testing.T, at int, later bool) {
	senders := []string{"Ann <ann@a.test>", "Bob <bob@b.test>", "Cy <cy@c.test>", "Dee <dee@d.test>"}
	var mails []rollMail
	for i := range 7 {
		mails = append(mails, rollMail{id: fmt.Sprintf("<m%02d@x>", i), from: senders[i%len(senders)], game: fmt.Sprintf("g%d", 1+i%3)})
	}
	bomb := rollMail{id: "<bomb@x>", from: "Eve <eve@e.test>", game: "g9"}
	ms := startServer(t, capsRev2)
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, "referee.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	m := &rollModel{t: t, ms: ms, waves: map[int][]rollMail{}, copyTo: filepath.Join(dir, "crashed.db"), db: db,
		crashed: make(chan struct{})}
	k := &killingReader{rollModel: m, bomb: bomb.id}
	o := crashOptions(ms.addr, db, k)
	crash := func(w *Watcher) {
		m.cursorKey = w.CursorKey()
		w.afterHandle = func(imap.UID) error {
			m.mu.Lock()
			defer m.mu.Unlock()
			if m.dead {
				return errCrash
			}
			return nil
		}
		w.afterCursor = w.afterHandle
	}
	first := 0
	if later {
		first = 2
	}
	for _, r := range mails[:first] {
		ms.deliver(t, "INBOX", rollRaw(r))
	}
	r := start(t, o, crash)
	if later {
		eventually(t, "the first look filed", func() bool { return len(contents(t, ms.addr, testUser, testPass, "INBOX")) == 0 })
	}
	rest := slices.Insert(slices.Clone(mails[first:]), min(at, len(mails)-first), bomb)
	for _, x := range rest {
		ms.deliver(t, "INBOX", rollRaw(x))
	}
	r.w.Kick()
	crashes := 0
	for {
		var crashed bool
		filed := func() bool {
			return len(contents(t, ms.addr, testUser, testPass, "INBOX")) == 0
		}
		for end := time.Now().Add(20 * time.Second); time.Now().Before(end); {
			select {
			case <-m.crashed:
				crashed = true
			case <-time.After(20 * time.Millisecond):
			}
			if crashed || filed() {
				break
			}
		}
		if !crashed {
			break
		}
		crashes++
		if crashes > o.MaxCrashes+2 {
			r.stop()
			t.Fatalf("%d crashes: the bomb is not counted", crashes)
		}
		r.stop()
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		moved := filepath.Join(dir, fmt.Sprintf("run%d.db", crashes))
		if err := os.Rename(m.copyTo, moved); err != nil {
			t.Fatal(err)
		}
		if db, err = store.Open(moved, &store.Options{NoSync: true}); err != nil {
			t.Fatal(err)
		}
		m.mu.Lock()
		m.applied = slices.DeleteFunc(m.applied, func(id string) bool { return !inStore(t, db, id) })
		m.db, m.dead, m.crashA, m.crashed = db, false, 0, make(chan struct{})
		m.mu.Unlock()
		o.Store = db
		r = start(t, o, crash)
	}
	r.stop()
	defer func() { _ = db.Close() }()
	// The bomb's hand-overs (MaxCrashes, one more when a presumption
	// made for it is overwritten by a duplicate's cursor), and its reading
	// by the lanes when the presumption it broke was another mail's.
	if crashes < o.MaxCrashes {
		t.Errorf("%d crashes, want at least %d", crashes, o.MaxCrashes)
	}
	t.Logf("%d crashes", crashes)
	if q := msgIDs(contents(t, ms.addr, testUser, testPass, "Quarantine")); q != bomb.id {
		t.Errorf("quarantined: %q, want the bomb alone", q)
	}
	if p := contents(t, ms.addr, testUser, testPass, "Processed"); len(p) != len(mails) {
		t.Errorf("%d mails processed, want %d", len(p), len(mails))
	}
	m.mu.Lock()
	checkRollModel(t, mails, m.applied)
	m.mu.Unlock()
	validity := cursor(t, db, r.w.CursorKey()).UIDValidity
	db.View(func(tx *store.Tx) error {
		for uid := 1; uid <= len(mails)+1; uid++ {
			if c := tx.AttemptCount(keyOf(validity, imap.UID(uid))); c != 0 {
				t.Errorf("uid %d: %d attempts left on record", uid, c)
			}
		}
		return nil
	})
}
