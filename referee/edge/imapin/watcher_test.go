package imapin

import (
	"bytes"
	"context"
	"errors"
	"net"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
)

// idleCmd matches an IDLE command in the traffic (not the capability).
var idleCmd = regexp.MustCompile(`(?m)^T\d+ IDLE`)

func TestHandsOverInOrderAndMoves(t *testing.T) {
	ms := startServer(t, capsRev2)
	raws := [][]byte{message("<m1@a>", "play red"), message("<m2@a>", "play blue"), message("<m3@a>", "pass")}
	for _, r := range raws {
		ms.deliver(t, "INBOX", r)
	}
	db := openStore(t)
	h := newHandler()
	var logs testkit.SyncBuffer
	r := start(t, testOptions(ms.addr, db, h, &logs))

	if got := h.await(t, 3); strings.Join(got, " ") != "<m1@a> <m2@a> <m3@a>" {
		t.Fatalf("handled %v, want m1 m2 m3 in order", got)
	}
	eventually(t, "three messages in Processed", func() bool {
		return len(contents(t, ms.addr, testUser, testPass, "Processed")) == 3
	})
	if in := contents(t, ms.addr, testUser, testPass, "INBOX"); len(in) != 0 {
		t.Errorf("INBOX still holds %s", msgIDs(in))
	}
	calls, _ := h.snapshot()
	cur := cursor(t, db, r.w.CursorKey())
	for i, c := range calls {
		if !bytes.Equal(c.Raw, raws[i]) {
			t.Errorf("call %d: raw message changed", i)
		}
		if want := keyOf(cur.UIDValidity, imap.UID(i+1)); len(c.Keys) != 1 || c.Keys[0] != want {
			t.Errorf("call %d: keys %q, want [%q]", i, c.Keys, want)
		}
		if c.Source != "imap" || c.Received.IsZero() || time.Since(c.Received) > time.Minute {
			t.Errorf("call %d: source %q received %v", i, c.Source, c.Received)
		}
	}
	if cur.LastUID != 3 || cur.UIDValidity == 0 {
		t.Errorf("cursor %+v, want last UID 3", cur)
	}
	for _, m := range contents(t, ms.addr, testUser, testPass, "Processed") {
		if hasFlag(m.Flags, imap.FlagSeen) {
			t.Errorf("%s was marked \\Seen: BODY.PEEK[] must not set it", m.MsgID)
		}
	}

	// New mail while idling is picked up at once.
	begin := time.Now()
	ms.deliver(t, "INBOX", message("<m4@a>", "late"))
	if got := h.await(t, 1); got[0] != "<m4@a>" {
		t.Fatalf("handled %v", got)
	}
	t.Logf("IDLE wake-up to handover: %v", time.Since(begin))
	eventually(t, "cursor at 4", func() bool { return cursor(t, db, r.w.CursorKey()).LastUID == 4 })
	r.stop()
	st := r.w.Stats()
	if st.Handled != 4 || st.Duplicates != 0 || st.Quarantined != 0 || st.Reconnects != 0 || st.LastSync.IsZero() {
		t.Errorf("stats %+v", st)
	}
	traffic := ms.traffic.String()
	for _, want := range []string{"IDLE", "DONE", "UID MOVE", "BODY.PEEK[]", "LOGOUT", "UID SEARCH"} {
		if !strings.Contains(traffic, want) {
			t.Errorf("traffic lacks %q", want)
		}
	}
	if strings.Contains(logs.String(), testPass) {
		t.Errorf("the password reached the log")
	}
}

