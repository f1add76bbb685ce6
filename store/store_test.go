package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// open opens a fresh store and checks its consistency when the test ends.
func open(t testing.TB) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "referee.db"), &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Check(); err != nil {
			t.Errorf("tx.Check: %v", err)
		}
		db.Close()
	})
	return db
}

var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func TestOpenSchemaAndLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := db.SchemaVersion(); err != nil || v != SchemaVersion {
		t.Fatalf("schema version %d, %v", v, err)
	}
	start := time.Now()
	if _, err := Open(path, &Options{Timeout: 100 * time.Millisecond}); !errors.Is(err, ErrLocked) {
		t.Fatalf("second open: %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("lock timeout not honoured")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = Open(path, nil)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
	db.Close()
}

func TestMigrationHook(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	var ran []int
	mig := func(n int) Migration {
		return func(tx *bolt.Tx) error {
			ran = append(ran, n)
			_, err := tx.CreateBucketIfNotExists([]byte("m" + strconv.Itoa(n)))
			return err
		}
	}
	all := append([]Migration{}, migrations...)
	db, err := Open(path, &Options{Migrations: all})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	// A newer code version adds two migrations: only those run.
	db, err = Open(path, &Options{Migrations: append(all, mig(1), mig(2))})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := db.SchemaVersion(); v != len(all)+2 || len(ran) != 2 || ran[0] != 1 || ran[1] != 2 {
		t.Fatalf("version %d, ran %v", v, ran)
	}
	db.Close()
	// Older code refuses the newer file.
	if _, err := Open(path, &Options{Migrations: all}); !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("old code opened a newer file: %v", err)
	}
	// A failing migration leaves the file at its version.
	boom := func(*bolt.Tx) error { return errors.New("boom") }
	if _, err := Open(path, &Options{Migrations: append(all, mig(1), mig(2), boom)}); err == nil {
		t.Fatal("failing migration accepted")
	}
	db, err = Open(path, &Options{Migrations: append(all, mig(1), mig(2))})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, _ := db.SchemaVersion(); v != len(all)+2 {
		t.Fatalf("version after failed migration: %d", v)
	}
}

// writeInput does what the referee does for one input, in one transaction.
func writeInput(tx *Tx, n int) error {
	key := "msgid:<" + strconv.Itoa(n) + "@x>"
	if err := tx.MarkInbound(InboundRecord{Keys: []string{key, "imap:INBOX/1/" + strconv.Itoa(n)}, Received: t0, Game: "g1", Seat: 0, Outcome: "applied"}); err != nil {
		return err
	}
	if err := tx.PutGame("g1", []byte(`{"n":`+strconv.Itoa(n)+`}`)); err != nil {
		return err
	}
	if _, err := tx.AppendLog("g1", []byte(fmt.Sprintf(`{"input":%d}`, n))); err != nil {
		return err
	}
	_, err := tx.Enqueue("outbox", Item{Key: "<reply" + strconv.Itoa(n) + "@ref>", To: "ann@x", Payload: []byte("mail"), Created: t0})
	return err
}

// The one-transaction rule: a failed transaction leaves nothing behind.
func TestFailedTransactionLeavesNothing(t *testing.T) {
	db := open(t)
	if err := db.Update(func(tx *Tx) error { return writeInput(tx, 1) }); err != nil {
		t.Fatal(err)
	}
	err := db.Update(func(tx *Tx) error {
		if err := writeInput(tx, 2); err != nil {
			return err
		}
		return errors.New("the engine failed after everything was written")
	})
	if err == nil {
		t.Fatal("error lost")
	}
	func() {
		defer func() { recover() }()
		db.Update(func(tx *Tx) error {
			writeInput(tx, 3)
			panic("crash inside the transaction")
		})
	}()
	db.View(func(tx *Tx) error {
		g, _ := tx.Game("g1")
		if string(g) != `{"n":1}` {
			t.Errorf("game = %s", g)
		}
		if n := tx.LogLen("g1"); n != 1 {
			t.Errorf("log length %d", n)
		}
		if n := tx.QueueLen("outbox"); n != 1 {
			t.Errorf("outbox length %d", n)
		}
		for _, k := range []string{"msgid:<2@x>", "msgid:<3@x>"} {
			if _, ok, _ := tx.Seen(k); ok {
				t.Errorf("%s recorded", k)
			}
		}
		return nil
	})
}

