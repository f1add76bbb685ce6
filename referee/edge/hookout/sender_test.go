package hookout

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

const hookSecret = "abcdefghijklmnopabcdefghijklmnop"

func openStore(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "r.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Check(); err != nil {
			t.Errorf("store check: %v", err)
		}
		db.Close()
	})
	return db
}

func payload(t *testing.T, id string) []byte {
	t.Helper()
	b, err := json.Marshal(referee.HookPayload{ID: id, Game: "g1", Title: "Bid & Roll", Token: 7, Status: "running",
		Players: []string{"Ann", "Bob"}, Events: []engine.Event{{Type: "rolled", Seat: 0, Vis: engine.Public, Params: map[string]any{"die": 4}}},
		Lines: []string{"Ann rolled a 4."}, Waiting: []string{"Bob"}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func enqueue(t *testing.T, db *store.DB, url, format string, body []byte, created time.Time) uint64 {
	t.Helper()
	var id uint64
	var p referee.HookPayload
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatal(err)
	}
	err := db.Update(func(tx *store.Tx) error {
		var err error
		id, err = tx.Enqueue(referee.HooksQueue, store.Item{Key: p.ID, Game: "g1", Kind: "hook", To: url, Payload: body,
			Meta:    map[string]string{referee.MetaHookID: "h1", referee.MetaHookSecret: hookSecret, referee.MetaHookFormat: format},
			Created: created})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func item(t *testing.T, db *store.DB, id uint64) store.Item {
	t.Helper()
	var it store.Item
	if err := db.View(func(tx *store.Tx) error {
		var err error
		it, err = tx.QueueItem(referee.HooksQueue, id)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return it
}

// run starts a Sender and returns its results; the Sender stops at the end
// of the test (and must stop).
func run(t *testing.T, o Options) (*Sender, chan Result) {
	t.Helper()
	results := make(chan Result, 100)
	o.OnResult = func(r Result) { results <- r }
	if o.MinBackoff == 0 {
		o.MinBackoff, o.MaxBackoff = 20*time.Millisecond, 40*time.Millisecond
	}
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	testkit.Run(t, s.Run)
	return s, results
}

func next(t *testing.T, results chan Result) Result {
	t.Helper()
	select {
	case r := <-results:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("no result")
	}
	return Result{}
}

// A generic call: the payload as is, signed, with the documented headers,
// and the attempt recorded in the store before the request was made.
func TestDeliverGeneric(t *testing.T) {
	db := openStore(t)
	body := payload(t, "g1-h1-1")
	type seen struct {
		h         http.Header
		body      []byte
		attempts  int
		lastError string
	}
	got := make(chan seen, 1)
	var id uint64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		it := item(t, db, id)
		got <- seen{r.Header.Clone(), b, it.Attempts, it.LastError}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	id = enqueue(t, db, srv.URL+"/hook?x=1", "generic", body, time.Now())
	_, results := run(t, Options{Store: db, Allow: loopback})
	r := next(t, results)
	if r.Outcome != OutcomeSent || r.Status != 204 || r.Item.State != store.Sent {
		t.Fatalf("result %+v", r)
	}
	s := <-got
	if string(s.body) != string(body) {
		t.Errorf("body %s, want the payload %s", s.body, body)
	}
	// The first attempt of an item this process enqueued is presumed
	// (store.DB.TakeFresh) and recorded with its outcome, in one commit.
	if s.attempts != 0 || r.Item.Attempts != 1 {
		t.Errorf("during the call the store said attempts=%d, after it %d: the first attempt is recorded with its outcome", s.attempts, r.Item.Attempts)
	}
	if err := Verify(hookSecret, s.h, s.body, time.Now(), time.Minute); err != nil {
		t.Errorf("Verify: %v", err)
	}
	for k, want := range map[string]string{HeaderID: "g1-h1-1", HeaderHook: "h1", HeaderAttempt: "1",
		"Content-Type": "application/json", "User-Agent": DefaultUserAgent} {
		if v := s.h.Get(k); v != want {
			t.Errorf("%s = %q, want %q", k, v, want)
		}
	}
	if st := item(t, db, id); st.State != store.Sent || st.LastError != "" {
		t.Errorf("stored %+v", st)
	}
}

// 503, then 429 with Retry-After, then 200: the same id every time, the
// attempt number counting up, a fresh signature each time, and the
// Retry-After respected.
func TestRetryThenSuccess(t *testing.T) {
	db := openStore(t)
	var n atomic.Int32
	var mu sync.Mutex
	var ids, attempts []string
	var times []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if err := Verify(hookSecret, r.Header, b, time.Now(), time.Minute); err != nil {
			t.Errorf("attempt %d: %v", n.Load()+1, err)
		}
		mu.Lock()
		ids, attempts, times = append(ids, r.Header.Get(HeaderID)), append(attempts, r.Header.Get(HeaderAttempt)), append(times, time.Now())
		mu.Unlock()
		switch n.Add(1) {
		case 1:
			http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
		case 2:
			w.Header().Set("Retry-After", "0.4")
			http.Error(w, "slow down", http.StatusTooManyRequests)
		default:
			w.WriteHeader(http.StatusOK)
		}
	}))
	defer srv.Close()
	id := enqueue(t, db, srv.URL, "generic", payload(t, "g1-h1-2"), time.Now())
	_, results := run(t, Options{Store: db, Allow: loopback})
	r1 := next(t, results)
	if r1.Outcome != OutcomeRetry || r1.Status != 503 || !strings.Contains(r1.Item.LastError, "down for maintenance") {
		t.Fatalf("first: %+v", r1)
	}
	r2 := next(t, results)
	if r2.Outcome != OutcomeRetry || r2.Status != 429 {
		t.Fatalf("second: %+v", r2)
	}
	if d := r2.Item.Due.Sub(r2.Item.LastAttempt); d < 400*time.Millisecond {
		t.Errorf("due %v after the attempt, want at least the Retry-After 0.4s", d)
	}
	r3 := next(t, results)
	if r3.Outcome != OutcomeSent || r3.Item.Attempts != 3 {
		t.Fatalf("third: %+v", r3)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(ids, ",") != "g1-h1-2,g1-h1-2,g1-h1-2" || strings.Join(attempts, ",") != "1,2,3" {
		t.Errorf("ids %v attempts %v", ids, attempts)
	}
	if gap := times[2].Sub(times[1]); gap < 350*time.Millisecond {
		t.Errorf("third call %v after the 429, sooner than its Retry-After", gap)
	}
	if it := item(t, db, id); it.State != store.Sent {
		t.Errorf("state %s", it.State)
	}
}

// Other 4xx and redirects fail at once; they are recorded, never retried.
func TestPermanentFailures(t *testing.T) {
	for _, c := range []struct {
		code int
		want string
	}{{400, "HTTP 400: bad payload"}, {404, "HTTP 404"}, {410, "HTTP 410"}, {302, "redirects are not followed"}} {
		db := openStore(t)
		var calls atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			if c.code == 302 {
				http.Redirect(w, r, "http://169.254.169.254/latest/meta-data", http.StatusFound)
				return
			}
			http.Error(w, "bad payload", c.code)
		}))
		id := enqueue(t, db, srv.URL, "generic", payload(t, "g1-h1-9"), time.Now())
		_, results := run(t, Options{Store: db, Allow: loopback})
		r := next(t, results)
		if r.Outcome != OutcomeFailed || r.Status != c.code || r.GaveUp {
			t.Errorf("%d: result %+v", c.code, r)
		}
		it := item(t, db, id)
		if it.State != store.Failed || !strings.Contains(it.LastError, c.want) {
			t.Errorf("%d: stored state %s error %q, want failed with %q", c.code, it.State, it.LastError, c.want)
		}
		time.Sleep(100 * time.Millisecond)
		if n := calls.Load(); n != 1 {
			t.Errorf("%d: %d calls, want 1", c.code, n)
		}
		srv.Close()
	}
}

// A transient failure of a call older than GiveUpAfter retires it.
func TestGiveUp(t *testing.T) {
	db := openStore(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
	}))
	defer srv.Close()
	id := enqueue(t, db, srv.URL, "generic", payload(t, "g1-h1-4"), time.Now().Add(-25*time.Hour))
	_, results := run(t, Options{Store: db, Allow: loopback, GiveUpAfter: 24 * time.Hour})
	r := next(t, results)
	if r.Outcome != OutcomeFailed || !r.GaveUp {
		t.Fatalf("result %+v", r)
	}
	if it := item(t, db, id); it.State != store.Failed || !strings.HasPrefix(it.LastError, "gave up after") {
		t.Errorf("stored %s %q", it.State, it.LastError)
	}
}