func TestPermanentErrorQuarantines(t *testing.T) {
	ms := startServer(t, capsRev2)
	for _, id := range []string{"<m1@a>", "<bad@a>", "<m3@a>"} {
		ms.deliver(t, "INBOX", message(id, "x"))
	}
	h := newHandler()
	h.fail = func(id string, _ int) error {
		if id == "<bad@a>" {
			return referee.Permanent("no game in the address")
		}
		return nil
	}
	var logs testkit.SyncBuffer
	r := start(t, testOptions(ms.addr, openStore(t), h, &logs))
	h.await(t, 3)
	eventually(t, "filing", func() bool {
		return len(contents(t, ms.addr, testUser, testPass, "Quarantine")) == 1 &&
			len(contents(t, ms.addr, testUser, testPass, "Processed")) == 2
	})
	if got := msgIDs(contents(t, ms.addr, testUser, testPass, "Quarantine")); got != "<bad@a>" {
		t.Errorf("quarantine holds %q", got)
	}
	if got := msgIDs(contents(t, ms.addr, testUser, testPass, "Processed")); got != "<m1@a> <m3@a>" {
		t.Errorf("processed holds %q", got)
	}
	if !strings.Contains(logs.String(), "no game in the address") || !strings.Contains(logs.String(), "msgid=<bad@a>") {
		t.Errorf("the reason was not logged:\n%s", logs.String())
	}
	if st := r.w.Stats(); st.Quarantined != 1 || st.Handled != 2 {
		t.Errorf("stats %+v", st)
	}
}

func TestTransientErrorRetriesInOrder(t *testing.T) {
	ms := startServer(t, capsRev2)
	for _, id := range []string{"<m1@a>", "<m2@a>", "<m3@a>"} {
		ms.deliver(t, "INBOX", message(id, "x"))
	}
	h := newHandler()
	h.fail = func(id string, n int) error {
		if id == "<m2@a>" && n <= 2 {
			return errors.New("store busy")
		}
		return nil
	}
	r := start(t, testOptions(ms.addr, openStore(t), h, &testkit.SyncBuffer{}))
	got := h.await(t, 5)
	if want := "<m1@a> <m2@a> <m2@a> <m2@a> <m3@a>"; strings.Join(got, " ") != want {
		t.Fatalf("calls %v, want %s", got, want)
	}
	_, applied := h.snapshot()
	if strings.Join(applied, " ") != "<m1@a> <m2@a> <m3@a>" {
		t.Errorf("applied %v", applied)
	}
	eventually(t, "all processed", func() bool { return len(contents(t, ms.addr, testUser, testPass, "Processed")) == 3 })
	if st := r.w.Stats(); st.Transient != 2 || st.Handled != 3 || st.Reconnects != 0 {
		t.Errorf("stats %+v", st)
	}
}

// Issue 23, rule 2: a message failing with an error taken as transient
// (before the fix, a display name the composer could not write) is set
// aside after MaxAttempts failures by default, its sender and the
// operator told, and the intake moves on.
func TestMaxAttemptsQuarantinesPoison(t *testing.T) {
	ms := startServer(t, capsRev2)
	ms.deliver(t, "INBOX", message("<poison@a>", "x"))
	ms.deliver(t, "INBOX", message("<m2@a>", "x"))
	h := &notifying{fakeHandler: newHandler()}
	h.fail = func(id string, _ int) error {
		if id == "<poison@a>" {
			return errors.New("handler bug")
		}
		return nil
	}
	o := testOptions(ms.addr, openStore(t), h, &testkit.SyncBuffer{})
	d := o
	d.setDefaults()
	if d.MaxAttempts != DefaultMaxAttempts || DefaultMaxAttempts <= 0 {
		t.Fatalf("MaxAttempts defaults to %d: a failing message would stall the intake", d.MaxAttempts)
	}
	o.MaxAttempts = 3
	r := start(t, o)
	if got := strings.Join(h.await(t, 4), " "); got != "<poison@a> <poison@a> <poison@a> <m2@a>" {
		t.Fatalf("calls %s", got)
	}
	eventually(t, "the sender told", func() bool {
		n := h.notices()
		return len(n) == 1 && n[0].Reason == "failed" && n[0].MessageID == "<poison@a>"
	})
	eventually(t, "poison quarantined", func() bool {
		return msgIDs(contents(t, ms.addr, testUser, testPass, "Quarantine")) == "<poison@a>"
	})
	if st := r.w.Stats(); st.Quarantined != 1 || st.Transient != 3 {
		t.Errorf("stats %+v", st)
	}
}

