package store

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store/codec"
)

// dump is the whole content of the store's buckets a unit of work writes.
func dump(t *testing.T, db *DB) string {
	t.Helper()
	var b bytes.Buffer
	err := db.View(func(tx *Tx) error {
		for _, name := range []string{"games", "inbound", "wake", "queue.outbox"} {
			fmt.Fprintf(&b, "[%s]\n", name)
			if err := tx.bucket([]byte(name)).ForEach(func(k, v []byte) error {
				fmt.Fprintf(&b, "%q=%q\n", k, v)
				return nil
			}); err != nil {
				return err
			}
		}
		return tx.Log("g1", 1, func(seq uint64, e []byte) error {
			fmt.Fprintf(&b, "log %d %s\n", seq, e)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// work is one input as the referee writes it: it reads what it needs
// (the de-duplication keys, the game, the log) and writes its records.
func work(tx *Tx, n int) error {
	if _, seen, err := tx.Seen(fmt.Sprintf("msgid:<%d@x>", n)); err != nil || seen {
		return fmt.Errorf("seen %v %v", seen, err)
	}
	if _, err := tx.Game("g1"); err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	if err := writeInput(tx, n); err != nil {
		return err
	}
	var entries int
	if err := tx.Log("g1", 1, func(uint64, []byte) error { entries++; return nil }); err != nil {
		return err
	}
	if uint64(entries) != tx.LogLen("g1") {
		return fmt.Errorf("%d entries, LogLen %d", entries, tx.LogLen("g1"))
	}
	if rec, err := tx.Game("g1"); err != nil || !bytes.Contains(rec, []byte(fmt.Sprint(n))) {
		return fmt.Errorf("the game as written: %s %v", rec, err)
	}
	if err := tx.PutVERP(fmt.Sprint("v", n), VERPRecord{To: "Ann@X", Key: "k", Sent: t0}); err != nil {
		return err
	}
	return tx.SetWake("g1", t0.Add(time.Duration(n)*time.Hour))
}

// A speculation that nothing disturbed commits exactly the writes of the
// same work done in a write transaction.
func TestSpeculationCommits(t *testing.T) {
	direct, spec := open(t), open(t)
	for n := 1; n <= 3; n++ {
		if err := direct.Update(func(tx *Tx) error { return work(tx, n) }); err != nil {
			t.Fatal(err)
		}
		s, err := spec.Speculate(func(tx *Tx) error { return work(tx, n) })
		if err != nil {
			t.Fatal(err)
		}
		if err := spec.Commit(s, nil); err != nil {
			t.Fatal(err)
		}
	}
	if a, b := dump(t, direct), dump(t, spec); a != b {
		t.Fatalf("direct:\n%s\nspeculated:\n%s", a, b)
	}
}

// A speculation whose reads changed before its commit writes nothing.
func TestSpeculationConflicts(t *testing.T) {
	for _, c := range []struct {
		name  string
		other func(tx *Tx) error
	}{
		{"game", func(tx *Tx) error { return tx.PutGame("g1", []byte(`{"other":1}`)) }},
		{"log", func(tx *Tx) error { _, err := tx.AppendLog("g1", []byte(`{}`)); return err }},
		{"seen", func(tx *Tx) error {
			return tx.MarkInbound(InboundRecord{Keys: []string{"msgid:<2@x>"}, Received: t0, Outcome: "applied"})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := open(t)
			if err := db.Update(func(tx *Tx) error { return work(tx, 1) }); err != nil {
				t.Fatal(err)
			}
			s, err := db.Speculate(func(tx *Tx) error { return work(tx, 2) })
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Update(c.other); err != nil {
				t.Fatal(err)
			}
			before := dump(t, db)
			if err := db.Commit(s, nil); !errors.Is(err, ErrConflict) {
				t.Fatalf("commit: %v", err)
			}
			if after := dump(t, db); after != before {
				t.Fatalf("a conflicting speculation wrote:\n%s\nthen\n%s", before, after)
			}
		})
	}
}

// A speculation that touched what it cannot check (here: every player),
// or whose caller says no, never commits.
func TestSpeculationWideAndCheck(t *testing.T) {
	db := open(t)
	s, err := db.Speculate(func(tx *Tx) error {
		if err := tx.Players(func(string, []byte) error { return nil }); err != nil {
			return err
		}
		return work(tx, 1)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Wide() {
		t.Fatal("not wide")
	}
	if err := db.Commit(s, nil); !errors.Is(err, ErrConflict) {
		t.Fatalf("wide commit: %v", err)
	}
	s, err = db.Speculate(func(tx *Tx) error { return work(tx, 1) })
	if err != nil || s.Wide() {
		t.Fatal(err, s.Wide())
	}
	if err := db.Commit(s, func() bool { return false }); !errors.Is(err, ErrConflict) {
		t.Fatalf("refused commit: %v", err)
	}
	if err := db.Commit(s, func() bool { return true }); err != nil {
		t.Fatal(err)
	}
	// A write a speculation cannot keep fails as in a read transaction.
	if _, err := db.Speculate(func(tx *Tx) error { return tx.PutPlayer("ann@x", []byte(`{}`)) }); err == nil {
		t.Fatal("a speculation wrote a player")
	}
}

// Speculations committed while a write transaction holds the lock are
// written together, each checked against the ones before it.
func TestSpeculationGroupCommit(t *testing.T) {
	db := open(t)
	const n = 6
	specs := make([]*Spec, n)
	for i := range specs {
		g := fmt.Sprintf("g%d", i)
		s, err := db.Speculate(func(tx *Tx) error {
			if _, err := tx.Game(g); !errors.Is(err, ErrNotFound) {
				return fmt.Errorf("game %s: %v", g, err)
			}
			return tx.PutGame(g, []byte(`{}`))
		})
		if err != nil {
			t.Fatal(err)
		}
		specs[i] = s
	}
	// The last one conflicts with the first: both read "g0" absent and
	// write it.
	last, err := db.Speculate(func(tx *Tx) error {
		if _, err := tx.Game("g0"); !errors.Is(err, ErrNotFound) {
			return err
		}
		return tx.PutGame("g0", []byte(`{"late":1}`))
	})
	if err != nil {
		t.Fatal(err)
	}
	specs = append(specs, last)
	hold, held := make(chan struct{}), make(chan struct{})
	go db.Update(func(*Tx) error { close(held); <-hold; return nil })
	<-held
	errs := make(chan error, len(specs))
	for _, s := range specs {
		go func() { errs <- db.Commit(s, nil) }()
	}
	// Let them all queue behind the lock, then release it.
	for {
		k, _ := db.group.Counts() // pending, or taken by the leader (which may take more than one)
		if k >= len(specs) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(hold)
	conflicts := 0
	for range specs {
		if err := <-errs; errors.Is(err, ErrConflict) {
			conflicts++
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if conflicts != 1 {
		t.Errorf("%d conflicts, want 1", conflicts)
	}
	if _, b := db.group.Counts(); b > 2 {
		t.Errorf("%d commits for %d speculations", b, len(specs))
	}
	// Whichever of the two writers of g0 came first won.
	err = db.View(func(tx *Tx) error {
		for i := 0; i < n; i++ {
			rec, err := tx.Game(fmt.Sprintf("g%d", i))
			if err != nil || string(rec) != `{}` && (i > 0 || string(rec) != `{"late":1}`) {
				return fmt.Errorf("g%d: %s %v", i, rec, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A speculation's mails and game snapshots are compressed on its
// snapshot, outside the write lock: its commit writes the bytes it packed
// and compresses nothing (doc.go, "Compression"), and they read back as
// written.
func TestSpeculationCompressesBeforeTheLock(t *testing.T) {
	db := open(t)
	rec := record(rand.New(rand.NewPCG(1, 2)), 3*minDeltaRecord)
	var mails [][]byte
	for n := range 4 {
		mails = append(mails, bytes.Repeat([]byte(fmt.Sprintf("Subject: move %d\r\nYour turn.\r\n", n)), 40*(n+1)))
	}
	s, err := db.Speculate(func(tx *Tx) error {
		if err := tx.PutGame("g9", rec); err != nil {
			return err
		}
		for i, m := range mails {
			if _, err := tx.Enqueue("outbox", Item{Key: fmt.Sprint(i), To: "a@x", Payload: m, Created: t0}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	before := codec.Compressed()
	if err := db.Commit(s, nil); err != nil {
		t.Fatal(err)
	}
	if n := codec.Compressed() - before; n != 0 {
		t.Errorf("the commit compressed %d values", n)
	}
	db.View(func(tx *Tx) error {
		if v := getValue(tx.bucket(bGameSnap), []byte("g9")); len(v) == 0 || v[0] != snapZ {
			t.Errorf("the game's snapshot not stored compressed")
		}
		if got, err := tx.Game("g9"); err != nil || !bytes.Equal(got, rec) {
			t.Errorf("the game reads %d bytes of %d (%v)", len(got), len(rec), err)
		}
		for i, m := range mails {
			if got := tx.Payload("outbox", uint64(i+1)); !bytes.Equal(got, m) {
				t.Errorf("mail %d reads %d bytes of %d", i, len(got), len(m))
			}
			if z := getValue(tx.bucket([]byte("queue.outbox")), zbodyKey(uint64(i+1))); z == nil {
				t.Errorf("mail %d not stored compressed", i)
			}
		}
		return nil
	})
}