func TestInboundDeduplication(t *testing.T) {
	db := open(t)
	if err := db.Update(func(tx *Tx) error { return writeInput(tx, 1) }); err != nil {
		t.Fatal(err)
	}
	// The same message again, seen through another key, is a duplicate and
	// the whole transaction is abandoned.
	err := db.Update(func(tx *Tx) error {
		return tx.MarkInbound(InboundRecord{Keys: []string{"imap:INBOX/1/99", "msgid:<1@x>"}, Received: t0})
	})
	if !errors.Is(err, ErrDuplicate) {
		t.Fatalf("duplicate: %v", err)
	}
	db.View(func(tx *Tx) error {
		if _, ok, _ := tx.Seen("imap:INBOX/1/99"); ok {
			t.Error("partial record of a duplicate")
		}
		r, ok, err := tx.Seen("imap:INBOX/1/1", "msgid:<1@x>") // its UID alone is not indexed (doc.go, "Key layout")
		if !ok || err != nil || r.Outcome != "applied" || r.Game != "g1" {
			t.Errorf("seen = %+v %v %v", r, ok, err)
		}
		return nil
	})
	db.Update(func(tx *Tx) error {
		n, err := tx.PruneInbound(t0.Add(time.Hour))
		if n != 1 || err != nil {
			t.Errorf("pruned %d, %v", n, err)
		}
		return nil
	})
}

func TestLogIsOrderedAndPerGame(t *testing.T) {
	db := open(t)
	db.Update(func(tx *Tx) error {
		for i := 1; i <= 300; i++ {
			if seq, err := tx.AppendLog("g1", []byte(strconv.Itoa(i))); err != nil || seq != uint64(i) {
				t.Fatalf("append %d: seq %d, %v", i, seq, err)
			}
		}
		tx.AppendLog("g2", []byte("other"))
		return nil
	})
	db.View(func(tx *Tx) error {
		var got []string
		tx.Log("g1", 298, func(seq uint64, e []byte) error {
			got = append(got, fmt.Sprintf("%d=%s", seq, e))
			return nil
		})
		if fmt.Sprint(got) != "[298=298 299=299 300=300]" {
			t.Errorf("log tail = %v", got)
		}
		if tx.LogLen("g2") != 1 || tx.LogLen("nope") != 0 {
			t.Error("log lengths")
		}
		return nil
	})
}

func TestQueueLifecycle(t *testing.T) {
	db := open(t)
	var a, b uint64
	db.Update(func(tx *Tx) error {
		a, _ = tx.Enqueue("outbox", Item{Key: "<a@r>", To: "ann@x", Created: t0})
		b, _ = tx.Enqueue("outbox", Item{Key: "<b@r>", To: "bob@x", Created: t0, Due: t0.Add(time.Hour)})
		if _, err := tx.Enqueue("nope", Item{}); err == nil {
			t.Error("unknown queue accepted")
		}
		return nil
	})
	db.Update(func(tx *Tx) error {
		due, _ := tx.Due("outbox", t0, 0)
		if len(due) != 1 || due[0].ID != a {
			t.Fatalf("due = %+v", due)
		}
		// Record the attempt before sending; a crash now means a retry at t0+10m.
		it, err := tx.Attempt("outbox", a, t0, t0.Add(10*time.Minute))
		if err != nil || it.Attempts != 1 {
			t.Fatalf("attempt: %+v %v", it, err)
		}
		if d, _ := tx.Due("outbox", t0.Add(time.Minute), 0); len(d) != 0 {
			t.Errorf("item in flight is due: %+v", d)
		}
		if next, ok, _ := tx.NextDue("outbox"); !ok || !next.Equal(t0.Add(10*time.Minute)) {
			t.Errorf("next due %v %v", next, ok)
		}
		tx.Retry("outbox", a, t0.Add(20*time.Minute), "451 try later")
		tx.Finish("outbox", b, Failed, t0, t0.Add(24*time.Hour), "550 no such user")
		return nil
	})
	db.Update(func(tx *Tx) error {
		if tx.QueueLen("outbox") != 1 {
			t.Errorf("live items: %d", tx.QueueLen("outbox"))
		}
		it, _ := tx.QueueItem("outbox", a)
		if it.LastError != "451 try later" || !it.Due.Equal(t0.Add(20*time.Minute)) {
			t.Errorf("retry: %+v", it)
		}
		tx.Finish("outbox", a, Sent, t0.Add(21*time.Minute), t0.Add(48*time.Hour), "")
		it, _ = tx.QueueItem("outbox", a)
		if it.State != Sent || it.LastError != "" {
			t.Errorf("sent item: %+v", it)
		}
		fb, _ := tx.QueueItem("outbox", b)
		if fb.State != Failed || fb.LastError != "550 no such user" {
			t.Errorf("failed item: %+v", fb)
		}
		if _, err := tx.Attempt("outbox", a, t0, t0); !errors.Is(err, ErrNotFound) {
			t.Errorf("attempt on a retired item: %v", err)
		}
		n, _ := tx.PruneRetired("outbox", t0.Add(30*time.Hour))
		if n != 1 {
			t.Errorf("pruned %d", n)
		}
		return nil
	})
}