// TestSearchTrapFiltered: the server answers "UID SEARCH UID n:*" with
// messages below n (as Dovecot and imapmemserver do with the last one);
// none of them may be handed over again.
func TestSearchTrapFiltered(t *testing.T) {
	// Flags only, so that handled messages stay in the mailbox.
	ms := startServer(t, imap.CapSet{imap.CapIMAP4rev1: {}})
	ms.searchTrap = true
	ms.deliver(t, "INBOX", message("<m1@a>", "x"))
	ms.deliver(t, "INBOX", message("<m2@a>", "x"))
	h := newHandler()
	o := testOptions(ms.addr, openStore(t), h, &testkit.SyncBuffer{})
	o.ResyncInterval = 20 * time.Millisecond
	o.Idle = IdleOff
	o.PollInterval = 10 * time.Millisecond
	r := start(t, o)
	h.await(t, 2)
	h.quiet(t, 300*time.Millisecond) // dozens of polls and re-syncs
	ms.deliver(t, "INBOX", message("<m3@a>", "x"))
	if got := h.await(t, 1); got[0] != "<m3@a>" {
		t.Fatalf("got %v", got)
	}
	h.quiet(t, 100*time.Millisecond)
	if st := r.w.Stats(); st.Handled != 3 || st.Duplicates != 0 {
		t.Errorf("stats %+v", st)
	}
	if n := strings.Count(ms.traffic.String(), "UID SEARCH"); n < 10 {
		t.Errorf("only %d searches: the trap was hardly exercised", n)
	}
}

// TestFlagsWithoutMoveOrUIDPlus: with neither MOVE nor UIDPLUS nothing is
// ever expunged; processed mail is marked \Seen, quarantined mail copied and
// flagged.
func TestFlagsWithoutMoveOrUIDPlus(t *testing.T) {
	ms := startServer(t, imap.CapSet{imap.CapIMAP4rev1: {}})
	ms.deliver(t, "INBOX", message("<m1@a>", "x"))
	ms.deliver(t, "INBOX", message("<bad@a>", "x"))
	ms.deliver(t, "INBOX", message("<other@a>", "x"), imap.FlagDeleted) // someone else's business
	h := newHandler()
	h.fail = func(id string, _ int) error {
		if id == "<bad@a>" {
			return referee.Permanent("unreadable")
		}
		return nil
	}
	r := start(t, testOptions(ms.addr, openStore(t), h, &testkit.SyncBuffer{}))
	h.await(t, 3)
	eventually(t, "flags", func() bool {
		in := contents(t, ms.addr, testUser, testPass, "INBOX")
		return len(in) == 3 && hasFlag(in[0].Flags, imap.FlagSeen) && hasFlag(in[1].Flags, imap.FlagFlagged)
	})
	r.stop()
	if got := msgIDs(contents(t, ms.addr, testUser, testPass, "Quarantine")); got != "<bad@a>" {
		t.Errorf("quarantine %q", got)
	}
	tr := ms.traffic.String()
	if strings.Contains(tr, "EXPUNGE") || strings.Contains(tr, "MOVE") {
		t.Errorf("EXPUNGE or MOVE sent to a server without MOVE and UIDPLUS")
	}
}

