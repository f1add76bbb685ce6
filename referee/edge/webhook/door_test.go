package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/hookout"
	"github.com/pbem-referee/referee/referee/edge/mailin"
)

// slowConn opens a connection from the given loopback source address and
// writes what it is given, then holds it open.
func slowConn(t *testing.T, addr, from, text string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial from %s: %v", from, err)
	}
	if _, err := c.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	return c
}

// clientFrom is an HTTP client whose connections come from the given
// loopback address.
func clientFrom(from string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
}

// TestFrontDoorHoldsUnderSlowClients is issue 23's front door: 500 slow
// connections from one address (half trickling their headers, half
// trickling a large unauthenticated body) are held open while
// authenticated posts from other addresses, and by basic authentication
// from the same one, still go through at once. Before the fix four slow
// unauthenticated posts took all four in-flight slots and every endpoint
// answered 503.
func TestFrontDoorHoldsUnderSlowClients(t *testing.T) {
	if testing.Short() {
		t.Skip("500 connections")
	}
	ts := newTestServer(t, func(o *Options) { o.Now = time.Now })
	srv := httptest.NewUnstartedServer(ts.mux)
	srv.Config.ReadHeaderTimeout = time.Minute // longer than the test: the held connections stay held
	srv.Start()
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	const attacker = "127.0.0.1"
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := 0; i < 250; i++ {
		conns = append(conns, slowConn(t, addr, attacker, "POST /inbound HTTP/1.1\r\nHost: x\r\nContent-Ty"))
		conns = append(conns, slowConn(t, addr, attacker, fmt.Sprintf("POST /inbound HTTP/1.1\r\nHost: x\r\n"+
			"Content-Type: message/rfc822\r\nContent-Length: %d\r\n%s: %d\r\n%s: sha256=%s\r\n\r\nFrom: a",
			1<<20, hookout.HeaderTimestamp, time.Now().Unix(), hookout.HeaderSignature, strings.Repeat("0", 64))))
	}
	time.Sleep(200 * time.Millisecond) // the slow bodies reach their handlers
	// A trickle that keeps them alive while the genuine posts go in.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				for _, c := range conns {
					c.Write([]byte("x"))
				}
			}
		}
	}()
	defer func() { close(stop); wg.Wait() }()

	post := func(c *http.Client, path string, ct string, body []byte, hdr http.Header) int {
		t.Helper()
		req, _ := http.NewRequest("POST", srv.URL+path, bytes.NewReader(body))
		req.Header.Set("Content-Type", ct)
		for k, v := range hdr {
			req.Header[k] = v
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	before := ts.h.n()
	for i := 0; i < 10; i++ {
		raw := []byte(strings.Replace(sampleMail, "<m1@", fmt.Sprintf("<door%d@", i), 1))
		if c := post(clientFrom("127.0.0.2"), "/inbound", "message/rfc822", raw, signed(rawSecret, time.Now(), raw)); c != 200 {
			t.Errorf("a signed raw post from another address: %d", c)
		}
		ct, form := multipartForm(t, map[string]string{"email": string(raw)}, "email")
		if c := post(clientFrom(attacker), "/inbound/sendgrid", ct, form, basic(sgUser, sgPass)); c != 200 {
			t.Errorf("an authenticated SendGrid post from the attacker's own address: %d", c)
		}
		f := mgSign(mgKey, time.Now(), fmt.Sprintf("tok%040d", i))
		f["body-mime"] = string(raw)
		if c := post(clientFrom("127.0.0.3"), "/inbound/mailgun/mime", "application/x-www-form-urlencoded", urlencoded(f), nil); c != 200 {
			t.Errorf("a signed Mailgun post from another address: %d", c)
		}
	}
	if got := ts.h.n() - before; got != 30 {
		t.Errorf("%d of 30 authenticated posts reached the referee", got)
	}
	// The attacker's address gets no more unauthenticated reads: 429 at once.
	raw := []byte(sampleMail)
	if c := post(clientFrom(attacker), "/inbound", "message/rfc822", raw, signed(rawSecret, time.Now(), raw)); c != http.StatusTooManyRequests {
		t.Errorf("one more unauthenticated read from the attacker's address: %d, want 429", c)
	}
	// Every slow connection is either still held open (the slow headers,
	// and MaxPerClient slow bodies) or was answered 429 at once; none
	// took a slot.
	open, refused := 0, 0
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(5 * time.Millisecond))
		buf := make([]byte, 64)
		n, err := c.Read(buf)
		var ne net.Error
		switch {
		case errors.As(err, &ne) && ne.Timeout():
			open++
		case strings.HasPrefix(string(buf[:n]), "HTTP/1.1 429"):
			refused++
		}
	}
	t.Logf("500 slow connections: %d held open, %d answered 429 at once; 30 authenticated posts through", open, refused)
	if open < 250+DefaultMaxPerClient || open+refused != 500 {
		t.Errorf("%d held, %d refused of 500: the test does not hold its load", open, refused)
	}
}