// A connection refused is transient.
func TestNetworkErrorRetried(t *testing.T) {
	db := openStore(t)
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	enqueue(t, db, url+"/secret-token-in-path", "generic", payload(t, "g1-h1-5"), time.Now())
	_, results := run(t, Options{Store: db, Allow: loopback, MinBackoff: time.Hour, MaxBackoff: time.Hour})
	r := next(t, results)
	if r.Outcome != OutcomeRetry || r.Status != 0 || r.Item.State != store.Pending {
		t.Fatalf("result %+v", r)
	}
	if d := r.Item.Due.Sub(r.Item.LastAttempt); d < 30*time.Minute {
		t.Errorf("next attempt in %v, want the backoff (30m..1h)", d)
	}
	if strings.Contains(r.Item.LastError, "secret-token-in-path") {
		t.Errorf("the stored error reveals the URL path: %q", r.Item.LastError)
	}
}

// Without Allow, a hook aimed at the referee's own network is refused
// before any connection, and recorded as failed.
func TestInternalAddressRefused(t *testing.T) {
	db := openStore(t)
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
	defer srv.Close()
	host := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) // a name resolving to loopback
	a := enqueue(t, db, srv.URL, "generic", payload(t, "g1-h1-6"), time.Now())
	b := enqueue(t, db, host, "generic", payload(t, "g1-h1-7"), time.Now())
	_, results := run(t, Options{Store: db})
	for range 2 {
		r := next(t, results)
		if r.Outcome != OutcomeFailed || !errors.Is(r.Err, ErrBlocked) && !strings.Contains(r.Item.LastError, "not allowed") {
			t.Errorf("result %+v", r)
		}
	}
	for _, id := range []uint64{a, b} {
		if it := item(t, db, id); it.State != store.Failed || !strings.Contains(it.LastError, "not allowed") {
			t.Errorf("item %d: %s %q", id, it.State, it.LastError)
		}
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("the internal server was called %d times", n)
	}
}