// TestUIDPlusWithoutMove: COPY + STORE + UID EXPUNGE removes only the
// watcher's own messages, never another \Deleted one (a plain EXPUNGE
// would).
func TestUIDPlusWithoutMove(t *testing.T) {
	ms := startServer(t, imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapUIDPlus: {}})
	ms.deliver(t, "INBOX", message("<m1@a>", "x"))
	ms.deliver(t, "INBOX", message("<deleted@a>", "x"), imap.FlagDeleted)
	h := newHandler()
	block := make(chan struct{})
	h.fail = func(id string, _ int) error {
		if id == "<deleted@a>" {
			select {
			case <-block:
			default:
				return errors.New("not yet")
			}
		}
		return nil
	}
	r := start(t, testOptions(ms.addr, openStore(t), h, &testkit.SyncBuffer{}))
	h.await(t, 2)
	eventually(t, "m1 filed", func() bool {
		return msgIDs(contents(t, ms.addr, testUser, testPass, "Processed")) == "<m1@a>" &&
			!strings.Contains(msgIDs(contents(t, ms.addr, testUser, testPass, "INBOX")), "<m1@a>")
	})
	if got := msgIDs(contents(t, ms.addr, testUser, testPass, "INBOX")); got != "<deleted@a>" {
		t.Fatalf("INBOX %q: the \\Deleted message not yet handled was expunged", got)
	}
	close(block)
	eventually(t, "the other message handled and filed", func() bool {
		return msgIDs(contents(t, ms.addr, testUser, testPass, "Processed")) == "<m1@a> <deleted@a>"
	})
	r.stop()
	tr := ms.traffic.String()
	if !strings.Contains(tr, "UID EXPUNGE") || !strings.Contains(tr, "UID COPY") {
		t.Errorf("traffic lacks UID COPY / UID EXPUNGE")
	}
	for _, line := range strings.Split(tr, "\n") {
		if f := strings.Fields(line); len(f) >= 2 && strings.EqualFold(f[1], "EXPUNGE") {
			t.Errorf("plain EXPUNGE sent: %q", line)
		}
	}
}

func TestMaxMessageSize(t *testing.T) {
	ms := startServer(t, capsRev2)
	ms.deliver(t, "INBOX", message("<big@a>", strings.Repeat("x", 5000)))
	ms.deliver(t, "INBOX", message("<small@a>", "x"))
	h := newHandler()
	o := testOptions(ms.addr, openStore(t), h, &testkit.SyncBuffer{})
	o.MaxMessageSize = 1000
	r := start(t, o)
	if got := h.await(t, 1); got[0] != "<small@a>" {
		t.Fatalf("got %v", got)
	}
	eventually(t, "big quarantined", func() bool {
		return msgIDs(contents(t, ms.addr, testUser, testPass, "Quarantine")) == "<big@a>"
	})
	h.quiet(t, 50*time.Millisecond)
	if st := r.w.Stats(); st.Quarantined != 1 || st.Handled != 1 {
		t.Errorf("stats %+v", st)
	}
}

// TestUIDValidityChange: the mailbox is re-created; the cursor resets and
// the whole mailbox is scanned again, the referee recognising what it saw.
func TestUIDValidityChange(t *testing.T) {
	ms := startServer(t, imap.CapSet{imap.CapIMAP4rev1: {}}) // flags: messages stay
	ms.deliver(t, "INBOX", message("<m1@a>", "x"))
	ms.deliver(t, "INBOX", message("<m2@a>", "x"))
	db := openStore(t)
	h := newHandler()
	r := start(t, testOptions(ms.addr, db, h, &testkit.SyncBuffer{}))
	h.await(t, 2)
	r.stop()
	old := cursor(t, db, r.w.CursorKey())

	if err := ms.user.Delete("INBOX"); err != nil {
		t.Fatal(err)
	}
	if err := ms.user.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	ms.deliver(t, "INBOX", message("<m1@a>", "x"))
	ms.deliver(t, "INBOX", message("<m2@a>", "x"))
	ms.deliver(t, "INBOX", message("<m3@a>", "x"))
	var logs testkit.SyncBuffer
	r = start(t, testOptions(ms.addr, db, h, &logs))
	h.await(t, 3)
	eventually(t, "cursor at 3", func() bool { return cursor(t, db, r.w.CursorKey()).LastUID == 3 })
	cur := cursor(t, db, r.w.CursorKey())
	if cur.UIDValidity == old.UIDValidity || cur.LastUID != 3 {
		t.Errorf("cursor %+v after UIDVALIDITY change (old %+v)", cur, old)
	}
	if st := r.w.Stats(); st.Handled != 3 || st.Duplicates != 2 {
		t.Errorf("stats %+v", st)
	}
	calls, applied := h.snapshot()
	if strings.Join(applied, " ") != "<m1@a> <m2@a> <m3@a>" {
		t.Errorf("applied %v", applied)
	}
	if last := calls[len(calls)-1]; last.Keys[0] != keyOf(cur.UIDValidity, 3) {
		t.Errorf("key %q", last.Keys[0])
	}
	if !strings.Contains(logs.String(), "UIDVALIDITY changed") {
		t.Errorf("the change was not logged")
	}
}