// TestSlowBodyCutOff: a body trickled for longer than BodyReadTimeout is
// cut off and its budget returned.
func TestSlowBodyCutOff(t *testing.T) {
	ts := newTestServer(t, func(o *Options) { o.Now = time.Now; o.BodyReadTimeout = 300 * time.Millisecond; o.MaxPerClient = 1 })
	srv := httptest.NewServer(ts.mux)
	defer srv.Close()
	c := slowConn(t, srv.Listener.Addr().String(), "127.0.0.1", fmt.Sprintf("POST /inbound HTTP/1.1\r\nHost: x\r\n"+
		"Content-Type: message/rfc822\r\nContent-Length: 100000\r\n%s: %d\r\n%s: sha256=%s\r\n\r\nFrom: a",
		hookout.HeaderTimestamp, time.Now().Unix(), hookout.HeaderSignature, strings.Repeat("0", 64)))
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 200)
	n, _ := c.Read(buf)
	if !strings.Contains(string(buf[:n]), " 408 ") {
		t.Fatalf("a trickled body got %q, want 408 after the body read timeout", buf[:n])
	}
	raw := []byte(sampleMail)
	req, _ := http.NewRequest("POST", srv.URL+"/inbound", bytes.NewReader(raw))
	for k, v := range signed(rawSecret, time.Now(), raw) {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("after the cut-off the client's next post: %d", resp.StatusCode)
	}
}

// failingHandler fails every hand-over (an error taken as transient, or a
// panic) and takes quarantine notices.
type failingHandler struct {
	mu      sync.Mutex
	calls   int
	panics  bool
	notices []referee.QuarantineNotice
}

func (f *failingHandler) HandleMail(context.Context, mailin.Inbound) (referee.Outcome, error) {
	f.mu.Lock()
	f.calls++
	f.mu.Unlock()
	if f.panics {
		panic("a library crashed")
	}
	return referee.Outcome{}, errors.New("mailfmt: cannot compose message: to: failed to parse mail address")
}

func (f *failingHandler) NotifyQuarantined(_ context.Context, n referee.QuarantineNotice) (referee.Outcome, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.notices = append(f.notices, n)
	return referee.Outcome{Status: referee.OutcomeRejected}, nil
}

// TestFailingMessageSetAside is issue 23's rule 2 at the webhook: a message
// that fails every time, with an error or a panic, is answered "retry"
// MaxAttempts-1 times, then set aside (the referee records it and tells
// the sender) and answered with the provider's "do not retry" code; it
// is not answered 503 for ever.
func TestFailingMessageSetAside(t *testing.T) {
	for _, panics := range []bool{false, true} {
		for _, ep := range []struct {
			name, path string
			perm       int
			post       func(ts *testServer, raw []byte) int
		}{
			{"raw", "/inbound", 422, func(ts *testServer, raw []byte) int {
				return ts.do("POST", "/inbound", "message/rfc822", raw, signed(rawSecret, ts.now, raw)).Code
			}},
			{"postmark", "/inbound/postmark", 403, func(ts *testServer, raw []byte) int {
				body := []byte(fmt.Sprintf(`{"MessageID":"pm-1","RawEmail":%q}`, raw))
				return ts.do("POST", "/inbound/postmark", "application/json", body, basic(pmUser, pmPass)).Code
			}},
		} {
			fh := &failingHandler{panics: panics}
			ts := newTestServer(t, func(o *Options) { o.Handler = fh })
			raw := []byte(sampleMail)
			var codes []int
			for i := 0; i < DefaultMaxAttempts+2; i++ {
				codes = append(codes, ep.post(ts, raw))
			}
			want := fmt.Sprint([]int{503, 503, 503, 503, ep.perm, 503, 503})
			if fmt.Sprint(codes) != want {
				t.Errorf("%s (panics %v): answers %v, want %s", ep.name, panics, codes, want)
			}
			if len(fh.notices) != 1 || fh.notices[0].Reason != "failed" || fh.notices[0].From != "ann@example.test" ||
				fh.notices[0].MessageID != "<m1@players.test>" {
				t.Errorf("%s (panics %v): notices %+v", ep.name, panics, fh.notices)
			}
		}
	}
}

