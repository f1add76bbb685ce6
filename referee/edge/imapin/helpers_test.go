package imapin

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/mail"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

const (
	testUser = "referee@example.test"
	testPass = "Sw0rdfish-imap"
)

// memServer is an in-process IMAP server (imapserver + imapmemserver) with
// one user and the traffic recorded.
type memServer struct {
	addr    string
	user    *imapmemserver.User
	traffic testkit.SyncBuffer
	// searchTrap makes every UID SEARCH also return every message of the
	// mailbox, like a server that answers "UID n:*" with lower UIDs.
	searchTrap bool
}

type quietLog struct{}

func (quietLog) Printf(string, ...any) {}

// startServer starts a server with the given capabilities (IDLE is always
// advertised by imapserver).
func startServer(t testing.TB, caps imap.CapSet) *memServer {
	t.Helper()
	ms := &memServer{user: imapmemserver.NewUser(testUser, testPass)}
	if err := ms.user.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &testSession{ms: ms}, nil, nil
		},
		Caps:         caps,
		InsecureAuth: true,
		Logger:       quietLog{},
		DebugWriter:  &ms.traffic,
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ms.addr = ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ms
}

var (
	capsRev2 = imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}}
	// capsDovecot mimics Dovecot 2.3: IMAP4rev1 plus the extensions.
	capsDovecot = imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIdle: {}, imap.CapMove: {}, imap.CapUIDPlus: {},
		imap.CapNamespace: {}, imap.CapESearch: {}, imap.CapListStatus: {}, imap.CapStatusSize: {}}
)

// testSession logs in against the one user and can distort SEARCH.
type testSession struct {
	*imapmemserver.UserSession
	ms *memServer
}

func (s *testSession) Login(username, password string) error {
	if username != testUser {
		return imapserver.ErrAuthFailed
	}
	if err := s.ms.user.Login(username, password); err != nil {
		return err
	}
	s.UserSession = imapmemserver.NewUserSession(s.ms.user)
	return nil
}

func (s *testSession) Close() error {
	if s.UserSession == nil {
		return nil
	}
	return s.UserSession.Close()
}

// Idle reports pending changes when IDLE starts and then every 5 ms, like
// Dovecot. (imapmemserver's own Idle only reports changes made after IDLE
// began: a message appended between the client's last command and its
// IDLE would wait for the next change.)
func (s *testSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		if err := s.UserSession.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-stop:
			return nil
		case <-tick.C:
		}
	}
}

func (s *testSession) Search(kind imapserver.NumKind, c *imap.SearchCriteria, o *imap.SearchOptions) (*imap.SearchData, error) {
	data, err := s.UserSession.Search(kind, c, o)
	if err != nil || !s.ms.searchTrap || kind != imapserver.NumKindUID {
		return data, err
	}
	all, err := s.UserSession.Search(kind, &imap.SearchCriteria{}, &imap.SearchOptions{})
	if err != nil {
		return nil, err
	}
	set, _ := data.All.(imap.UIDSet)
	extra, _ := all.All.(imap.UIDSet)
	uids, _ := extra.Nums()
	for _, u := range uids {
		set.AddNum(u)
	}
	data.All = set
	return data, nil
}

// message returns a small test message with the given Message-ID.
func message(msgid, body string) []byte {
	return []byte("From: Alice <alice@example.test>\r\n" +
		"To: referee+g1@example.test\r\n" +
		"Subject: move\r\n" +
		"Message-ID: " + msgid + "\r\n" +
		"Date: Mon, 02 Jan 2006 15:04:05 +0000\r\n" +
		"\r\n" + body + "\r\n")
}

// deliver appends a message to the user's mailbox, as a delivery would.
func (ms *memServer) deliver(t testing.TB, mailbox string, raw []byte, flags ...imap.Flag) {
	t.Helper()
	if _, err := ms.user.Append(mailbox, bytes.NewReader(raw), &imap.AppendOptions{Time: time.Now(), Flags: flags}); err != nil {
		t.Fatal(err)
	}
}

// folderMsg is a message as seen in a folder.
type folderMsg struct {
	UID   imap.UID
	MsgID string
	Flags []imap.Flag
	Raw   []byte
}

// contents lists a folder over a separate connection.
func contents(t testing.TB, addr, user, pass, mailbox string) []folderMsg {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, pass).Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatalf("select %s: %v", mailbox, err)
	}
	var out []folderMsg
	if sel.NumMessages > 0 {
		section := &imap.FetchItemBodySection{Peek: true}
		msgs, err := c.Fetch(imap.SeqSetNum(seqRange(sel.NumMessages)...), &imap.FetchOptions{
			UID: true, Flags: true, BodySection: []*imap.FetchItemBodySection{section},
		}).Collect()
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			raw := m.FindBodySection(section)
			out = append(out, folderMsg{UID: m.UID, MsgID: msgID(raw), Flags: m.Flags, Raw: raw})
		}
	}
	if err := c.Logout().Wait(); err != nil {
		t.Logf("logout: %v", err)
	}
	slices.SortFunc(out, func(a, b folderMsg) int { return int(a.UID) - int(b.UID) })
	return out
}

func seqRange(n uint32) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = uint32(i + 1)
	}
	return s
}

