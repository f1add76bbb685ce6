package imapin

// Integration tests against a real Dovecot fed by a real Postfix (package
// mailstack). They skip without the servers or root, unless
// REFEREE_MAILSTACK=require.

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/rigs/mailstack"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

func stackOptions(s *mailstack.Stack, db *store.DB, h mailin.Handler, logs *testkit.SyncBuffer) Options {
	return Options{
		Addr: s.IMAPAddr, TLS: TLSNone, Username: s.Address("referee"), Password: s.Password("referee"),
		Store: db, Handler: h, Logger: debugLogger(logs),
		MinBackoff: 100 * time.Millisecond, MaxBackoff: time.Second, ResyncInterval: 2 * time.Second,
	}
}

func stackMsg(id, body string) []byte {
	return []byte("From: Alice <alice@example.test>\r\nTo: referee+g1@example.test\r\nSubject: move\r\n" +
		"Message-ID: " + id + "\r\nDate: Mon, 02 Jan 2006 15:04:05 +0000\r\n\r\n" + body + "\r\n")
}

func stackIDs(msgs []mailstack.Message) string {
	var ids []string
	for _, m := range msgs {
		ids = append(ids, msgID(m.Raw))
	}
	return strings.Join(ids, " ")
}

// TestDovecotIntake: mail sent through Postfix into Dovecot is handed over
// exactly once each, filed in Processed, and a permanently failing one in
// Quarantine.
func TestDovecotIntake(t *testing.T) {
	t.Parallel()
	s := mailstack.Start(t, "referee", "alice")
	db := openStore(t)
	h := newHandler()
	h.fail = func(id string, _ int) error {
		if id == "<bad@alice>" {
			return referee.Permanent("not a move")
		}
		return nil
	}
	var logs testkit.SyncBuffer
	r := start(t, stackOptions(s, db, h, &logs))
	eventually(t, "connected", func() bool { return r.w.Stats().Connected })

	var want []string
	for i := range 10 {
		id := fmt.Sprintf("<m%d@alice>", i)
		if i == 4 {
			id = "<bad@alice>"
		}
		want = append(want, id)
		s.Send(t, s.Address("alice"), []string{"referee+g1@example.test"}, stackMsg(id, "play "+id))
	}
	got := h.await(t, 10)
	seen := map[string]int{}
	for _, id := range got {
		seen[id]++
	}
	for _, id := range want {
		if seen[id] != 1 {
			t.Errorf("%s handed over %d times", id, seen[id])
		}
	}
	eventually(t, "filed", func() bool {
		return s.Count(t, "referee", "Processed") == 9 && s.Count(t, "referee", "Quarantine") == 1 &&
			s.Count(t, "referee", "INBOX") == 0
	})
	if q := stackIDs(s.Messages(t, "referee", "Quarantine")); q != "<bad@alice>" {
		t.Errorf("quarantine holds %q", q)
	}
	calls, _ := h.snapshot()
	cur := cursor(t, db, r.w.CursorKey())
	for _, c := range calls {
		if !bytes.Contains(c.Raw, []byte("Delivered-To: referee+g1@example.test")) || len(c.Keys) != 1 ||
			!strings.HasPrefix(c.Keys[0], fmt.Sprintf("imap:referee@example.test/INBOX/%d/", cur.UIDValidity)) {
			t.Errorf("handover %q keys %v", c.Raw[:min(len(c.Raw), 200)], c.Keys)
		}
	}
	if cur.LastUID != 10 {
		t.Errorf("cursor %+v", cur)
	}

	// One more, timed: IDLE wake-up through Postfix and Dovecot.
	begin := time.Now()
	s.Send(t, s.Address("alice"), []string{"referee@example.test"}, stackMsg("<late@alice>", "x"))
	h.await(t, 1)
	t.Logf("Postfix accept to handover with IDLE: %v", time.Since(begin))
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("handover took %v while idling", d)
	}
	h.quiet(t, 2500*time.Millisecond) // includes a safety re-sync with a sweep
	r.stop()
	if st := r.w.Stats(); st.Handled != 10 || st.Quarantined != 1 || st.Duplicates != 0 || st.Reconnects != 0 {
		t.Errorf("stats %+v", st)
	}
	if strings.Contains(logs.String(), s.Password("referee")) {
		t.Errorf("the password reached the log")
	}
}