func TestInternal(t *testing.T) {
	for a, want := range map[string]bool{
		"127.0.0.1": true, "10.1.2.3": true, "172.16.0.1": true, "172.31.255.255": true, "192.168.1.1": true,
		"169.254.169.254": true, "100.64.0.1": true, "0.0.0.0": true, "0.1.2.3": true, "224.0.0.1": true,
		"255.255.255.255": true, "198.18.0.1": true, "::1": true, "::": true, "fe80::1": true, "fc00::1": true,
		"fd12:3456::1": true, "::ffff:127.0.0.1": true, "::ffff:10.0.0.1": true, "64:ff9b::a00:1": true,
		"2002:c0a8:101::1": true, "ff02::1": true,
		"8.8.8.8": false, "1.1.1.1": false, "172.32.0.1": false, "162.159.135.232": false, "2606:4700::1111": false,
		"::ffff:8.8.8.8": false, "64:ff9b::808:808": false, "2002:808:808::1": false,
	} {
		if got := Internal(netip.MustParseAddr(a)); got != want {
			t.Errorf("Internal(%s) = %v, want %v", a, got, want)
		}
	}
	g := guard{allow: loopback}
	if err := g.check(netip.MustParseAddr("127.0.0.1")); err != nil {
		t.Errorf("allowed loopback refused: %v", err)
	}
	if err := g.check(netip.MustParseAddr("10.0.0.1")); !errors.Is(err, ErrBlocked) {
		t.Errorf("10.0.0.1 with loopback allowed: %v", err)
	}
}

