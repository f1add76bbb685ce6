package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/store"
)

// fakeProcessor records requests and answers a set outcome; the seat and
// state questions go to a real referee over the test's store.
type fakeProcessor struct {
	*referee.Referee
	mu   sync.Mutex
	reqs []referee.Request
	out  referee.Outcome
	err  error
}

func (f *fakeProcessor) Process(_ context.Context, req referee.Request) (referee.Outcome, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, req)
	return f.out, f.err
}

// commandServer serves a store with game g1 (seats ann, bob; bob's old
// secret revoked) and game g2.
func commandServer(t *testing.T) (*http.ServeMux, *fakeProcessor) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "r.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	g1 := referee.Game{ID: "g1", Game: "toy", Status: referee.StatusRunning, Seats: []referee.Seat{
		{Name: "Ann", Address: "ann@example.test", Secret: "annsecretannsecr"},
		{Name: "Bob", Address: "Bob@Example.test", Secret: "bobsecretbobsecr"}},
		Table: json.RawMessage(`{"game":"toy","state":{"head":{"game":"toy","moves":57}}}`)}
	g2 := referee.Game{ID: "g2", Game: "toy", Status: referee.StatusForming, Seats: []referee.Seat{
		{Name: "Cy", Address: "cy@example.test", Secret: "cysecretcysecret"}}}
	err = db.Update(func(tx *store.Tx) error {
		for _, g := range []referee.Game{g1, g2} {
			b, _ := json.Marshal(g)
			if err := tx.PutGame(g.ID, b); err != nil {
				return err
			}
		}
		for s, tok := range map[string]store.Token{
			"annsecretannsecr": {Kind: "seat", Game: "g1", Seat: 0, Address: "ann@example.test"},
			"bobsecretbobsecr": {Kind: "seat", Game: "g1", Seat: 1, Address: "bob@example.test"},
			"bobOLDsecretbobo": {Kind: "seat", Game: "g1", Seat: 1, Address: "bob@example.test"},
			"cysecretcysecret": {Kind: "seat", Game: "g2", Seat: 0, Address: "cy@example.test"},
			"playersecretplay": {Kind: "player", Address: "ann@example.test"},
		} {
			if err := tx.PutToken(s, tok); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := referee.New(referee.Options{DB: db, Domain: "example.test", Compose: referee.Composer(mailmsg.Address{Addr: "referee@example.test"})})
	if err != nil {
		t.Fatal(err)
	}
	p := &fakeProcessor{Referee: ref, out: referee.Outcome{Status: "applied", Game: "g1", Seat: 0, Replies: []string{"<r1@example.test>"},
		StateToken: 57, Started: true}} // the state token as the request's own transaction left it
	s, err := New(Options{Processor: p, MaxCommandBytes: 1024,
		Now: func() time.Time { return time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	s.Register(mux)
	return mux, p
}

func post(mux http.Handler, path, token, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", path, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	return rec
}

func TestCommandsAccepted(t *testing.T) {
	mux, p := commandServer(t)
	rec := post(mux, "/games/g1/commands", "annsecretannsecr", `{"seat":0,"text":"BID 3\nAUTOHOLD 9","state_token":57,"message_id":"bot-1"}`)
	if rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	resp := decode[CommandResponse](t, rec)
	if resp.Status != "applied" || resp.Game != "g1" || resp.Seat != 0 || len(resp.Replies) != 1 || resp.StateToken == nil || *resp.StateToken != 57 {
		t.Errorf("answer %s", rec.Body)
	}
	req := p.reqs[0]
	if req.Kind != "seat" || req.Game != "g1" || req.Seat != 0 || req.Secret != "annsecretannsecr" || req.Token != 57 ||
		req.Text != "BID 3\nAUTOHOLD 9" || req.From != "ann@example.test" || !req.SenderVerified ||
		req.Source != "webhook:commands" || req.MessageID != "" || strings.Join(req.Keys, ",") != "cmd:g1/ann@example.test/bot-1" {
		t.Errorf("request %+v", req)
	}
	// Without seat, token or id: the digest is the key, stable for the same
	// commands on the same state.
	post(mux, "/games/g1/commands", "bobsecretbobsecr", `{"text":"HOLD"}`)
	post(mux, "/games/g1/commands", "bobsecretbobsecr", `{ "text" : "HOLD" }`)
	post(mux, "/games/g1/commands", "bobsecretbobsecr", `{"text":"HOLD","state_token":58}`)
	a, b, c := p.reqs[1], p.reqs[2], p.reqs[3]
	if a.Seat != 1 || a.From != "Bob@Example.test" || a.Token != -1 || a.Keys[0] != b.Keys[0] || a.Keys[0] == c.Keys[0] ||
		!strings.HasPrefix(a.Keys[0], "cmd:g1/bob@example.test/sha256:") {
		t.Errorf("keys %v %v %v, seat %d from %s token %d", a.Keys, b.Keys, c.Keys, a.Seat, a.From, a.Token)
	}
	// A real Message-ID as the client id threads the reply.
	post(mux, "/games/g1/commands", "annsecretannsecr", `{"text":"HOLD","message_id":"<chat-9@bridge.example>"}`)
	if r := p.reqs[4]; r.MessageID != "<chat-9@bridge.example>" {
		t.Errorf("message id %q", r.MessageID)
	}
	// A game not started has no state token: the outcome says so.
	p.out = referee.Outcome{Status: "answered", Game: "g2", Seat: 0}
	if rec := post(mux, "/games/g2/commands", "cysecretcysecret", `{"text":"JOIN"}`); decode[CommandResponse](t, rec).StateToken != nil {
		t.Errorf("state token before the start: %s", rec.Body)
	}
}

func TestCommandsOutcomes(t *testing.T) {
	mux, p := commandServer(t)
	for _, c := range []struct {
		out  referee.Outcome
		err  error
		code int
	}{
		{referee.Outcome{Status: "answered"}, nil, 200},
		{referee.Outcome{Status: "duplicate", Detail: "already processed: applied"}, nil, 200},
		{referee.Outcome{Status: "rejected", Detail: "an order was refused; nothing applied"}, nil, 422},
		{referee.Outcome{Status: "ignored", Reason: referee.ReasonRateLimited, Detail: "rate limit for ann@example.test"}, nil, 429},
		{referee.Outcome{Status: "ignored", Detail: "rate limit for ann@example.test"}, nil, 403}, // the words are for the log: never parsed
		{referee.Outcome{Status: "ignored", Detail: "token no longer valid"}, nil, 403},
		{referee.Outcome{}, errors.New("store: timeout"), 503},
	} {
		p.out, p.err = c.out, c.err
		rec := post(mux, "/games/g1/commands", "annsecretannsecr", `{"text":"ROLL"}`)
		if rec.Code != c.code {
			t.Errorf("%q: %d, want %d", c.out.Status, rec.Code, c.code)
		}
		if c.err == nil {
			if r := decode[CommandResponse](t, rec); r.Status != string(c.out.Status) || r.Detail != c.out.Detail {
				t.Errorf("answer %s", rec.Body)
			}
		} else if strings.Contains(rec.Body.String(), "timeout") {
			t.Errorf("the internal error leaks: %s", rec.Body)
		}
	}
}

func TestCommandsRefused(t *testing.T) {
	mux, p := commandServer(t)
	long := `{"text":"` + strings.Repeat("ROLL\\n", 300) + `"}`
	cases := []struct {
		name, path, token, body string
		code                    int
	}{
		{"no token", "/games/g1/commands", "", `{"text":"ROLL"}`, 401},
		{"unknown token", "/games/g1/commands", "nosuchtokenxxxxx", `{"text":"ROLL"}`, 401},
		{"another game's token", "/games/g1/commands", "cysecretcysecret", `{"text":"ROLL"}`, 401},
		{"a player token", "/games/g1/commands", "playersecretplay", `{"text":"ROLL"}`, 401},
		{"a replaced secret", "/games/g1/commands", "bobOLDsecretbobo", `{"text":"ROLL"}`, 401},
		{"unknown game", "/games/zz/commands", "annsecretannsecr", `{"text":"ROLL"}`, 401},
		{"another seat", "/games/g1/commands", "annsecretannsecr", `{"seat":1,"text":"ROLL"}`, 403},
		{"bad JSON", "/games/g1/commands", "annsecretannsecr", `{"text":`, 400},
		{"unknown field", "/games/g1/commands", "annsecretannsecr", `{"txt":"ROLL"}`, 400},
		{"two objects", "/games/g1/commands", "annsecretannsecr", `{"text":"ROLL"}{"text":"HOLD"}`, 400},
		{"no commands", "/games/g1/commands", "annsecretannsecr", `{"text":"  \n"}`, 400},
		{"wrong type", "/games/g1/commands", "annsecretannsecr", `{"text":"ROLL","state_token":"57"}`, 400},
		{"too large", "/games/g1/commands", "annsecretannsecr", long, 413},
	}
	for _, c := range cases {
		rec := post(mux, c.path, c.token, c.body)
		if rec.Code != c.code {
			t.Errorf("%s: %d, want %d (%s)", c.name, rec.Code, c.code, rec.Body)
		}
		if e := decode[errorBody](t, rec); e.Error == "" {
			t.Errorf("%s: no error message", c.name)
		}
		if c.code == 401 && rec.Header().Get("WWW-Authenticate") == "" {
			t.Errorf("%s: no challenge", c.name)
		}
	}
	// Issue 23: an unknown game answers exactly as a bad token does, so
	// that the endpoint does not tell which games exist.
	unknownGame, badToken := post(mux, "/games/zz/commands", "annsecretannsecr", `{"text":"ROLL"}`),
		post(mux, "/games/g1/commands", "nosuchtokenxxxxx", `{"text":"ROLL"}`)
	if unknownGame.Code != badToken.Code || unknownGame.Body.String() != badToken.Body.String() ||
		unknownGame.Header().Get("WWW-Authenticate") != badToken.Header().Get("WWW-Authenticate") {
		t.Errorf("unknown game %d %q, bad token %d %q", unknownGame.Code, unknownGame.Body, badToken.Code, badToken.Body)
	}
	req := httptest.NewRequest("GET", "/games/g1/commands", nil)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	if rec.Code != 405 {
		t.Errorf("GET: %d", rec.Code)
	}
	req = httptest.NewRequest("POST", "/games/g1/commands", bytes.NewReader([]byte(`{"text":"ROLL"}`)))
	req.Header.Set("Authorization", "Basic "+"YW5uOnNlY3JldA==")
	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	if rec.Code != 401 {
		t.Errorf("Basic instead of Bearer: %d", rec.Code)
	}
	if len(p.reqs) != 0 {
		t.Errorf("%d refused requests reached the referee", len(p.reqs))
	}
}