func TestWakeIndex(t *testing.T) {
	db := open(t)
	db.Update(func(tx *Tx) error {
		tx.SetWake("g1", t0.Add(3*time.Hour))
		tx.SetWake("g2", t0.Add(1*time.Hour))
		tx.SetWake("g3", t0.Add(2*time.Hour))
		tx.SetWake("g1", t0.Add(30*time.Minute)) // replaces
		tx.SetWake("g3", time.Time{})            // removes
		return nil
	})
	db.View(func(tx *Tx) error {
		if got := tx.DueWakes(t0.Add(90*time.Minute), 0); fmt.Sprint(got) != "[g1 g2]" {
			t.Errorf("due = %v", got)
		}
		if got := tx.DueWakes(t0.Add(10*time.Hour), 1); fmt.Sprint(got) != "[g1]" {
			t.Errorf("limited = %v", got)
		}
		if n, ok := tx.NextWake(); !ok || !n.Equal(t0.Add(30*time.Minute)) {
			t.Errorf("next = %v", n)
		}
		if !tx.Wake("g3").IsZero() || !tx.Wake("g2").Equal(t0.Add(time.Hour)) {
			t.Error("Wake")
		}
		return nil
	})
}

// A file written by schema 2 gets its queues indexed by due time on open.
func TestMigrationIndexesQueues(t *testing.T) {
	db, path := openAtSchema(t, 2)
	// Schema 2 had no index: write the items straight into the bucket.
	db.bolt.Update(func(btx *bolt.Tx) error {
		b := bucketOf(btx, []byte("queue.outbox"))
		for i, due := range []time.Time{t0.Add(2 * time.Hour), t0, t0.Add(time.Hour)} {
			id, _ := b.NextSequence()
			putJSON(b, u64(id), Item{ID: id, Key: fmt.Sprint(i), Due: due, State: Pending})
		}
		return nil
	})
	db.Close()
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(func(tx *Tx) error {
		due, _ := tx.Due("outbox", t0.Add(90*time.Minute), 0)
		if len(due) != 2 || due[0].Key != "1" || due[1].Key != "2" {
			t.Errorf("due after migration: %+v", due)
		}
		return nil
	})
}

// The due-time index follows every change of an item.
func TestDueIndex(t *testing.T) {
	db := open(t)
	var a, b, c uint64
	db.Update(func(tx *Tx) error {
		a, _ = tx.Enqueue("outbox", Item{Key: "a", Created: t0, Due: t0.Add(3 * time.Hour)})
		b, _ = tx.Enqueue("outbox", Item{Key: "b", Created: t0})
		c, _ = tx.Enqueue("outbox", Item{Key: "c", Created: t0, Due: t0.Add(time.Hour)})
		return nil
	})
	keys := func(now time.Time) string {
		var ks []string
		db.View(func(tx *Tx) error {
			due, _ := tx.Due("outbox", now, 0)
			for _, it := range due {
				ks = append(ks, it.Key)
			}
			return nil
		})
		return strings.Join(ks, ",")
	}
	if got := keys(t0.Add(10 * time.Hour)); got != "b,c,a" {
		t.Fatalf("by due time: %s", got)
	}
	db.Update(func(tx *Tx) error {
		tx.Attempt("outbox", b, t0, t0.Add(5*time.Hour)) // b moves to the end
		tx.Finish("outbox", c, Sent, t0, t0, "")         // c leaves
		return nil
	})
	if got := keys(t0.Add(10 * time.Hour)); got != "a,b" {
		t.Fatalf("after attempt and finish: %s", got)
	}
	if got := keys(t0.Add(4 * time.Hour)); got != "a" {
		t.Fatalf("due by 4h: %s", got)
	}
	db.View(func(tx *Tx) error {
		if next, ok, _ := tx.NextDue("outbox"); !ok || !next.Equal(t0.Add(3*time.Hour)) {
			t.Errorf("next due %v", next)
		}
		// The index holds exactly the live items.
		n := 0
		tx.DueOrder("outbox", func(time.Time, uint64) (bool, error) { n++; return true, nil })
		if n != tx.QueueLen("outbox") {
			t.Errorf("index %d entries, %d live items", n, tx.QueueLen("outbox"))
		}
		return nil
	})
	_ = a
}