// noticeHandler accepts every mail and keeps the quarantine notices.
type noticeHandler struct {
	fakeHandler
	notices []referee.QuarantineNotice
}

func (n *noticeHandler) NotifyQuarantined(_ context.Context, q referee.QuarantineNotice) (referee.Outcome, error) {
	n.notices = append(n.notices, q)
	return referee.Outcome{Status: referee.OutcomeRejected}, nil
}

// TestMailgunReplayBeforeTheGenuinePost is issue 23's captured signature
// posted before the genuine post, at the front door: both posts are
// handed over, each under its own key and marked unbound, so that the
// intake lets neither act without its own DKIM proof (see
// TestMailgunForgedBodyFirst for the whole path); nothing is set aside and
// the genuine mail is not lost.
func TestMailgunReplayBeforeTheGenuinePost(t *testing.T) {
	nh := &noticeHandler{fakeHandler: fakeHandler{out: referee.Outcome{Status: "applied"}}}
	ts := newTestServer(t, func(o *Options) { o.Handler = nh })
	const ct = "application/x-www-form-urlencoded"
	f := mgSign(mgKey, ts.now, strings.Repeat("c", 50))
	f["body-mime"] = strings.Replace(sampleMail, "ROLL", "PASS", 1) // forged, first
	if rec := ts.do("POST", "/inbound/mailgun/mime", ct, urlencoded(f), nil); rec.Code != 200 {
		t.Fatalf("the forged post: %d", rec.Code)
	}
	f["body-mime"] = sampleMail // the genuine one, second
	if rec := ts.do("POST", "/inbound/mailgun/mime", ct, urlencoded(f), nil); rec.Code != 200 {
		t.Fatalf("the genuine post after the replay: %d %s", rec.Code, rec.Body)
	}
	if nh.n() != 2 || len(nh.notices) != 0 {
		t.Fatalf("handed over %d, set aside %d", nh.n(), len(nh.notices))
	}
	first, second := nh.calls[0], nh.calls[1]
	if !first.Unbound || !second.Unbound || string(second.Raw) != sampleMail || first.Keys[0] == second.Keys[0] {
		t.Errorf("handed over %v %v %q", first, second.Keys, second.Raw)
	}
}

// memAttempts is a durable attempt count as the store keeps it: it
// survives a "restart" (a new Server over the same counts).
type memAttempts struct {
	mu sync.Mutex
	n  map[string]int
}

func (m *memAttempts) BeginAttempt(key string) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n[key]++
	return m.n[key], nil
}

func (m *memAttempts) AttemptCount(key string) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.n[key], nil
}

func (m *memAttempts) EndAttempt(key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.n, key)
	return nil
}

// crashingHandler stands for a message that kills the process: the
// hand-over never returns (so the attempt is never ended), as when the
// process dies in it.
type crashingHandler struct {
	noticeHandler
	dead chan struct{}
}

func (c *crashingHandler) HandleMail(context.Context, mailin.Inbound) (referee.Outcome, error) {
	<-c.dead
	return referee.Outcome{}, errors.New("dead")
}