// A Discord hook gets {"content": ...} with mentions disabled.
func TestDeliverDiscord(t *testing.T) {
	db := openStore(t)
	got := make(chan []byte, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if err := Verify(hookSecret, r.Header, b, time.Now(), time.Minute); err != nil {
			t.Errorf("Verify the Discord body: %v", err)
		}
		got <- b
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	enqueue(t, db, srv.URL+"/api/webhooks/1/tok", "discord", payload(t, "g1-h1-8"), time.Now())
	_, results := run(t, Options{Store: db, Allow: loopback})
	if r := next(t, results); r.Outcome != OutcomeSent {
		t.Fatalf("result %+v", r)
	}
	var m struct {
		Content         string `json:"content"`
		AllowedMentions struct {
			Parse []string `json:"parse"`
		} `json:"allowed_mentions"`
	}
	b := <-got
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	want := "**Bid & Roll** · g1 · running\nAnn rolled a 4.\nWaiting for: Bob"
	if m.Content != want {
		t.Errorf("content %q, want %q", m.Content, want)
	}
	if !strings.Contains(string(b), `"allowed_mentions":{"parse":[]}`) {
		t.Errorf("mentions not disabled: %s", b)
	}
}

func TestDiscordContentLimit(t *testing.T) {
	p := referee.HookPayload{Game: "g1", Title: "Bid & Roll", Status: "over", Players: []string{"Ann", "Bob"}}
	for i := range 100 {
		p.Lines = append(p.Lines, strings.Repeat("é", 30)+" line "+string(rune('a'+i%26)))
	}
	p.Result = &engine.Result{Scores: []engine.Score{{Seat: 0, Total: 12}, {Seat: 1, Total: 15}}, Rank: []int{2, 1}}
	c := DiscordContent(p)
	if n := len([]rune(c)); n > DiscordLimit {
		t.Fatalf("%d characters", n)
	}
	// 100 lines of 37 characters and the result after a 26-character
	// title: 51 lines fit with the note, so 50 are not shown (49 lines and
	// the result), and the 52nd line is not cut (too little room left).
	if !strings.HasSuffix(c, "\n… 50 more lines not shown") {
		t.Errorf("content does not end with the note: ...%q", c[len(c)-60:])
	}
	// Short enough: everything, with the ranking.
	p.Lines = p.Lines[:3]
	c = DiscordContent(p)
	if !strings.HasSuffix(c, "\nResult: 1. Bob 15 · 2. Ann 12") || strings.Contains(c, "not shown") {
		t.Errorf("content %q", c)
	}
	// One enormous line is cut, not dropped.
	p.Lines = []string{strings.Repeat("x", 5000), "after"}
	p.Result = nil
	c = DiscordContent(p)
	if n := len([]rune(c)); n > DiscordLimit || !strings.Contains(c, "xxx…\n… 1 more line not shown") {
		t.Errorf("%d characters: ...%q", n, c[len(c)-60:])
	}
}

// On shutdown, a call in progress gets the grace period, is then aborted,
// and stays queued for a later attempt.
func TestShutdownAbortsHangingCall(t *testing.T) {
	db := openStore(t)
	entered := make(chan struct{})
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	id := enqueue(t, db, srv.URL, "generic", payload(t, "g1-h1-10"), time.Now())
	s, err := New(Options{Store: db, Allow: loopback, ShutdownGrace: 50 * time.Millisecond, MinBackoff: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	<-entered
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not stop")
	}
	it := item(t, db, id)
	if it.State != store.Pending || it.Attempts != 1 || it.LastError == "attempt in progress" {
		t.Errorf("after shutdown: %+v", it)
	}
	if st := s.Stats(); st.Retried != 1 || st.InFlight != 0 {
		t.Errorf("stats %+v", st)
	}
}

// Retired calls past their retention are pruned when the Sender starts.
func TestPrune(t *testing.T) {
	db := openStore(t)
	id := enqueue(t, db, "https://example.test/h", "generic", payload(t, "g1-h1-11"), time.Now())
	if err := db.Update(func(tx *store.Tx) error {
		_, err := tx.Finish(referee.HooksQueue, id, store.Sent, time.Now(), time.Now().Add(-time.Second), "")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	s, _ := New(Options{Store: db})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if err := s.Run(ctx); err != nil { // Run prunes as it starts
		t.Fatal(err)
	}
	if err := db.View(func(tx *store.Tx) error {
		_, err := tx.QueueItem(referee.HooksQueue, id)
		return err
	}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("retired item still there: %v", err)
	}
}

func TestBadItemsFailPermanently(t *testing.T) {
	db := openStore(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("a bad item was sent")
	}))
	defer srv.Close()
	enqueue(t, db, "ftp://example.test/x", "generic", payload(t, "g1-h1-12"), time.Now())
	enqueue(t, db, srv.URL, "slack", payload(t, "g1-h1-13"), time.Now())
	if err := db.Update(func(tx *store.Tx) error {
		_, err := tx.Enqueue(referee.HooksQueue, store.Item{Key: "k", To: srv.URL, Payload: []byte("{}"), Created: time.Now()})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	_, results := run(t, Options{Store: db, Allow: loopback})
	reasons := map[string]bool{}
	for range 3 {
		r := next(t, results)
		if r.Outcome != OutcomeFailed {
			t.Errorf("%+v", r)
		}
		reasons[r.Item.LastError] = true
	}
	for _, w := range []string{"not an http(s) URL", `unknown hook format "slack"`, "no signing secret"} {
		if !reasons[w] {
			t.Errorf("no failure %q in %v", w, reasons)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"": 0, "2": 2 * time.Second, "0.25": 250 * time.Millisecond, "junk": 0, "-3": 0,
		"Fri, 02 Jan 2026 03:05:05 GMT": time.Minute, "Fri, 02 Jan 2026 03:00:00 GMT": 0, "999999999": maxRetryAfter,
	} {
		if got := retryAfter(v, now); got != want {
			t.Errorf("retryAfter(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestBackoff(t *testing.T) {
	for _, c := range []struct {
		n      int
		r      float64
		lo, hi time.Duration
		want   time.Duration
	}{
		{1, 0, time.Second, time.Hour, 500 * time.Millisecond},
		{1, 0.999999, time.Second, time.Hour, time.Second - time.Microsecond/2},
		{3, 0, time.Second, time.Hour, 2 * time.Second},
		{30, 0, time.Second, time.Hour, 30 * time.Minute},
	} {
		if got := Backoff(c.n, c.lo, c.hi, c.r); got.Round(time.Millisecond) != c.want.Round(time.Millisecond) {
			t.Errorf("Backoff(%d, %v) = %v, want %v", c.n, c.r, got, c.want)
		}
	}
}
