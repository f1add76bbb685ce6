package webhook_test

import (
	"bufio"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/referee/edge/hookout"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/referee/wiring/config"
	"github.com/pbem-referee/referee/referee/wiring/daemon"
	"github.com/pbem-referee/referee/store"
)

// The daemon's wiring: the front door, the commands endpoint, /metrics and
// /healthz on its listener, the hook sender kicked after commits, and the
// metrics fed by the referee, the outbox sender and the hook sender.
func TestDaemonWiring(t *testing.T) {
	enginetest.RegisterToy()
	var mu sync.Mutex
	var calls []hookCall
	hooks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		calls = append(calls, hookCall{r.Header.Clone(), b})
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer hooks.Close()

	cfg := config.Default()
	cfg.Domain, cfg.DataDir, cfg.Organisers = "example.test", t.TempDir(), []string{olga}
	cfg.SMTP.Addr, cfg.SMTP.TLS = "127.0.0.1:1", "none" // nothing listens: every delivery is retried
	cfg.Webhook.Secret = config.Secret(rawKey)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.New(&cfg, daemon.Options{Listener: ln, NoSync: true,
		Logger: slog.New(slog.DiscardHandler), HookAllow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	if err != nil {
		t.Fatal(err)
	}
	defer testkit.Run(t, d.Run)()
	base := "http://" + ln.Addr().String()
	waitFor(t, "healthz", func() bool {
		resp, err := http.Get(base + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})

	secret, err := d.Referee.AddOrganiser(olga)
	if err != nil {
		t.Fatal(err)
	}
	e := &e2e{t: t, front: &httptest.Server{URL: base}, db: d.DB, ref: d.Referee}
	org := []byte("From: Olga <olga@example.test>\r\nTo: referee+org." + secret + "@example.test\r\nSubject: new\r\n" +
		"Message-ID: <d-org1@example.test>\r\nDate: Mon, 23 Nov 2026 08:00:00 +0000\r\n\r\n" +
		"NEW toy id=d1 rounds=1\r\nPLAYER ann@example.test Ann\r\nPLAYER bob@example.test Bob\r\n")
	if out := e.postRaw(org); out.Status != "applied" {
		t.Fatalf("organiser mail: %+v", out)
	}
	// A post without a key of its own is recorded under the key of its
	// bytes too, which its attempt's end rides on (issue 25: two commits
	// per post; TestPostedAttemptEndsInTheInputsCommit counts them).
	d.DB.View(func(tx *store.Tx) error {
		rec, ok, err := tx.Seen("msgid:<d-org1@example.test>")
		if !ok || err != nil || len(rec.Keys) != 2 || !strings.HasPrefix(rec.Keys[1], "webhook:") {
			t.Errorf("the organiser mail's record: %v %v %q", ok, err, rec.Keys)
		}
		return nil
	})
	if res, err := d.Referee.Organise(olga, "HOOK d1 "+hooks.URL+" discord moves"); err != nil || !strings.Contains(strings.Join(res, " "), "added") {
		t.Fatalf("HOOK: %v %v", res, err)
	}
	g := e.game("d1")
	for _, addr := range []string{ann, bob} {
		if code, r := e.command("d1", secretOf(g, addr), `{"text":"JOIN"}`); code != 200 || r.Status != "answered" {
			t.Fatalf("JOIN %s: %d %+v", addr, code, r)
		}
	}
	tok := e.token("d1")
	if code, r := e.command("d1", secretOf(g, ann), `{"text":"BID 2","state_token":`+strconv.Itoa(tok)+`}`); code != 200 || r.Status != "queued" {
		t.Fatalf("BID: %d %+v", code, r)
	}
	if code, r := e.command("d1", secretOf(g, bob), `{"text":"BID 4","state_token":`+strconv.Itoa(tok)+`}`); code != 200 || r.Status != "applied" {
		t.Fatalf("BID: %d %+v", code, r)
	}

	// A Discord call arrives, signed, once the bids are resolved.
	hookSecret := e.game("d1").Hooks[0].Secret
	waitFor(t, "the hook call", func() bool {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range calls {
			if strings.Contains(string(c.body), "toy.order") {
				var m struct{ Content string }
				if err := json.Unmarshal(c.body, &m); err != nil || m.Content == "" {
					t.Errorf("not a Discord body: %s", c.body)
				}
				if err := hookout.Verify(hookSecret, c.header, c.body, time.Now(), time.Minute); err != nil {
					t.Errorf("signature: %v", err)
				}
				return true
			}
		}
		return false
	})

	// The metrics moved.
	waitFor(t, "the metrics", func() bool {
		m := scrapeURL(t, base+"/metrics")
		return m[`referee_messages_in_total{source="webhook:raw",status="applied"}`] == 1 &&
			m[`referee_messages_in_total{source="webhook:commands",status="answered"}`] == 2 &&
			m[`referee_messages_in_total{source="webhook:commands",status="applied"}`] == 1 &&
			m[`referee_messages_in_total{source="webhook:commands",status="queued"}`] == 1 &&
			m[`referee_moves_applied_total`] >= 2 &&
			m[`referee_http_requests_total{code="200",route="POST /inbound"}`] == 1 &&
			m[`referee_http_requests_total{code="200",route="POST /games/{id}/commands"}`] == 4 &&
			m[`referee_hook_calls_total{outcome="sent"}`] >= 1 &&
			m[`referee_messages_out_total{outcome="retried"}`] >= 1 &&
			m[`referee_games{status="running"}`] == 1
	})
	if resp, err := http.Get(base + "/inbound"); err != nil || resp.StatusCode != 405 {
		t.Errorf("GET /inbound: %v %v", resp.StatusCode, err)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func scrapeURL(t *testing.T, url string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if v, err := strconv.ParseFloat(line[i+1:], 64); err == nil {
			out[line[:i]] = v
		}
	}
	return out
}

// GET /metrics on the public listener needs webhook.metrics_token when one
// is set (issue 11, item 9); without one only loopback clients are served.
func TestDaemonMetricsGuarded(t *testing.T) {
	cfg := config.Default()
	cfg.Domain, cfg.DataDir, cfg.Organisers = "example.test", t.TempDir(), []string{olga}
	cfg.SMTP.Addr, cfg.SMTP.TLS = "127.0.0.1:1", "none"
	cfg.Webhook.Secret = config.Secret(rawKey)
	cfg.Webhook.MetricsToken = config.Secret("metrics-token-0123")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.New(&cfg, daemon.Options{Listener: ln, NoSync: true,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer testkit.Run(t, d.Run)()
	url := "http://" + ln.Addr().String() + "/metrics"
	get := func(token string) int {
		req, _ := http.NewRequest("GET", url, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return -1
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	waitFor(t, "the listener", func() bool { return get("") > 0 })
	if c := get(""); c != http.StatusUnauthorized {
		t.Errorf("no token: %d", c)
	}
	if c := get("wrong"); c != http.StatusUnauthorized {
		t.Errorf("wrong token: %d", c)
	}
	if c := get("metrics-token-0123"); c != http.StatusOK {
		t.Errorf("the token: %d", c)
	}
}