// TestPostedPoisonSetAsideAfterCrashes is issue 23's rule 2 for a posted
// message that kills the daemon: the attempt is recorded before each
// hand-over, so after MaxCrashes restarts the message is set aside (kept
// for the operator, its sender told) and answered "do not retry".
func TestPostedPoisonSetAsideAfterCrashes(t *testing.T) {
	att := &memAttempts{n: map[string]int{}}
	raw := []byte(sampleMail)
	dead := make(chan struct{})
	var srvs []*httptest.Server
	defer func() {
		close(dead) // the "dead" hand-overs return, the servers can close
		for _, s := range srvs {
			s.Close()
		}
	}()
	client := &http.Client{Timeout: 200 * time.Millisecond}
	for restart := 1; restart <= 3; restart++ {
		ts := newTestServer(t, func(o *Options) { o.Handler = &crashingHandler{dead: dead}; o.Attempts = att })
		srv := httptest.NewServer(ts.mux)
		srvs = append(srvs, srv)
		req, _ := http.NewRequest("POST", srv.URL+"/inbound", bytes.NewReader(raw))
		for k, v := range signed(rawSecret, ts.now, raw) {
			req.Header[k] = v
		}
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			t.Fatalf("restart %d: the crashing hand-over answered %d", restart, resp.StatusCode)
		}
		srv.CloseClientConnections()
	}
	nh := &noticeHandler{}
	ts := newTestServer(t, func(o *Options) { o.Handler = nh; o.Attempts = att })
	if rec := ts.do("POST", "/inbound", "message/rfc822", raw, signed(rawSecret, ts.now, raw)); rec.Code != 422 {
		t.Fatalf("after 3 crashes: %d %s", rec.Code, rec.Body)
	}
	if nh.n() != 0 || len(nh.notices) != 1 || nh.notices[0].Reason != "crashed" || string(nh.notices[0].Raw) != sampleMail {
		t.Fatalf("handed over %d times; notices %+v", nh.n(), nh.notices)
	}
	if len(att.n) != 0 {
		t.Errorf("attempts left on record: %v", att.n)
	}
}

// TestFailureCountSurvivesRestart is issue 23's durable failure count: a
// post that fails (an error or a panic) is set aside after MaxAttempts
// failures counted across restarts of the server, not per process (before,
// the count was in memory, so a daemon restarted more often than
// MaxAttempts retries kept answering 503 for ever). A success clears the
// count.
func TestFailureCountSurvivesRestart(t *testing.T) {
	for _, panics := range []bool{false, true} {
		att := &memAttempts{n: map[string]int{}}
		raw := []byte(sampleMail)
		var codes []int
		var notices int
		// Five servers in a row, one post each: one "process" each.
		for restart := 0; restart < DefaultMaxAttempts; restart++ {
			fh := &failingHandler{panics: panics}
			ts := newTestServer(t, func(o *Options) { o.Handler = fh; o.Attempts = att })
			codes = append(codes, ts.do("POST", "/inbound", "message/rfc822", raw, signed(rawSecret, ts.now, raw)).Code)
			notices += len(fh.notices)
		}
		if want := fmt.Sprint([]int{503, 503, 503, 503, 422}); fmt.Sprint(codes) != want || notices != 1 {
			t.Errorf("panics %v: answers over restarts %v (set aside %d), want %s and one set aside", panics, codes, notices, want)
		}
		if len(att.n) != 0 {
			t.Errorf("panics %v: counts left on record after the set-aside: %v", panics, att.n)
		}
	}
	// Two failures, a restart, then a success: the count is cleared.
	att := &memAttempts{n: map[string]int{}}
	raw := []byte(sampleMail)
	ts := newTestServer(t, func(o *Options) { o.Attempts = att })
	ts.h.set(referee.Outcome{}, errors.New("store busy"))
	for i := 0; i < 2; i++ {
		ts.do("POST", "/inbound", "message/rfc822", raw, signed(rawSecret, ts.now, raw))
	}
	ts = newTestServer(t, func(o *Options) { o.Attempts = att })
	if rec := ts.do("POST", "/inbound", "message/rfc822", raw, signed(rawSecret, ts.now, raw)); rec.Code != 200 || len(att.n) != 0 {
		t.Errorf("after a success: %d, counts on record %v", rec.Code, att.n)
	}
}