func msgIDs(msgs []folderMsg) string {
	var ids []string
	for _, m := range msgs {
		ids = append(ids, m.MsgID)
	}
	return strings.Join(ids, " ")
}

func msgID(raw []byte) string {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return ""
	}
	return m.Header.Get("Message-Id")
}

// fakeHandler stands in for the referee: it de-duplicates by Message-ID
// and by the transport keys, like the real one, and records every call.
type fakeHandler struct {
	mu      sync.Mutex
	calls   []mailin.Inbound
	applied []string        // Message-IDs applied, in order
	seen    map[string]bool // Message-IDs and keys already processed
	// fail, if set, decides the error of a call (n counts the calls for
	// this Message-ID, from 1).
	fail    func(msgid string, n int) error
	perID   map[string]int
	handled chan string // receives the Message-ID after every call
}

func newHandler() *fakeHandler {
	return &fakeHandler{seen: map[string]bool{}, perID: map[string]int{}, handled: make(chan string, 1000)}
}

func (h *fakeHandler) HandleMail(_ context.Context, in mailin.Inbound) (referee.Outcome, error) {
	id := msgID(in.Raw)
	defer func() { h.handled <- id }()
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, in)
	h.perID[id]++
	if h.fail != nil {
		if err := h.fail(id, h.perID[id]); err != nil {
			return referee.Outcome{}, err
		}
	}
	dup := h.seen[id]
	for _, k := range in.Keys {
		dup = dup || h.seen[k]
	}
	if dup {
		return referee.Outcome{Status: "duplicate"}, nil
	}
	h.seen[id] = true
	for _, k := range in.Keys {
		h.seen[k] = true
	}
	h.applied = append(h.applied, id)
	return referee.Outcome{Status: "applied", Game: "g1"}, nil
}

func (h *fakeHandler) snapshot() (calls []mailin.Inbound, applied []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.calls), slices.Clone(h.applied)
}

// await waits until n more handler calls happened.
func (h *fakeHandler) await(t *testing.T, n int) []string {
	t.Helper()
	var ids []string
	timeout := time.After(10 * time.Second)
	for len(ids) < n {
		select {
		case id := <-h.handled:
			ids = append(ids, id)
		case <-timeout:
			t.Fatalf("handler: %d of %d calls arrived (%v)", len(ids), n, ids)
		}
	}
	return ids
}

// killedBy is a fail that panics at every hand-over of the bomb, as a
// process killed by its handling would never finish it.
func killedBy(bomb string) func(string, int) error {
	return func(id string, _ int) error {
		if id == bomb {
			panic("killed the process, as it were")
		}
		return nil
	}
}

// checkHandedOver fails unless the handler took id exactly want times.
func (h *fakeHandler) checkHandedOver(t *testing.T, id string, want int) {
	t.Helper()
	h.mu.Lock()
	n := h.perID[id]
	h.mu.Unlock()
	if n != want {
		t.Errorf("%s was handed over %d times, want %d", id, n, want)
	}
}

// quiet asserts that no handler call arrives for d.
func (h *fakeHandler) quiet(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case id := <-h.handled:
		t.Fatalf("unexpected handler call for %s", id)
	case <-time.After(d):
	}
}

func openStore(t testing.TB) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "referee.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Check(); err != nil {
			t.Errorf("store check: %v", err)
		}
		_ = db.Close()
	})
	return db
}

func cursor(t testing.TB, db *store.DB, key string) store.Cursor {
	t.Helper()
	var c store.Cursor
	if err := db.View(func(tx *store.Tx) error {
		var err error
		c, err = tx.Cursor(key)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return c
}

func debugLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// testOptions are fast options against a test server.
func testOptions(addr string, db *store.DB, h mailin.Handler, logs io.Writer) Options {
	return Options{
		Addr: addr, TLS: TLSNone, Username: testUser, Password: testPass,
		Store: db, Handler: h, Logger: debugLogger(logs),
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond,
		ResyncInterval: time.Hour, PollInterval: time.Hour,
	}
}

// crashOptions are testOptions that quarantine a mail after three
// hand-overs that never finished.
func crashOptions(addr string, db *store.DB, h mailin.Handler) Options {
	o := testOptions(addr, db, h, &testkit.SyncBuffer{})
	o.MaxCrashes = 3
	return o
}

// eachBombPlace runs check with the bomb at each place of the mailbox,
// with a first look filed before it (later) or not.
func eachBombPlace(t *testing.T, places []int, check func(t *testing.T, at int, later bool)) {
	for _, at := range places {
		for _, later := range []bool{false, true} {
			t.Run(fmt.Sprintf("bomb-at-%d-later-%v", at, later), func(t *testing.T) { check(t, at, later) })
		}
	}
}

// running is a Watcher running in the background.
type running struct {
	w    *Watcher
	stop func() // cancels and waits for Run to return
}

func start(t testing.TB, o Options, hooks ...func(*Watcher)) *running {
	t.Helper()
	w, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hooks {
		h(w)
	}
	return &running{w: w, stop: testkit.Run(t, w.Run)}
}

// eventually waits for cond, failing after a timeout.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func hasFlag(flags []imap.Flag, f imap.Flag) bool {
	return slices.Contains(flags, f)
}

func keyOf(validity uint32, uid imap.UID) string {
	return fmt.Sprintf("imap:%s/INBOX/%d/%d", testUser, validity, uid)
}