// A file written by schema 1 is migrated to the current schema on open:
// the quarantine bucket appears and works.
func TestMigrationFromSchema1(t *testing.T) {
	db, path := openAtSchema(t, 1)
	db.Update(func(tx *Tx) error { return tx.PutGame("g1", []byte("{}")) })
	db.Close()
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, _ := db.SchemaVersion(); v != SchemaVersion || SchemaVersion != 14 {
		t.Fatalf("schema %d", v)
	}
	err = db.Update(func(tx *Tx) error {
		if !tx.HasGame("g1") {
			return fmt.Errorf("data lost in the migration")
		}
		big := make([]byte, MaxQuarantined+10)
		_, err := tx.Quarantine(Quarantined{At: t0, Source: "webhook:raw", Reason: "unparseable", Raw: big})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *Tx) error {
		n := 0
		tx.Quarantined(func(q Quarantined) error {
			n++
			if !q.Truncated || len(q.Raw) != MaxQuarantined || q.Reason != "unparseable" {
				t.Errorf("quarantined %+v", q.Reason)
			}
			return nil
		})
		if n != 1 {
			t.Errorf("%d quarantined", n)
		}
		return nil
	})
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
}

func TestPlayersTokensCursorsRulesets(t *testing.T) {
	db := open(t)
	err := db.Update(func(tx *Tx) error {
		if err := tx.PutPlayer("Ann@Example.TEST", []byte(`{"name":"Ann"}`)); err != nil {
			return err
		}
		if err := tx.PutToken("abc", Token{Kind: "seat", Game: "g1", Seat: 2, Address: "ann@example.test", Created: t0}); err != nil {
			return err
		}
		if err := tx.PutToken("abc", Token{Kind: "org"}); !errors.Is(err, ErrDuplicate) {
			return fmt.Errorf("duplicate token: %v", err)
		}
		if err := tx.PutCursor("imap:INBOX", Cursor{UIDValidity: 7, LastUID: 42}); err != nil {
			return err
		}
		return tx.PutRuleset("sha", []byte("data"))
	})
	if err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *Tx) error {
		if p, err := tx.Player("ann@example.test"); err != nil || string(p) != `{"name":"Ann"}` {
			t.Errorf("player %s %v", p, err)
		}
		if tok, err := tx.Token("abc"); err != nil || tok.Seat != 2 || tok.Game != "g1" {
			t.Errorf("token %+v %v", tok, err)
		}
		if _, err := tx.Token("zzz"); !errors.Is(err, ErrNotFound) {
			t.Errorf("missing token: %v", err)
		}
		if c, _ := tx.Cursor("imap:INBOX"); c.LastUID != 42 {
			t.Errorf("cursor %+v", c)
		}
		if r, _ := tx.Ruleset("sha"); string(r) != "data" {
			t.Error("ruleset")
		}
		return nil
	})
}

// Intake attempts survive a reopen (a crash) and end when told (issue 11,
// item 1: poison-message protection).
func TestAttemptsSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for want := 1; want <= 2; want++ {
		var n int
		db.Update(func(tx *Tx) error { n, err = tx.BeginAttempt("imap:a/INBOX/1/7"); return err })
		if n != want {
			t.Fatalf("attempt %d, want %d", n, want)
		}
	}
	db.Close()
	db, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.Update(func(tx *Tx) error {
		if n := tx.AttemptCount("imap:a/INBOX/1/7"); n != 2 {
			t.Errorf("after reopen: %d attempts", n)
		}
		if err := tx.EndAttempt("imap:a/INBOX/1/7"); err != nil {
			return err
		}
		if n := tx.AttemptCount("imap:a/INBOX/1/7"); n != 0 {
			t.Errorf("after EndAttempt: %d", n)
		}
		return nil
	})
}