// TestDovecotRestart: Dovecot goes down under an idling watcher; mail sent
// meanwhile waits in Postfix; the watcher reconnects and hands it over.
func TestDovecotRestart(t *testing.T) {
	t.Parallel()
	s := mailstack.Start(t, "referee", "alice")
	h := newHandler()
	var logs testkit.SyncBuffer
	r := start(t, stackOptions(s, openStore(t), h, &logs))
	s.Send(t, s.Address("alice"), []string{"referee@example.test"}, stackMsg("<before@alice>", "x"))
	h.await(t, 1)

	s.StopDovecot(t)
	eventually(t, "disconnected", func() bool { return !r.w.Stats().Connected && r.w.Stats().Reconnects >= 1 })
	s.Send(t, s.Address("alice"), []string{"referee@example.test"}, stackMsg("<during@alice>", "x"))
	time.Sleep(500 * time.Millisecond) // reconnect attempts fail meanwhile
	s.StartDovecot(t)
	begin := time.Now()
	if got := h.await(t, 1); got[0] != "<during@alice>" {
		t.Fatalf("got %v", got)
	}
	t.Logf("Dovecot back to handover: %v", time.Since(begin))
	eventually(t, "filed", func() bool { return s.Count(t, "referee", "Processed") == 2 })
	r.stop()
	st := r.w.Stats()
	if st.Handled != 2 || st.Reconnects < 1 {
		t.Errorf("stats %+v", st)
	}
	t.Logf("reconnects during the outage: %d", st.Reconnects)
}

// TestDovecotSearchTrap shows Dovecot's "UID n:*" answer and that sync
// filters it: the last message, still in the mailbox, is not handed over
// again.
func TestDovecotSearchTrap(t *testing.T) {
	t.Parallel()
	s := mailstack.Start(t, "referee", "alice")
	for i := range 2 {
		s.Send(t, s.Address("alice"), []string{"referee@example.test"}, stackMsg(fmt.Sprintf("<t%d@alice>", i), "x"))
	}
	s.WaitCount(t, "referee", "INBOX", 2, 10*time.Second)
	c, err := imapclient.DialInsecure(s.IMAPAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(s.Address("referee"), s.Password("referee")).Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	var set imap.UIDSet
	set.AddRange(3, 0)
	raw, err := c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{set}}, nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if got := raw.AllUIDs(); len(got) != 1 || got[0] != 2 {
		t.Logf("Dovecot answered UID SEARCH UID 3:* with %v (the trap expects [2])", got)
	}

	h := newHandler()
	w, err := New(stackOptions(s, openStore(t), h, &testkit.SyncBuffer{}))
	if err != nil {
		t.Fatal(err)
	}
	sess := &session{w: w, c: c, log: w.o.Logger, mode: modeMove, cur: store.Cursor{UIDValidity: sel.UIDValidity, LastUID: 2}}
	if err := sess.sync(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	if calls, _ := h.snapshot(); len(calls) != 0 {
		t.Errorf("%d messages handed over again from below the cursor", len(calls))
	}
	if n := s.Count(t, "referee", "INBOX"); n != 2 {
		t.Errorf("INBOX holds %d", n)
	}
}

// TestDovecotThroughput measures how fast the watcher drains a full
// mailbox (fsynced store; the handler itself does nothing).
func TestDovecotThroughput(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	s := mailstack.Start(t, "referee", "alice")
	const n = 200
	begin := time.Now()
	for i := range n {
		s.Send(t, s.Address("alice"), []string{"referee@example.test"}, stackMsg(fmt.Sprintf("<p%d@alice>", i), "play"))
	}
	s.WaitCount(t, "referee", "INBOX", n, 30*time.Second)
	t.Logf("%d messages through Postfix into Dovecot in %v", n, time.Since(begin))

	db, err := store.Open(filepath.Join(t.TempDir(), "referee.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h := newHandler()
	begin = time.Now()
	r := start(t, stackOptions(s, db, h, &testkit.SyncBuffer{}))
	h.await(t, n)
	eventually(t, "all filed", func() bool { return s.Count(t, "referee", "Processed") == n })
	d := time.Since(begin)
	r.stop()
	t.Logf("watcher: %d messages handed over and moved in %v (%.0f msg/s)", n, d, float64(n)/d.Seconds())
	if _, applied := h.snapshot(); len(applied) != n {
		t.Errorf("applied %d", len(applied))
	}
}