// TestRestartResumesFromCursor: a new Watcher on the same store does not
// hand over again what the old one processed, even if it is still there.
func TestRestartResumesFromCursor(t *testing.T) {
	ms := startServer(t, imap.CapSet{imap.CapIMAP4rev1: {}}) // flags: messages stay
	ms.deliver(t, "INBOX", message("<m1@a>", "x"))
	ms.deliver(t, "INBOX", message("<m2@a>", "x"))
	db := openStore(t)
	h := newHandler()
	r := start(t, testOptions(ms.addr, db, h, &testkit.SyncBuffer{}))
	h.await(t, 2)
	r.stop()
	ms.deliver(t, "INBOX", message("<m3@a>", "x"))
	r = start(t, testOptions(ms.addr, db, h, &testkit.SyncBuffer{}))
	if got := h.await(t, 1); got[0] != "<m3@a>" {
		t.Fatalf("after restart got %v", got)
	}
	h.quiet(t, 100*time.Millisecond)
	if st := r.w.Stats(); st.Handled != 1 || st.Duplicates != 0 {
		t.Errorf("stats %+v", st)
	}
}

var errCrash = errors.New("simulated crash")

// TestCrashBetweenCommitAndCursor: the referee committed but the process
// died before the cursor update and the MOVE: after the restart the message
// is fetched again, recognised as a duplicate, and filed.
func TestCrashBetweenCommitAndCursor(t *testing.T) {
	ms := startServer(t, capsRev2)
	ms.deliver(t, "INBOX", message("<m1@a>", "x"))
	db := openStore(t)
	h := newHandler()
	r := start(t, testOptions(ms.addr, db, h, &testkit.SyncBuffer{}), func(w *Watcher) {
		w.afterHandle = func(imap.UID) error { return errCrash }
	})
	h.await(t, 1)
	r.stop()
	if cur := cursor(t, db, r.w.CursorKey()); cur.LastUID != 0 {
		t.Fatalf("cursor moved before the crash point: %+v", cur)
	}
	if got := msgIDs(contents(t, ms.addr, testUser, testPass, "INBOX")); got != "<m1@a>" {
		t.Fatalf("INBOX %q", got)
	}

	r = start(t, testOptions(ms.addr, db, h, &testkit.SyncBuffer{}))
	h.await(t, 1)
	eventually(t, "filed after restart", func() bool {
		return msgIDs(contents(t, ms.addr, testUser, testPass, "Processed")) == "<m1@a>"
	})
	calls, applied := h.snapshot()
	if len(calls) != 2 || calls[0].Keys[0] != calls[1].Keys[0] || len(applied) != 1 {
		t.Errorf("calls %d (keys %v / %v), applied %v: want the same message twice, applied once",
			len(calls), calls[0].Keys, calls[len(calls)-1].Keys, applied)
	}
	if st := r.w.Stats(); st.Duplicates != 1 {
		t.Errorf("stats %+v", st)
	}
	if cur := cursor(t, db, r.w.CursorKey()); cur.LastUID != 1 {
		t.Errorf("cursor %+v", cur)
	}
}

