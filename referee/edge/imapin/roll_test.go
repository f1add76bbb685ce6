package imapin

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

// rollMail is a mail of the rolling model: its sender and game.
type rollMail struct {
	id, from, game string
}

// rollModel is the referee of the rolling tests: it records each mail it
// applies in the store (the de-duplication record, by Message-ID and the
// transport's keys, in one Group commit, as the referee does), counts
// the steps of a run and, at the crash step, copies the store as it
// stands (a crash at that instant) and plays dead from then on: it
// commits nothing more and the Watcher files nothing more.
type rollModel struct {
	t      *testing.T
	ms     *memServer
	mails  []rollMail
	waves  map[int][]rollMail // delivered when the handler's call count reaches the key
	crashA int                // the step of the crash (0: none)
	copyTo string

	mu      sync.Mutex
	db      *store.DB
	calls   int
	steps   int
	dead    bool
	applied []string // ids in commit order (of every run; filtered after a crash)
	crashed chan struct{}
	// cursorKey is the Watcher's: every hand-over must be on record
	// before it (an attempt, or the cursor's presumption of the message
	// after it: doc.go, rule 1).
	cursorKey string
}

// onRecord fails unless the hand-over of the message with intake key
// key is on record in db.
func (m *rollModel) onRecord(db *store.DB, key string) {
	var uid uint64
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		uid, _ = strconv.ParseUint(key[i+1:], 10, 32)
	}
	db.View(func(tx *store.Tx) error {
		cur, err := tx.Cursor(m.cursorKey)
		if err != nil {
			return err
		}
		if tx.AttemptCount(key) == 0 && (cur.Armed == 0 || uint64(cur.LastUID)+1 != uid) {
			m.t.Errorf("%s handed over with no hand-over on record (cursor %+v)", key, cur)
		}
		return nil
	})
}

// step counts a step of the run and crashes at crashA.
func (m *rollModel) step() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.dead {
		return true
	}
	m.steps++
	if m.steps != m.crashA {
		return false
	}
	f, err := os.Create(m.copyTo)
	if err == nil {
		_, err = m.db.Backup(f)
		err = errorsJoin(err, f.Close())
	}
	if err != nil {
		m.t.Errorf("copy the store at the crash: %v", err)
	}
	m.dead = true
	close(m.crashed)
	return true
}

