package smtpout

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

// runSender starts s.Run and stops it at cleanup, failing if Run returns an
// error.
func runSender(t *testing.T, s *Sender) {
	t.Helper()
	testkit.Run(t, s.Run)
}

// collect returns an OnResult callback and a function that waits for n
// more results.
func collect(t *testing.T) (func(Result), func(n int) []Result) {
	ch := make(chan Result, 100)
	return func(r Result) { ch <- r }, func(n int) []Result {
		t.Helper()
		var out []Result
		// A bound on a wait, not a timing check: generous, so a machine
		// under load (the race pass beside other work) still gets there.
		timeout := time.After(90 * time.Second)
		for len(out) < n {
			select {
			case r := <-ch:
				out = append(out, r)
			case <-timeout:
				keys := make([]string, len(out))
				for i, r := range out {
					keys[i] = r.Item.Key
				}
				t.Fatalf("got %d of %d results after 90 s: %v", len(out), n, keys)
			}
		}
		return out
	}
}

func TestDeliverThroughSMTP(t *testing.T) {
	sk := startSink(t)
	sk.tempFails = 2
	db := openStore(t)
	var logs testkit.SyncBuffer
	onResult, wait := collect(t)
	s, err := New(Options{
		Addr: sk.addr, TLSPolicy: TLSNone, Auth: AuthPlain,
		Username: "referee@example.test", Password: "s3cret-Pa55",
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 80 * time.Millisecond,
		Store: db, Logger: debugLogger(&logs), OnResult: onResult,
	})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	msgs := map[string][]byte{}
	ids := map[string]uint64{}
	for _, to := range []string{"alice@example.test", "unknown@example.test", "busy@example.test", "drop@example.test"} {
		key := "<" + strings.SplitN(to, "@", 2)[0] + ".1@referee.example.test>"
		msgs[to] = testMessage(key, to)
		ids[to] = enqueue(t, db, key, "referee+bounce@example.test", to, msgs[to], now)
	}
	runSender(t, s)

	// alice, drop: sent; unknown: failed; busy: 2 retries then sent.
	results := wait(6)
	byTo := map[string][]string{}
	for _, r := range results {
		byTo[r.Item.To] = append(byTo[r.Item.To], r.Outcome)
	}
	want := map[string]string{
		"alice@example.test": "sent", "unknown@example.test": "failed",
		"busy@example.test": "retry retry sent", "drop@example.test": "sent",
	}
	for to, w := range want {
		if got := strings.Join(byTo[to], " "); got != w {
			t.Errorf("%s: outcomes %q, want %q", to, got, w)
		}
	}

	failed := item(t, db, ids["unknown@example.test"])
	if failed.State != store.Failed || !strings.Contains(failed.LastError, "550") ||
		!strings.Contains(failed.LastError, "user unknown") {
		t.Errorf("unknown@: state %q, last error %q; want failed with the 550 reply", failed.State, failed.LastError)
	}
	for _, r := range results {
		if r.Item.To == "unknown@example.test" {
			if r.Err == nil || !r.Err.Permanent || r.Err.Code != 550 || r.Err.Enhanced != "5.1.1" || r.Err.Stage != "rcpt" {
				t.Errorf("unknown@: result error %+v, want permanent 550 5.1.1 at rcpt", r.Err)
			}
		}
	}
	if it := item(t, db, ids["busy@example.test"]); it.State != store.Sent || it.Attempts != 3 {
		t.Errorf("busy@: state %q after %d attempts, want sent after 3", it.State, it.Attempts)
	}
	if it := item(t, db, ids["drop@example.test"]); it.State != store.Sent || it.Attempts != 1 {
		t.Errorf("drop@: state %q after %d attempts, want sent after 1", it.State, it.Attempts)
	}

	// Wait well past the longest backoff: nothing may be delivered twice.
	time.Sleep(300 * time.Millisecond)
	got := sk.messages()
	count := map[string]int{}
	for _, m := range got {
		count[m.To]++
		if m.From != "referee+bounce@example.test" {
			t.Errorf("envelope sender %q", m.From)
		}
		if !bytes.Equal(m.Data, msgs[m.To]) {
			t.Errorf("%s: message changed in transit:\n got %q\nwant %q", m.To, m.Data, msgs[m.To])
		}
	}
	for _, to := range []string{"alice@example.test", "busy@example.test", "drop@example.test"} {
		if count[to] != 1 {
			t.Errorf("%s received %d copies, want 1", to, count[to])
		}
	}
	if count["unknown@example.test"] != 0 {
		t.Errorf("unknown@ received %d", count["unknown@example.test"])
	}
	st := s.Stats()
	if st.Sent != 3 || st.Failed != 1 || st.Retried != 2 || st.Panics != 0 {
		t.Errorf("stats %+v", st)
	}

	sk.mu.Lock()
	auths := append([]string(nil), sk.auths...)
	sk.mu.Unlock()
	if len(auths) == 0 || auths[0] != "referee@example.test:s3cret-Pa55" {
		t.Errorf("AUTH PLAIN credentials seen by the server: %q", auths)
	}
	if strings.Contains(logs.String(), "s3cret-Pa55") {
		t.Errorf("the password reached the log:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "mail sent") {
		t.Errorf("debug log lacks deliveries:\n%s", logs.String())
	}
}

func TestWrongPasswordIsTransient(t *testing.T) {
	sk := startSink(t)
	db := openStore(t)
	onResult, wait := collect(t)
	s, err := New(Options{
		Addr: sk.addr, TLSPolicy: TLSNone, Username: "referee@example.test", Password: "wrong",
		Store: db, Logger: debugLogger(&testkit.SyncBuffer{}), OnResult: onResult,
	})
	if err != nil {
		t.Fatal(err)
	}
	id := enqueue(t, db, "<a@x>", "referee@example.test", "alice@example.test", testMessage("<a@x>", "alice@example.test"), time.Now())
	runSender(t, s)
	r := wait(1)[0]
	if r.Outcome != OutcomeRetry || r.Err == nil || r.Err.Stage != "connect" || r.Err.Permanent {
		t.Fatalf("result %+v (err %v), want a transient connect failure", r, r.Err)
	}
	it := item(t, db, id)
	if it.State != store.Pending || !it.Due.After(time.Now().Add(25*time.Second)) {
		t.Errorf("item %+v: want pending and due after the 1-minute backoff's lower bound", it)
	}
}

func TestMandatoryTLSWithoutSTARTTLS(t *testing.T) {
	sk := startSink(t)
	db := openStore(t)
	onResult, wait := collect(t)
	s, err := New(Options{Addr: sk.addr, Store: db, Logger: debugLogger(&testkit.SyncBuffer{}), OnResult: onResult})
	if err != nil {
		t.Fatal(err)
	}
	enqueue(t, db, "<a@x>", "referee@example.test", "alice@example.test", testMessage("<a@x>", "alice@example.test"), time.Now())
	runSender(t, s)
	r := wait(1)[0]
	if r.Outcome != OutcomeRetry || !strings.Contains(r.Err.Error(), "STARTTLS") {
		t.Fatalf("result %+v (err %v), want a transient STARTTLS failure", r, r.Err)
	}
	if n := len(sk.messages()); n != 0 {
		t.Errorf("%d messages went out without TLS", n)
	}
}

func TestOptionsValidation(t *testing.T) {
	db := openStore(t)
	for _, tc := range []struct {
		name string
		o    Options
		err  string
	}{
		{"plain to remote", Options{Addr: "mail.example.org:25", TLSPolicy: TLSNone, Store: db}, "AllowInsecure"},
		{"opportunistic to remote", Options{Addr: "mail.example.org:25", TLSPolicy: TLSOpportunistic, Store: db}, "AllowInsecure"},
		{"bad addr", Options{Addr: "mail.example.org", Store: db}, "host:port"},
		{"bad policy", Options{Addr: "127.0.0.1:25", TLSPolicy: "sometimes", Store: db}, "TLS policy"},
		{"plain without user", Options{Addr: "127.0.0.1:25", Auth: AuthPlain, Store: db}, "username"},
		{"no store", Options{Addr: "127.0.0.1:25"}, "no store"},
		{"inverted backoff", Options{Addr: "127.0.0.1:25", Store: db, MinBackoff: time.Hour, MaxBackoff: time.Minute}, "backoff"},
	} {
		if _, err := New(tc.o); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.err)
		}
	}
	for _, o := range []Options{
		{Addr: "mail.example.org:25", TLSPolicy: TLSNone, AllowInsecure: true, Store: db},
		{Addr: "mail.example.org:465", ImplicitTLS: true, Username: "u", Password: "p", Store: db},
		{Addr: "[::1]:25", TLSPolicy: TLSNone, Store: db},
		{Addr: "mail.example.org:587", Auth: AuthLogin, Username: "u", Password: "p", Store: db},
	} {
		if _, err := New(o); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

func TestOptionsLogValueRedactsPassword(t *testing.T) {
	var logs testkit.SyncBuffer
	debugLogger(&logs).Info("x", "smtp", Options{Addr: "a:1", Username: "u", Password: "hunter2-secret"})
	if strings.Contains(logs.String(), "hunter2-secret") || !strings.Contains(logs.String(), "[redacted]") {
		t.Errorf("log %q", logs.String())
	}
}

func TestConcurrentSendersShareNothing(t *testing.T) {
	// Many items through the pool: each is delivered exactly once.
	sk := startSink(t)
	sk.requireAuth = false
	db := openStore(t)
	var mu sync.Mutex
	seen := map[string]int{}
	onResult, wait := collect(t)
	s, err := New(Options{Addr: sk.addr, TLSPolicy: TLSNone, Workers: 4, Store: db,
		Logger: debugLogger(&testkit.SyncBuffer{}), OnResult: func(r Result) {
			mu.Lock()
			seen[r.Item.Key]++
			mu.Unlock()
			onResult(r)
		}})
	if err != nil {
		t.Fatal(err)
	}
	runSender(t, s)
	const n = 40
	start := time.Now()
	for i := range n {
		key := "<m" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + "@x>"
		enqueue(t, db, key, "referee@example.test", "alice@example.test", testMessage(key, "alice@example.test"), time.Now())
		s.Kick()
	}
	wait(n)
	t.Logf("%d mails through the in-process SMTP server in %v", n, time.Since(start))
	if got := len(sk.messages()); got != n {
		t.Errorf("server received %d messages, want %d", got, n)
	}
	for k, c := range seen {
		if c != 1 {
			t.Errorf("%s reported %d times", k, c)
		}
	}
}

// The delivery is recorded as sent as soon as the server accepted the
// message: a server that never answers QUIT does not hold the commit back
// (issue 11, item 9: the duplicate window used to stretch to minutes).
func TestSentCommittedBeforeQuit(t *testing.T) {
	sk := startSink(t)
	sk.requireAuth = false
	db := openStore(t)
	onResult, wait := collect(t)
	s, err := New(Options{
		Addr: sk.addr, TLSPolicy: TLSNone, Auth: AuthNone, CommandTimeout: time.Hour,
		Store: db, Logger: debugLogger(&testkit.SyncBuffer{}), OnResult: onResult,
	})
	if err != nil {
		t.Fatal(err)
	}
	key := "<mute.1@referee.example.test>"
	id := enqueue(t, db, key, "referee+bounce@example.test", "mute@example.test", testMessage(key, "mute@example.test"), time.Now())
	runSender(t, s)
	if r := wait(1); r[0].Outcome != "sent" {
		t.Fatalf("outcome %+v", r[0])
	}
	if it := item(t, db, id); it.State != store.Sent {
		t.Fatalf("state %q", it.State)
	}
}