// TestCrashBetweenCursorAndMove: the cursor was updated but the message not
// moved; the sweep hands it over again (a duplicate) and files it.
func TestCrashBetweenCursorAndMove(t *testing.T) {
	ms := startServer(t, capsRev2)
	ms.deliver(t, "INBOX", message("<m1@a>", "x"))
	ms.deliver(t, "INBOX", message("<bad@a>", "x"))
	db := openStore(t)
	h := newHandler()
	h.fail = func(id string, _ int) error {
		if id == "<bad@a>" {
			return referee.Permanent("bad")
		}
		return nil
	}
	r := start(t, testOptions(ms.addr, db, h, &testkit.SyncBuffer{}), func(w *Watcher) {
		w.afterCursor = func(uid imap.UID) error {
			if uid == 2 {
				return errCrash
			}
			return nil
		}
	})
	h.await(t, 2)
	r.stop()
	if cur := cursor(t, db, r.w.CursorKey()); cur.LastUID != 2 {
		t.Fatalf("cursor %+v", cur)
	}
	if got := msgIDs(contents(t, ms.addr, testUser, testPass, "INBOX")); got != "<m1@a> <bad@a>" {
		t.Fatalf("INBOX %q: both should be left behind by the crash", got)
	}
	start(t, testOptions(ms.addr, db, h, &testkit.SyncBuffer{}))
	h.await(t, 2)
	eventually(t, "leftovers filed", func() bool {
		return msgIDs(contents(t, ms.addr, testUser, testPass, "Processed")) == "<m1@a>" &&
			msgIDs(contents(t, ms.addr, testUser, testPass, "Quarantine")) == "<bad@a>" &&
			len(contents(t, ms.addr, testUser, testPass, "INBOX")) == 0
	})
	if _, applied := h.snapshot(); len(applied) != 1 {
		t.Errorf("applied %v", applied)
	}
}

// TestReconnectAfterConnectionLoss cuts the connection under an idling
// watcher; it reconnects and still picks up new mail.
func TestReconnectAfterConnectionLoss(t *testing.T) {
	ms := startServer(t, capsRev2)
	var mu sync.Mutex
	var conns []net.Conn
	h := newHandler()
	o := testOptions(ms.addr, openStore(t), h, &testkit.SyncBuffer{})
	o.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err == nil {
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
		return c, err
	}
	r := start(t, o)
	ms.deliver(t, "INBOX", message("<m1@a>", "x"))
	h.await(t, 1)
	// Cut the connection only once m1 is filed (the handler returns
	// before the cursor is saved and the message moved; an IDLE may have
	// come before m1 arrived).
	eventually(t, "m1 filed", func() bool { return msgIDs(contents(t, ms.addr, testUser, testPass, "Processed")) == "<m1@a>" })
	eventually(t, "idle", func() bool { return idleCmd.MatchString(ms.traffic.String()) })
	mu.Lock()
	_ = conns[0].Close()
	mu.Unlock()
	eventually(t, "reconnect", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(conns) == 2 && r.w.Stats().Connected
	})
	ms.deliver(t, "INBOX", message("<m2@a>", "x"))
	if got := h.await(t, 1); got[0] != "<m2@a>" {
		t.Fatalf("got %v", got)
	}
	eventually(t, "handled counted", func() bool { return r.w.Stats().Handled == 2 })
	if st := r.w.Stats(); st.Reconnects != 1 || st.Handled != 2 {
		t.Errorf("stats %+v", st)
	}
}

// TestReconnectBackoff checks, in fake time, that reconnection attempts
// back off exponentially with jitter between the bounds.
func TestReconnectBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var dials []time.Time
		o := testOptions("127.0.0.1:143", openStore(t), newHandler(), &testkit.SyncBuffer{})
		o.MinBackoff, o.MaxBackoff = time.Second, 8*time.Second
		o.Dial = func(context.Context, string, string) (net.Conn, error) {
			dials = append(dials, time.Now())
			return nil, errors.New("connection refused")
		}
		w, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() { done <- w.Run(ctx) }()
		time.Sleep(time.Minute)
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if len(dials) < 8 || len(dials) > 16 {
			t.Fatalf("%d dials in a minute", len(dials))
		}
		for i := 1; i < len(dials); i++ {
			base := min(time.Second<<(i-1), 8*time.Second)
			if gap := dials[i].Sub(dials[i-1]); gap < base/2 || gap > base {
				t.Errorf("gap %d: %v, want within [%v, %v]", i, gap, base/2, base)
			}
		}
		if st := w.Stats(); st.Reconnects != uint64(len(dials)) || st.Connected {
			t.Errorf("stats %+v after %d dials", st, len(dials))
		}
	})
}