func errorsJoin(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func (m *rollModel) HandleMail(_ context.Context, in mailin.Inbound) (referee.Outcome, error) {
	m.mu.Lock()
	m.calls++
	// Newer mail arrives while the lanes run, in the model's order.
	wave := m.waves[m.calls]
	for _, r := range wave {
		m.ms.deliver(m.t, "INBOX", rollRaw(r))
	}
	delete(m.waves, m.calls)
	db := m.db
	dead := m.dead
	m.mu.Unlock()
	if !dead && m.cursorKey != "" {
		m.onRecord(db, in.Keys[0])
	}
	if len(wave) > 0 {
		time.Sleep(20 * time.Millisecond) // long enough for a look to roll it in
	}
	time.Sleep(time.Duration(rand.IntN(3)) * time.Millisecond)
	if m.step() {
		return referee.Outcome{}, referee.Permanent("dead")
	}
	id := msgID(in.Raw)
	keys := append([]string{"mid:" + id}, in.Keys...)
	dup := false
	err := db.Group(func(tx *store.Tx) error {
		_, seen, err := tx.Seen(keys...)
		if err != nil || seen {
			dup = seen
			return err
		}
		return tx.MarkInbound(store.InboundRecord{Keys: keys, Received: time.Now(), Outcome: "applied"})
	})
	if err != nil {
		return referee.Outcome{}, err
	}
	if dup {
		m.step()
		return referee.Outcome{Status: "duplicate"}, nil
	}
	m.mu.Lock()
	if m.db == db {
		m.applied = append(m.applied, id)
	}
	m.mu.Unlock()
	m.step()
	return referee.Outcome{Status: "applied"}, nil
}

// inStore reports whether id's record is in db.
func inStore(t *testing.T, db *store.DB, id string) bool {
	var seen bool
	if err := db.View(func(tx *store.Tx) error {
		var err error
		_, seen, err = tx.Seen("mid:" + id)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return seen
}

// rollRaw is a mail of the model: its game's tag in the subject.
func rollRaw(r rollMail) []byte {
	tag, err := mailmsg.GameTag(r.game, 0, 1)
	if err != nil {
		panic(err)
	}
	return []byte("From: " + r.from + "\r\nTo: referee@example.test\r\nSubject: " + mailmsg.SubjectTag(tag, false) +
		" move\r\nMessage-ID: " + r.id + "\r\nDate: Mon, 02 Jan 2006 15:04:05 +0000\r\n\r\nx\r\n")
}

// Rolling in (doc.go): while a look's lanes run, newer mail is handed to
// its lane at once. Generated: mail of four senders about three games
// arrives in waves while earlier mail is being handled (so that looks
// roll it in), and the process crashes at every step of the run in turn
// (before and after each handler's commit, after each hand-over, after
// each cursor), the store as it stood at that instant; after the restart
// every mail is applied exactly once, the mails of each game and of each
// sender in the order they arrived, every mail is filed and no attempt
// stays on record. Compared with a model (the arrival order).
func TestRollingCrashAtEveryStep(t *testing.T) {
	seeds := []uint64{1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1]
	}
	var rolled, ahead uint64
	for _, seed := range seeds {
		steps, n, a := rollRun(t, seed, 0)
		rolled, ahead = rolled+n, ahead+a
		t.Logf("seed %d: %d steps, %d mails rolled in, %d of them presumed ahead", seed, steps, n, a)
		if steps < 4 {
			t.Fatalf("seed %d: %d steps", seed, steps)
		}
		for at := 1; at <= steps; at++ {
			t.Run(fmt.Sprintf("seed-%d-crash-at-%d", seed, at), func(t *testing.T) {
				rollRun(t, seed, at)
			})
		}
	}
	if rolled == 0 {
		t.Errorf("no mail rolled into running lanes")
	}
	if ahead == 0 {
		t.Errorf("no mail rolled in under the presumption written ahead")
	}
}

// rollRun plays the seed's arrivals, crashing at step crashAt (0: none),
// checks the outcome against the model and returns the steps counted, the
// mails rolled in and those of them presumed ahead.
func rollRun(t *testing.T, seed uint64, crashAt int) (int, uint64, uint64) {
	rng := rand.New(rand.NewPCG(seed, 25))
	senders := []string{"Ann <ann@a.test>", "Bob <bob@b.test>", "Cy <cy@c.test>", "Dee <dee@d.test>"}
	var mails []rollMail
	for i := range 14 {
		mails = append(mails, rollMail{id: fmt.Sprintf("<m%02d@x>", i), from: senders[rng.IntN(len(senders))],
			game: fmt.Sprintf("g%d", 1+rng.IntN(3))})
	}
	ms := startServer(t, capsRev2)
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, "referee.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	m := &rollModel{t: t, ms: ms, mails: mails, waves: map[int][]rollMail{}, crashA: crashAt,
		copyTo: filepath.Join(dir, "crashed.db"), db: db, crashed: make(chan struct{})}
	// The first wave before the start, the others at random calls.
	first := 2 + rng.IntN(3)
	for _, r := range mails[:first] {
		ms.deliver(t, "INBOX", rollRaw(r))
	}
	// (Never at a call later than the mails before it make.)
	for i, at := first, 1; i < len(mails); {
		n := min(len(mails)-i, 1+rng.IntN(4))
		m.waves[at] = mails[i : i+n]
		i += n
		at = min(at+1+rng.IntN(2), i)
	}
	logs := &testkit.SyncBuffer{}
	defer func() {
		if t.Failed() && os.Getenv("ROLL_LOGS") != "" {
			t.Log(logs.String())
		}
	}()
	o := testOptions(ms.addr, db, m, logs)
	o.FetchBatch, o.MaxCrashes = 3, 3
	crash := func(w *Watcher) {
		m.cursorKey = w.CursorKey()
		w.afterHandle = func(imap.UID) error {
			if m.step() {
				return errCrash
			}
			return nil
		}
		w.afterCursor = w.afterHandle
	}
	r := start(t, o, crash)
	all := func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		return len(m.waves) == 0 && len(contents(t, ms.addr, testUser, testPass, "Processed")) == len(mails)
	}
	if crashAt > 0 {
		reached := false
		for end := time.Now().Add(20 * time.Second); !reached && time.Now().Before(end); {
			select {
			case <-m.crashed:
				reached = true
			case <-time.After(20 * time.Millisecond):
				if all() { // a run of fewer steps
					end = time.Now()
				}
			}
		}
		if !reached {
			r.stop()
			_ = db.Close()
			m.mu.Lock()
			defer m.mu.Unlock()
			return m.steps, 0, 0 // not reached (a run with fewer steps)
		}
		r.stop()
		// The crashed run's commits after the copy are lost.
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if db, err = store.Open(m.copyTo, &store.Options{NoSync: true}); err != nil {
			t.Fatal(err)
		}
		// The cursor never stood past a mail whose record was not
		// committed (UIDs follow the model's order).
		if cur := cursor(t, db, r.w.CursorKey()); int(cur.LastUID) <= len(mails) {
			for _, r := range mails[:cur.LastUID] {
				if !inStore(t, db, r.id) {
					t.Errorf("the cursor at the crash (%+v) passed %s, not recorded", cur, r.id)
				}
			}
		} else {
			t.Errorf("cursor %+v past the mails", cur)
		}
		m.mu.Lock()
		m.applied = slices.DeleteFunc(m.applied, func(id string) bool { return !inStore(t, db, id) })
		m.db, m.dead, m.crashA = db, false, 0
		m.mu.Unlock()
		o.Store = db
		r = start(t, o, crash)
	}
	eventually(t, "every mail filed", all)
	r.stop()
	defer func() { _ = db.Close() }()
	if in := contents(t, ms.addr, testUser, testPass, "INBOX"); len(in) > 0 {
		t.Errorf("%d mails left in the inbox", len(in))
	}
	if q := contents(t, ms.addr, testUser, testPass, "Quarantine"); len(q) > 0 {
		t.Errorf("%d mails quarantined", len(q))
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	checkRollModel(t, mails, m.applied)
	validity := cursor(t, db, r.w.CursorKey()).UIDValidity
	db.View(func(tx *store.Tx) error {
		for uid := 1; uid <= len(mails); uid++ {
			if c := tx.AttemptCount(keyOf(validity, imap.UID(uid))); c != 0 {
				t.Errorf("uid %d: %d attempts left on record", uid, c)
			}
		}
		return nil
	})
	return m.steps, r.w.rolledIn.Load(), r.w.rolledAhead.Load()
}

// checkRollModel: every mail applied once; each game's and each sender's
// in arrival order.
func checkRollModel(t *testing.T, mails []rollMail, applied []string) {
	t.Helper()
	byID := map[string]rollMail{}
	for _, r := range mails {
		byID[r.id] = r
	}
	seen := map[string]bool{}
	for _, id := range applied {
		if seen[id] {
			t.Errorf("%s applied twice: %v", id, applied)
		}
		seen[id] = true
	}
	if len(seen) != len(mails) {
		t.Errorf("applied %d of %d mails: %v", len(seen), len(mails), applied)
	}
	for _, by := range []func(rollMail) string{
		func(r rollMail) string { return "game " + r.game },
		func(r rollMail) string { return "sender " + r.from },
	} {
		got, want := map[string][]string{}, map[string][]string{}
		for _, id := range applied {
			got[by(byID[id])] = append(got[by(byID[id])], id)
		}
		for _, r := range mails {
			want[by(r)] = append(want[by(r)], r.id)
		}
		for k, w := range want {
			if !slices.Equal(got[k], w) {
				t.Errorf("%s: applied %v, want %v", k, got[k], w)
			}
		}
	}
}