// A replay token is accepted once, until it expires and is pruned.
func TestReplayTokens(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "r.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.Update(func(tx *Tx) error {
		if _, ok, _ := tx.UseReplayToken("n1", "<a@x>", t0.Add(time.Hour)); !ok {
			t.Error("a new token was refused")
		}
		if prev, ok, _ := tx.UseReplayToken("n1", "<b@x>", t0.Add(time.Hour)); ok || prev != "<a@x>" {
			t.Errorf("a replayed token was accepted, or its first value lost: %q", prev)
		}
		if n, _ := tx.PruneReplay(t0.Add(2 * time.Hour)); n != 1 {
			t.Errorf("pruned %d", n)
		}
		if _, ok, _ := tx.UseReplayToken("n1", "", t0.Add(3*time.Hour)); !ok {
			t.Error("a token pruned after expiry was refused")
		}
		return nil
	})
}

// A file written by schema 4 keeps the bounces of the mails already in its
// outbox: their VERP ids are recorded by the migration (issue 11, item 6).
func TestMigrationRecordsVERPOfQueuedMail(t *testing.T) {
	db, path := openAtSchema(t, 4)
	db.Update(func(tx *Tx) error {
		// A row as schema 4 wrote it: JSON, its payload inside.
		return putJSON(tx.bucket([]byte("queue.outbox")), u64(1), Item{ID: 1, Key: "<m1@x>", To: "Ann@Example.test", Payload: []byte("x"),
			Meta: map[string]string{"from": "referee+bounce.00aa11bb22cc33dd@example.test"}, Created: t0, Due: t0, State: Pending})
	})
	db.Close()
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(func(tx *Tx) error {
		rec, ok, err := tx.VERP("00aa11bb22cc33dd")
		if err != nil || !ok || rec.To != "ann@example.test" || rec.Key != "<m1@x>" {
			t.Errorf("VERP after the migration: %+v %v %v", rec, ok, err)
		}
		return nil
	})
}

// Compact gives back the space of deleted records, and keeps the data.
func TestCompactReclaimsSpace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	big := make([]byte, 64<<10) // incompressible (store/codec)
	rand.NewChaCha8([32]byte{5}).Read(big)
	for i := 0; i < 200; i++ {
		db.Update(func(tx *Tx) error { return tx.PutGame(fmt.Sprintf("g%d", i), big) })
	}
	db.Update(func(tx *Tx) error {
		for i := 1; i < 200; i++ {
			if err := tx.b(bGames).Delete([]byte(fmt.Sprintf("g%d", i))); err != nil {
				return err
			}
			if err := deleteValue(tx.b(bGameSnap), []byte(fmt.Sprintf("g%d", i))); err != nil {
				return err
			}
		}
		return nil
	})
	db.Close()
	before, after, err := Compact(path)
	if err != nil {
		t.Fatal(err)
	}
	if after >= before/4 {
		t.Errorf("compacted from %d to %d bytes", before, after)
	}
	db, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(func(tx *Tx) error {
		if !tx.HasGame("g0") || tx.HasGame("g1") {
			t.Error("data changed by the compaction")
		}
		return nil
	})
}

// reopenCurrent closes db and opens the file at path again, migrated to
// the current schema (closed when the test ends).
func reopenCurrent(t *testing.T, db *DB, path string) *DB {
	t.Helper()
	db.Close()
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if v, _ := db.SchemaVersion(); v != SchemaVersion {
		t.Fatalf("schema %d", v)
	}
	return db
}

// openAtSchema opens a new store of an older schema n (the first n
// migrations), for the migration tests; path reopens it at today's.
func openAtSchema(t *testing.T, n int) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), fmt.Sprintf("v%d.db", n))
	// Pages of 4 KiB: every store of an older schema was made so.
	db, err := Open(path, &Options{Migrations: migrations[:n], NoSync: true, PageSize: 4096})
	if err != nil {
		t.Fatal(err)
	}
	return db, path
}