// TestPollingWithoutIdle: with IDLE off the watcher looks again every poll
// interval.
func TestPollingWithoutIdle(t *testing.T) {
	ms := startServer(t, capsDovecot)
	h := newHandler()
	o := testOptions(ms.addr, openStore(t), h, &testkit.SyncBuffer{})
	o.Idle = IdleOff
	o.PollInterval = 30 * time.Millisecond
	start(t, o)
	ms.deliver(t, "INBOX", message("<m1@a>", "x"))
	h.await(t, 1)
	if idleCmd.MatchString(ms.traffic.String()) {
		t.Errorf("IDLE used with Idle off")
	}
}

func TestGracefulStopWhileIdling(t *testing.T) {
	ms := startServer(t, capsDovecot)
	r := start(t, testOptions(ms.addr, openStore(t), newHandler(), &testkit.SyncBuffer{}))
	eventually(t, "idle", func() bool { return idleCmd.MatchString(ms.traffic.String()) })
	begin := time.Now()
	r.stop()
	if d := time.Since(begin); d > 2*time.Second {
		t.Errorf("stop took %v", d)
	}
	tr := ms.traffic.String()
	if !strings.Contains(tr, "DONE") || !strings.Contains(tr, "LOGOUT") {
		t.Errorf("no DONE / LOGOUT on stop")
	}
}

func TestWrongPasswordNeverLogged(t *testing.T) {
	ms := startServer(t, capsRev2)
	var logs testkit.SyncBuffer
	o := testOptions(ms.addr, openStore(t), newHandler(), &logs)
	o.Password = "Wr0ng-but-secret"
	r := start(t, o)
	eventually(t, "a few failed logins", func() bool { return r.w.Stats().Reconnects >= 3 })
	r.stop()
	out := logs.String()
	if strings.Contains(out, "Wr0ng-but-secret") {
		t.Errorf("the password reached the log:\n%s", out)
	}
	if !strings.Contains(out, "login as "+testUser) || !strings.Contains(out, "[redacted]") {
		t.Errorf("log lacks the login failure or the redacted options:\n%s", out)
	}
}

func TestOptionsValidation(t *testing.T) {
	db := openStore(t)
	h := newHandler()
	base := Options{Addr: "imap.example.org:993", Username: "u", Password: "p", Store: db, Handler: h}
	for _, tc := range []struct {
		name string
		mod  func(*Options)
		err  string
	}{
		{"plain to remote", func(o *Options) { o.TLS = TLSNone; o.Addr = "imap.example.org:143" }, "AllowInsecure"},
		{"bad tls", func(o *Options) { o.TLS = "ssl" }, "TLS mode"},
		{"bad idle", func(o *Options) { o.Idle = "sometimes" }, "IDLE mode"},
		{"no port", func(o *Options) { o.Addr = "imap.example.org" }, "host:port"},
		{"processed is inbox", func(o *Options) { o.ProcessedFolder = "inbox" }, "must differ"},
		{"wildcard", func(o *Options) { o.QuarantineFolder = "Q*" }, "wildcard"},
		{"no user", func(o *Options) { o.Username = "" }, "username"},
		{"no handler", func(o *Options) { o.Handler = nil }, "handler"},
		{"backoff", func(o *Options) { o.MinBackoff = time.Hour; o.MaxBackoff = time.Second }, "backoff"},
	} {
		o := base
		tc.mod(&o)
		if _, err := New(o); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want an error mentioning %q", tc.name, err, tc.err)
		}
	}
	for _, mod := range []func(*Options){
		func(*Options) {},
		func(o *Options) { o.TLS = TLSNone; o.Addr = "127.0.0.1:143" },
		func(o *Options) { o.TLS = TLSNone; o.Addr = "[::1]:143" },
		func(o *Options) { o.TLS = TLSNone; o.AllowInsecure = true },
		func(o *Options) { o.TLS = TLSStartTLS },
	} {
		o := base
		mod(&o)
		if _, err := New(o); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
}
