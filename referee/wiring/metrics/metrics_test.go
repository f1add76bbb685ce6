package metrics

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/hookout"
	"github.com/pbem-referee/referee/referee/edge/imapin"
	"github.com/pbem-referee/referee/referee/edge/smtpout"
	"github.com/pbem-referee/referee/store"
)

// scrape fetches /metrics and returns the samples by series
// ("name{label="value",...}").
func scrape(t *testing.T, h http.Handler) map[string]float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("scrape: %d %s", rec.Code, rec.Body)
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Fatalf("content type %q, want the text format", ct)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(rec.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("bad sample line %q", line)
		}
		out[line[:i]] = v
	}
	return out
}

func want(t *testing.T, got map[string]float64, series map[string]float64) {
	t.Helper()
	for s, v := range series {
		g, ok := got[s]
		if !ok {
			t.Errorf("no series %s", s)
		} else if g != v {
			t.Errorf("%s = %v, want %v", s, g, v)
		}
	}
}

// newReferee is the referee over a test's store: the metrics ask it.
func newReferee(t *testing.T, db *store.DB) *referee.Referee {
	t.Helper()
	r, err := referee.New(referee.Options{DB: db, Domain: "example.test", Compose: referee.Composer(mailmsg.Address{Addr: "referee@example.test"})})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestMetrics(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "r.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	add := func(q string, n int) {
		t.Helper()
		if err := db.Update(func(tx *store.Tx) error {
			for range n {
				if _, err := tx.Enqueue(q, store.Item{Key: "k", To: "x", Created: time.Now()}); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	putGame := func(id, status string) {
		t.Helper()
		// As the referee's records layer saves a game: the record and what
		// the game indexes know of it (the counts by status come from them).
		if err := db.Update(func(tx *store.Tx) error {
			if err := tx.PutGame(id, []byte(`{"id":"`+id+`","status":"`+status+`","seats":[]}`)); err != nil {
				return err
			}
			return tx.IndexGame(id, store.GameIndex{Status: status})
		}); err != nil {
			t.Fatal(err)
		}
	}
	add(referee.OutboxQueue, 2)
	add(referee.HooksQueue, 1)
	putGame("a", referee.StatusRunning)
	putGame("b", referee.StatusRunning)
	putGame("c", referee.StatusOver)

	m := New(nil)
	m.WatchStore(newReferee(t, db), time.Nanosecond, referee.OutboxQueue, referee.HooksQueue)
	var handled atomic.Uint64
	m.WatchIMAP(func() imapin.Stats {
		return imapin.Stats{Handled: handled.Load(), Duplicates: 1, Quarantined: 2, Transient: 3, Reconnects: 4,
			Connected: true, LastSync: time.Unix(1_800_000_000, 0)}
	})
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	mux.Handle("POST /inbound", m.Instrument("POST /inbound", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			w.WriteHeader(http.StatusUnauthorized)
		}
	})))

	m.Observe(referee.Observation{Source: "imap", Status: "applied", Duration: 3 * time.Millisecond, Moves: 2, Mails: 3})
	m.Observe(referee.Observation{Source: "imap", Status: "applied", Duration: time.Millisecond, Moves: 1, Mails: 1, Hooks: 1})
	m.Observe(referee.Observation{Source: "webhook:mailgun", Status: "duplicate", Duration: time.Millisecond})
	m.Observe(referee.Observation{Source: "tick", Status: "applied", Duration: time.Millisecond, Moves: 1, Mails: 2})
	m.MailResult(smtpout.Result{Outcome: smtpout.OutcomeSent, Duration: 50 * time.Millisecond, Latency: 2 * time.Second})
	m.MailResult(smtpout.Result{Outcome: smtpout.OutcomeRetry, Duration: time.Second})
	m.MailResult(smtpout.Result{Outcome: smtpout.OutcomeFailed, GaveUp: true, Duration: time.Second})
	m.HookResult(hookout.Result{Outcome: hookout.OutcomeSent, Duration: 20 * time.Millisecond})
	m.HookResult(hookout.Result{Outcome: hookout.OutcomeFailed, Duration: 20 * time.Millisecond})
	for _, auth := range []string{"", "", "Bearer x"} {
		req := httptest.NewRequest("POST", "/inbound", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		mux.ServeHTTP(httptest.NewRecorder(), req)
	}
	handled.Store(5)

	got := scrape(t, mux)
	want(t, got, map[string]float64{
		`referee_messages_in_total{source="imap",status="applied"}`:              2,
		`referee_messages_in_total{source="webhook:mailgun",status="duplicate"}`: 1,
		`referee_ticks_total{status="applied"}`:                                  1,
		`referee_moves_applied_total`:                                            4,
		`referee_mails_queued_total`:                                             6,
		`referee_hook_calls_queued_total`:                                        1,
		`referee_processing_seconds_count{source="imap"}`:                        2,
		`referee_processing_seconds_count{source="tick"}`:                        1,
		`referee_processing_seconds_bucket{source="imap",le="+Inf"}`:             2,
		`referee_messages_out_total{outcome="sent"}`:                             1,
		`referee_messages_out_total{outcome="retried"}`:                          1,
		`referee_messages_out_total{outcome="failed"}`:                           1,
		`referee_smtp_attempt_seconds_count{outcome="retried"}`:                  1,
		`referee_mail_delivery_latency_seconds_count`:                            1,
		`referee_mail_delivery_latency_seconds_sum`:                              2,
		`referee_hook_calls_total{outcome="sent"}`:                               1,
		`referee_hook_calls_total{outcome="failed"}`:                             1,
		`referee_hook_attempt_seconds_count{outcome="sent"}`:                     1,
		`referee_delivery_failures_total{channel="mail",reason="gave_up"}`:       1,
		`referee_delivery_failures_total{channel="hook",reason="permanent"}`:     1,
		`referee_queue_depth{queue="outbox"}`:                                    2,
		`referee_queue_depth{queue="hooks"}`:                                     1,
		`referee_games{status="running"}`:                                        2,
		`referee_games{status="over"}`:                                           1,
		`referee_games{status="paused"}`:                                         0,
		`referee_imap_messages_total{result="handled"}`:                          5,
		`referee_imap_messages_total{result="quarantined"}`:                      2,
		`referee_imap_reconnects_total`:                                          4,
		`referee_imap_connected`:                                                 1,
		`referee_imap_last_sync_timestamp_seconds`:                               1.8e9,
		`referee_http_requests_total{code="401",route="POST /inbound"}`:          2,
		`referee_http_requests_total{code="200",route="POST /inbound"}`:          1,
		`referee_http_request_seconds_count{route="POST /inbound"}`:              3,
		`referee_store_sample_errors_total`:                                      0,
	})
	if _, ok := got["go_goroutines"]; !ok {
		t.Error("no Go runtime metrics")
	}
	if got[`referee_processing_seconds_bucket{source="imap",le="0.00125"}`] != 1 {
		t.Errorf("the 1 ms observation is not in the 1.25 ms bucket: %v", got[`referee_processing_seconds_bucket{source="imap",le="0.00125"}`])
	}

	// The series move.
	m.Observe(referee.Observation{Source: "imap", Status: "applied", Moves: 3})
	add(referee.OutboxQueue, 3)
	putGame("c", referee.StatusAborted)
	handled.Store(9)
	got = scrape(t, mux)
	want(t, got, map[string]float64{
		`referee_messages_in_total{source="imap",status="applied"}`: 3,
		`referee_moves_applied_total`:                               7,
		`referee_queue_depth{queue="outbox"}`:                       5,
		`referee_games{status="over"}`:                              0,
		`referee_games{status="aborted"}`:                           1,
		`referee_imap_messages_total{result="handled"}`:             9,
	})
}

// Between two samples a scrape gets the last sample, so a busy store is
// read at most once per interval.
func TestStoreSampleCached(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "r.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := New(nil)
	m.WatchStore(newReferee(t, db), time.Hour, referee.OutboxQueue)
	if got := scrape(t, m.Handler())[`referee_queue_depth{queue="outbox"}`]; got != 0 {
		t.Fatalf("depth %v", got)
	}
	if err := db.Update(func(tx *store.Tx) error {
		_, err := tx.Enqueue(referee.OutboxQueue, store.Item{Key: "k", Created: time.Now()})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got := scrape(t, m.Handler())[`referee_queue_depth{queue="outbox"}`]; got != 0 {
		t.Errorf("depth %v within the interval, want the cached 0", got)
	}
}
