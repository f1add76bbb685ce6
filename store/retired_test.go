package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store/pagefile"
	bolt "go.etcd.io/bbolt"
)

// modelItem is what TestRetiredInPlaceAgainstAModel_Issue24 knows of an
// item.
type modelItem struct {
	state     string
	due, keep time.Time
	attempts  int
	lastError string
	payload   []byte
}

// TestRetiredInPlaceAgainstAModel_Issue24 (queue.go, "Retired in place";
// rows of store/rowform's form): a queue holding items of an older store
// (JSON rows, live with due entries of the older form, retired in
// "done.outbox") goes through generated enqueues, attempts, retries,
// finishes (sent and failed, some with the first attempt in the same
// transaction, as a fresh delivery records it) and prunes; after every
// step every reader says what a plain model says: QueueItem of every id
// ever queued (gone once pruned), Items (the live ones in id order, with
// their payloads), Retired, QueueLen, DueRows, an attempt on a retired
// item refused; and "done.outbox" never gains a row. 30 runs.
func TestRetiredInPlaceAgainstAModel_Issue24(t *testing.T) {
	for run := range 30 {
		rng := rand.New(rand.NewPCG(uint64(run), 24))
		db := open(t)
		model := map[uint64]*modelItem{}
		now := t0
		payload := func(id uint64) []byte {
			return []byte(strings.Repeat(fmt.Sprintf("mail %d ", id), 1+rng.IntN(400)))
		}
		// An older store's items: JSON rows, live (due entries of the
		// older form) and retired in done.outbox, with their payloads.
		older := rng.IntN(8)
		err := db.Update(func(tx *Tx) error {
			live, done, _ := tx.queue("outbox")
			for range older {
				id, _ := live.NextSequence()
				m := &modelItem{state: Pending, due: now.Add(time.Duration(rng.IntN(30)) * time.Minute), payload: payload(id)}
				b := live
				if rng.IntN(2) == 0 {
					m.state, m.keep, b = Sent, now.Add(time.Duration(rng.IntN(90))*time.Minute), done
				} else if err := live.Put(dueEntry(m.due, id), nil); err != nil {
					return err
				}
				raw, _ := json.Marshal(Item{ID: id, Key: fmt.Sprint(id), To: "a@x", Created: t0, Due: m.due, State: m.state, KeepUntil: m.keep})
				if err := b.Put(u64(id), raw); err != nil {
					return err
				}
				if err := putValue(live, bodyKey(id), m.payload); err != nil {
					return err
				}
				model[id] = m
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		doneRows := func() (n int) {
			db.View(func(tx *Tx) error { n = tx.bucket([]byte("done.outbox")).Stats().KeyN; return nil })
			return n
		}
		doneBefore := doneRows()
		for step := range 80 {
			now = now.Add(time.Duration(rng.IntN(20)) * time.Minute)
			var live []uint64
			for id, m := range model {
				if m.state == Pending {
					live = append(live, id)
				}
			}
			slices.Sort(live)
			err := db.Update(func(tx *Tx) error {
				switch op := rng.IntN(6); {
				case op <= 1 || len(live) == 0:
					p := payload(uint64(step))
					it := Item{Key: "k", To: "b@x", Kind: "prompt", Game: "g1", Created: now, Meta: map[string]string{"from": "r+bounce.1@x"}, Payload: p}
					id, err := tx.Enqueue("outbox", it)
					if err != nil {
						return err
					}
					model[id] = &modelItem{state: Pending, due: now, payload: p}
				case op == 2:
					id := live[rng.IntN(len(live))]
					next := now.Add(time.Duration(rng.IntN(30)) * time.Minute)
					if _, err := tx.Attempt("outbox", id, now, next); err != nil {
						return err
					}
					m := model[id]
					m.due, m.attempts, m.lastError = next, m.attempts+1, "attempt in progress"
				case op == 3:
					id := live[rng.IntN(len(live))]
					next := now.Add(time.Duration(rng.IntN(30)) * time.Minute)
					if _, err := tx.Retry("outbox", id, next, "451 later"); err != nil {
						return err
					}
					model[id].due, model[id].lastError = next, "451 later"
				case op == 4:
					id := live[rng.IntN(len(live))]
					m := model[id]
					if rng.IntN(2) == 0 { // a fresh delivery: its attempt with its outcome
						if _, err := tx.Attempt("outbox", id, now, now.Add(time.Minute)); err != nil {
							return err
						}
						m.due, m.attempts, m.lastError = now.Add(time.Minute), m.attempts+1, "attempt in progress"
					}
					state, errText := Sent, ""
					if rng.IntN(3) == 0 {
						state, errText = Failed, "550 no"
					}
					m.state, m.keep = state, now.Add(time.Duration(rng.IntN(90))*time.Minute)
					if errText != "" || state == Sent {
						m.lastError = errText
					}
					if _, err := tx.Finish("outbox", id, state, now, m.keep, errText); err != nil {
						return err
					}
				default:
					n, err := tx.PruneRetired("outbox", now)
					if err != nil {
						return err
					}
					want := 0
					for id, m := range model {
						if m.state != Pending && m.keep.Before(now) {
							delete(model, id)
							want++
						}
					}
					if n != want {
						return fmt.Errorf("pruned %d, want %d", n, want)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatalf("run %d step %d: %v", run, step, err)
			}
			checkQueueAgainst(t, db, model, now, fmt.Sprintf("run %d step %d", run, step))
			if n := doneRows(); n > doneBefore {
				t.Fatalf("run %d step %d: done.outbox has %d rows, had %d", run, step, n, doneBefore)
			}
		}
	}
}

// checkQueueAgainst compares every reader of the outbox with the model.
func checkQueueAgainst(t *testing.T, db *DB, model map[uint64]*modelItem, now time.Time, at string) {
	t.Helper()
	err := db.View(func(tx *Tx) error {
		var live, retired []uint64
		maxID := uint64(0)
		for id, m := range model {
			maxID = max(maxID, id)
			if m.state == Pending {
				live = append(live, id)
			} else {
				retired = append(retired, id)
			}
		}
		slices.Sort(live)
		slices.Sort(retired)
		for id := uint64(1); id <= maxID+2; id++ {
			it, err := tx.QueueItem("outbox", id)
			m := model[id]
			if m == nil {
				if !errors.Is(err, ErrNotFound) {
					return fmt.Errorf("item %d pruned or never queued: %+v %v", id, it, err)
				}
				continue
			}
			if err != nil || it.ID != id || it.State != m.state || !it.Due.Equal(m.due) || it.Attempts != m.attempts ||
				it.LastError != m.lastError || !it.KeepUntil.Equal(m.keep) || !bytes.Equal(it.Payload, m.payload) {
				p, mp, mm := len(it.Payload), len(m.payload), *m
				it.Payload, mm.payload = nil, nil
				return fmt.Errorf("item %d: %+v (%v, %d payload bytes), want %+v (%d)", id, it, err, p, mm, mp)
			}
		}
		var ids []uint64
		if err := tx.Items("outbox", func(it Item) error {
			if !bytes.Equal(it.Payload, model[it.ID].payload) {
				return fmt.Errorf("Items: item %d's payload", it.ID)
			}
			ids = append(ids, it.ID)
			return nil
		}); err != nil || !slices.Equal(ids, live) {
			return fmt.Errorf("Items %v (%v), want %v", ids, err, live)
		}
		ids = nil
		if err := tx.Retired("outbox", func(it Item) error { ids = append(ids, it.ID); return nil }); err != nil {
			return err
		}
		if slices.Sort(ids); !slices.Equal(ids, retired) {
			return fmt.Errorf("Retired %v, want %v", ids, retired)
		}
		if n := tx.QueueLen("outbox"); n != len(live) {
			return fmt.Errorf("QueueLen %d, want %d", n, len(live))
		}
		due, err := tx.DueRows("outbox", now, 0)
		n := 0
		for _, id := range live {
			if !model[id].due.After(now) {
				n++
			}
		}
		if err != nil || len(due) != n {
			return fmt.Errorf("DueRows %d (%v), want %d", len(due), err, n)
		}
		for _, id := range retired {
			if _, err := tx.Attempt("outbox", id, now, now); !errors.Is(err, ErrNotFound) {
				return fmt.Errorf("attempt on retired item %d: %v", id, err)
			}
		}
		return errView
	})
	if !errors.Is(err, errView) {
		t.Fatalf("%s: %v", at, err)
	}
}

// errView rolls back the check's attempts on retired items (refused).
var errView = errors.New("checked")

// TestMailCommitWritesNoDoneNorAttemptsPages_Issue24: the commit of a mail
// (its intake attempt ended, the next UID presumed begun, its reply
// queued, and the delivery of the mail before recorded, first attempt and
// outcome) writes no page of "done.outbox" (the row is retired in place)
// and none of "attempts" (its mailbox's row, inline in the top level's
// leaf), in a store of 300 mails delivered with 20 UIDs presumed ahead.
func TestMailCommitWritesNoDoneNorAttemptsPages_Issue24(t *testing.T) {
	db := open(t)
	key := func(uid int) string { return fmt.Sprintf("imap:referee@example.test/INBOX/1765432100/%d", uid) }
	mail := func(uid int) error {
		return db.Update(func(tx *Tx) error {
			if err := tx.EndAttempt(key(uid)); err != nil {
				return err
			}
			for u := uid + 1; u <= uid+20; u++ {
				if tx.AttemptCount(key(u)) == 0 {
					if _, err := tx.BeginAttemptFrom(key(u), 0); err != nil {
						return err
					}
				}
			}
			if uid > 1 {
				id := uint64(uid - 1)
				if _, err := tx.Attempt("outbox", id, t0, t0.Add(time.Minute)); err != nil {
					return err
				}
				if _, err := tx.Finish("outbox", id, Sent, t0, t0.Add(30*24*time.Hour), ""); err != nil {
					return err
				}
			}
			_, err := tx.Enqueue("outbox", Item{Key: fmt.Sprintf("<rf.g1.%d@example.test>", uid), Game: "g1", Kind: "prompt",
				To: "ann@example.test", Meta: map[string]string{"from": "referee+bounce.006b16d16d83037ac991561219@example.test"},
				Created: t0, Payload: []byte(strings.Repeat(fmt.Sprintf("Your move %d. ", uid), 300))})
			return err
		})
	}
	for uid := 1; uid <= 300; uid++ {
		if err := mail(uid); err != nil {
			t.Fatal(err)
		}
	}
	before, err := db.PageReading()
	if err != nil {
		t.Fatal(err)
	}
	if err := mail(301); err != nil {
		t.Fatal(err)
	}
	after, err := db.PageReading()
	if err != nil {
		t.Fatal(err)
	}
	w, _ := pagefile.Written(before, after)
	for k, n := range w {
		if strings.HasPrefix(k, "done.outbox ") || strings.HasPrefix(k, "attempts ") {
			t.Errorf("the commit of a mail wrote %d pages of %s (all: %v)", n, k, w)
		}
	}
	db.View(func(tx *Tx) error {
		if n := len(tx.AttemptKeys("imap:")); n != 20 {
			t.Errorf("%d attempts presumed, want 20", n)
		}
		return nil
	})
}

// TestAttemptsAgainstAModel_Issue24 (intake.go, "The attempts of one
// mailbox in one row"): keys of every shape (of a mailbox, several, kept
// whole: no number, a leading zero, a webhook's digest), some recorded
// whole as an older store did, go through generated begins (plain and
// from a floor) and ends; after every step AttemptCount of every key and
// AttemptKeys of several prefixes say what a map says, the same after a
// reopen; a key with NUL first is refused. 20 runs.
func TestAttemptsAgainstAModel_Issue24(t *testing.T) {
	keys := []string{"imap:a@x/INBOX/7/1", "imap:a@x/INBOX/7/2", "imap:a@x/INBOX/7/10", "imap:a@x/INBOX/7/100000",
		"imap:a@x/INBOX/8/1", "imap:a@x/Other/7/1", "imap:a@x/INBOX/7/01", "imap:a@x/INBOX/7/", "webhook-failed:ab12",
		"opsmail:2026-12-08", "x/0", "/3"}
	prefixes := []string{"", "imap:", "imap:a@x/INBOX/", "imap:a@x/INBOX/7/", "imap:a@x/INBOX/7/1", "webhook", "zzz"}
	for run := range 20 {
		rng := rand.New(rand.NewPCG(uint64(run), 11))
		path := t.TempDir() + "/a.db"
		db, err := Open(path, &Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		model := map[string]int{}
		err = db.bolt.Update(func(btx *bolt.Tx) error { // an older store's rows: every key whole
			for _, k := range keys {
				if rng.IntN(3) == 0 {
					model[k] = 1 + rng.IntN(3)
					if err := bucketOf(btx, bAttempts).Put([]byte(k), u64(uint64(model[k]))); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		check := func(at string) {
			t.Helper()
			db.View(func(tx *Tx) error {
				for _, k := range keys {
					if n := tx.AttemptCount(k); n != model[k] {
						t.Fatalf("run %d %s: %q counted %d, want %d", run, at, k, n, model[k])
					}
				}
				for _, p := range prefixes {
					var want []string
					for k := range model {
						if strings.HasPrefix(k, p) {
							want = append(want, k)
						}
					}
					slices.Sort(want)
					if got := tx.AttemptKeys(p); !slices.Equal(got, want) {
						t.Fatalf("run %d %s: AttemptKeys(%q) %q, want %q", run, at, p, got, want)
					}
				}
				return nil
			})
		}
		for step := range 100 {
			k := keys[rng.IntN(len(keys))]
			err := db.Update(func(tx *Tx) error {
				switch rng.IntN(3) {
				case 0:
					n, err := tx.BeginAttempt(k)
					model[k]++
					if err == nil && n != model[k] {
						err = fmt.Errorf("BeginAttempt %q: %d, want %d", k, n, model[k])
					}
					return err
				case 1:
					floor := rng.IntN(4)
					n, err := tx.BeginAttemptFrom(k, floor)
					model[k] = max(model[k], floor) + 1
					if err == nil && n != model[k] {
						err = fmt.Errorf("BeginAttemptFrom %q %d: %d, want %d", k, floor, n, model[k])
					}
					return err
				}
				delete(model, k)
				return tx.EndAttempt(k)
			})
			if err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprint("step ", step))
		}
		db.Close()
		if db, err = Open(path, &Options{NoSync: true}); err != nil {
			t.Fatal(err)
		}
		check("after a reopen")
		db.Update(func(tx *Tx) error {
			if _, err := tx.BeginAttempt("\x00imap:a/1"); err == nil {
				t.Error("a key with NUL first was recorded")
			}
			return nil
		})
		db.Close()
	}
}

// TestBinaryRowsRefusedByAnOlderReferee_Issue24: a store that may hold
// rows of the binary form (store/rowform) is of schema 12, which a referee
// that knows 11 (written before those forms) refuses at Open rather than
// failing at the first row it cannot decode.
func TestBinaryRowsRefusedByAnOlderReferee_Issue24(t *testing.T) {
	path := t.TempDir() + "/referee.db"
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *Tx) error {
		_, err := tx.Enqueue("outbox", Item{Key: "k", To: "a@x", Created: t0, Due: t0})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if v, _ := db.SchemaVersion(); v < 12 {
		t.Errorf("a new store is of schema %d, want 12 or later", v)
	}
	db.Close()
	if _, err := Open(path, &Options{Migrations: migrations[:11]}); !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("a referee of schema 11 opened a store of binary rows: %v", err)
	}
}
