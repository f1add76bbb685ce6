package webhook_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/hookout"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/edge/webhook"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

const (
	olga      = "olga@example.test"
	orgSecret = "orgsecretorgsecret"
	ann       = "ann@example.test"
	bob       = "bob@example.test"
	rawKey    = "front-door-secret-0123"
)

// hookCall is one call received by the organiser's hook endpoint.
type hookCall struct {
	header http.Header
	body   []byte
}

// e2e is a real referee on a temp store behind the front door, with the
// hook sender delivering to an httptest receiver.
type e2e struct {
	t     *testing.T
	db    *store.DB
	ref   *referee.Referee
	front *httptest.Server
	hooks *httptest.Server

	mu    sync.Mutex
	calls []hookCall
	obs   []referee.Observation
}

func newE2E(t *testing.T) *e2e {
	t.Helper()
	enginetest.RegisterToy()
	e := &e2e{t: t}
	db, err := store.Open(filepath.Join(t.TempDir(), "r.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	e.db = db
	e.hooks = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		e.mu.Lock()
		e.calls = append(e.calls, hookCall{r.Header.Clone(), b})
		e.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	sender, err := hookout.New(hookout.Options{Store: db, Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	e.ref, err = referee.New(referee.Options{DB: db, Domain: "example.test", Organisers: map[string]string{olga: orgSecret},
		Compose: referee.Composer(mailmsg.Address{Name: "Referee", Addr: "referee@example.test"}), Kick: sender.Kick,
		Observe: func(o referee.Observation) {
			e.mu.Lock()
			e.obs = append(e.obs, o)
			e.mu.Unlock()
		}})
	if err != nil {
		t.Fatal(err)
	}
	front, err := webhook.New(webhook.Options{Handler: mailin.New(e.ref, mailin.Options{}), Processor: e.ref, Replay: e.ref, Secret: rawKey})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	front.Register(mux)
	e.front = httptest.NewServer(mux)
	stopSender := testkit.Run(t, sender.Run)
	t.Cleanup(func() {
		e.front.Close()
		stopSender()
		e.hooks.Close()
		if err := db.Check(); err != nil {
			t.Errorf("store check: %v", err)
		}
		db.Close()
	})
	return e
}

// postRaw posts a raw mail to /inbound, signed.
func (e *e2e) postRaw(raw []byte) referee.Outcome {
	e.t.Helper()
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	req, _ := http.NewRequest("POST", e.front.URL+"/inbound", bytes.NewReader(raw))
	req.Header.Set("Content-Type", "message/rfc822")
	req.Header.Set(hookout.HeaderTimestamp, ts)
	req.Header.Set(hookout.HeaderSignature, hookout.Sign(rawKey, ts, raw))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		e.t.Fatalf("POST /inbound: %d %s", resp.StatusCode, b)
	}
	var out referee.Outcome
	if err := json.Unmarshal(b, &out); err != nil {
		e.t.Fatal(err)
	}
	return out
}

// command posts to /games/{id}/commands.
func (e *e2e) command(game, secret, body string) (int, webhook.CommandResponse) {
	e.t.Helper()
	req, _ := http.NewRequest("POST", e.front.URL+"/games/"+game+"/commands", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+secret)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out webhook.CommandResponse
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &out); err != nil {
		e.t.Fatalf("answer %d %s", resp.StatusCode, b)
	}
	return resp.StatusCode, out
}

// inbox returns the mails queued since the last call, by recipient.
func (e *e2e) inbox() map[string][][]byte {
	e.t.Helper()
	out := map[string][][]byte{}
	err := e.db.Update(func(tx *store.Tx) error {
		due, err := tx.Due(referee.OutboxQueue, time.Now().Add(1000*time.Hour), 0)
		if err != nil {
			return err
		}
		for _, it := range due {
			out[it.To] = append(out[it.To], it.Payload)
			if _, err := tx.Finish(referee.OutboxQueue, it.ID, store.Sent, time.Now(), time.Now(), ""); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

// reply builds a player's reply to a referee mail.
func (e *e2e) reply(orig []byte, from, text string, n int) []byte {
	e.t.Helper()
	m, err := mailmsg.Parse(orig, mailmsg.Options{})
	if err != nil {
		e.t.Fatal(err)
	}
	return []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <reply%d@players.test>\r\nIn-Reply-To: %s\r\n"+
		"Date: Mon, 23 Nov 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		from, m.ReplyTo[0].Addr, m.Subject, n, m.MessageID, text))
}

func (e *e2e) game(id string) *referee.Game {
	e.t.Helper()
	g, err := e.ref.GameRecord(id)
	if err != nil {
		e.t.Fatal(err)
	}
	return g
}

func (e *e2e) token(id string) int {
	e.t.Helper()
	tb, err := engine.LoadTable(e.game(id).Table, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	return tb.Token()
}

func secretOf(g *referee.Game, addr string) string {
	for _, s := range g.Seats {
		if s.Address == addr {
			return s.Secret
		}
	}
	return ""
}

// The whole front door with a real referee: an organiser's mail creates a
// game with a hook, one player answers by mail through /inbound, the other
// through the commands endpoint; every request is posted twice and applied
// once; the hook receives signed calls without hidden information.
func TestEndToEnd(t *testing.T) {
	e := newE2E(t)
	org := []byte("From: Olga <olga@example.test>\r\nTo: referee+org." + orgSecret + "@example.test\r\nSubject: new game\r\n" +
		"Message-ID: <org1@example.test>\r\nDate: Mon, 23 Nov 2026 08:00:00 +0000\r\n\r\n" +
		"NEW toy id=t1 variant=secret rounds=1\r\nPLAYER ann@example.test Ann\r\nPLAYER bob@example.test Bob\r\n")
	if out := e.postRaw(org); out.Status != "applied" {
		t.Fatalf("organiser mail: %+v", out)
	}
	if out := e.postRaw(org); out.Status != "duplicate" {
		t.Fatalf("organiser mail again: %+v", out)
	}
	// HOOK in a mail of its own: in the NEW mail it is refused ("no game"),
	// the new game not being visible to later commands of the same mail.
	hook := []byte("From: Olga <olga@example.test>\r\nTo: referee+org." + orgSecret + "@example.test\r\nSubject: hook\r\n" +
		"Message-ID: <org2@example.test>\r\nDate: Mon, 23 Nov 2026 08:01:00 +0000\r\n\r\n" +
		"HOOK t1 " + e.hooks.URL + "/hook generic\r\n")
	if out := e.postRaw(hook); out.Status != "applied" {
		t.Fatalf("organiser's HOOK: %+v", out)
	}
	g := e.game("t1")
	if len(g.Hooks) != 1 {
		for _, m := range e.inbox()[olga] {
			t.Logf("to the organiser:\n%s", m)
		}
		t.Fatalf("hooks %+v", g.Hooks)
	}
	hookSecret := g.Hooks[0].Secret
	in := e.inbox()
	if len(in[ann]) != 1 || len(in[bob]) != 1 {
		t.Fatalf("invitations: %d to Ann, %d to Bob", len(in[ann]), len(in[bob]))
	}

	// Ann joins by mail, Bob through the commands endpoint.
	annJoin := e.reply(in[ann][0], "Ann <ann@example.test>", "JOIN", 1)
	if out := e.postRaw(annJoin); out.Status != "answered" {
		t.Fatalf("Ann's JOIN: %+v", out)
	}
	bobSecret := secretOf(g, bob)
	code, resp := e.command("t1", bobSecret, `{"text":"JOIN","message_id":"bob-join"}`)
	if code != 200 || resp.Status != "answered" {
		t.Fatalf("Bob's JOIN: %d %+v", code, resp)
	}
	g = e.game("t1")
	if g.Status != referee.StatusRunning || resp.StateToken == nil {
		t.Fatalf("status %s, state token %v", g.Status, resp.StateToken)
	}
	start := e.token("t1")
	in = e.inbox()

	// Ann bids by replying to her latest mail; the same mail twice.
	annBid := e.reply(in[ann][len(in[ann])-1], "Ann <ann@example.test>", "BID 3", 2)
	if out := e.postRaw(annBid); out.Status != "queued" {
		t.Fatalf("Ann's BID: %+v", out)
	}
	if out := e.postRaw(annBid); out.Status != "duplicate" {
		t.Fatalf("Ann's BID again: %+v", out)
	}
	// Bob bids (and sets a private standing order) twice with the same id.
	tok := e.token("t1")
	body := fmt.Sprintf(`{"text":"BID 5\nAUTOHOLD 4","state_token":%d,"message_id":"bob-bid-1"}`, tok)
	code, first := e.command("t1", bobSecret, body)
	if code != 200 || first.Status != "applied" || len(first.Replies) == 0 {
		t.Fatalf("Bob's BID: %d %+v", code, first)
	}
	code, again := e.command("t1", bobSecret, body)
	if code != 200 || again.Status != "duplicate" || len(again.Replies) != 0 {
		t.Fatalf("Bob's BID again: %d %+v", code, again)
	}
	end := e.token("t1")
	if end != start+3 || *first.StateToken != end || *again.StateToken != end {
		// BID, BID and AUTOHOLD are three moves.
		t.Errorf("state token %d -> %d (answers %d, %d), want three moves", start, end, *first.StateToken, *again.StateToken)
	}
	e.mu.Lock()
	moves := map[string]int{}
	dups := 0
	for _, o := range e.obs {
		moves[o.Source] += o.Moves
		if o.Status == "duplicate" {
			dups++
			if o.Moves != 0 || o.Mails != 0 || o.Hooks != 0 {
				t.Errorf("a duplicate did something: %+v", o)
			}
		}
	}
	e.mu.Unlock()
	// Sealed bids wait in the table until all are in: Bob's request applies
	// Ann's BID, his own and his AUTOHOLD.
	if moves["webhook:raw"] != 0 || moves["webhook:commands"] != 3 || dups != 3 {
		t.Errorf("moves by source %v, %d duplicates", moves, dups)
	}

	// The hook: signed calls, the bids' resolution among them, nothing
	// hidden.
	var calls []hookCall
	deadline := time.Now().Add(10 * time.Second)
	for {
		e.mu.Lock()
		calls = append(calls[:0], e.calls...)
		e.mu.Unlock()
		if len(calls) > 0 && bytes.Contains(calls[len(calls)-1].body, []byte("toy.order")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no hook call with the bids' resolution; %d calls", len(calls))
		}
		time.Sleep(20 * time.Millisecond)
	}
	g = e.game("t1")
	secrets := []string{orgSecret, hookSecret, g.Seed}
	for _, s := range g.Seats {
		secrets = append(secrets, s.Secret, s.Address)
	}
	ids := map[string]bool{}
	for i, c := range calls {
		if err := hookout.Verify(hookSecret, c.header, c.body, time.Now(), time.Minute); err != nil {
			t.Errorf("call %d: %v", i, err)
		}
		var p referee.HookPayload
		if err := json.Unmarshal(c.body, &p); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if p.Game != "t1" || p.ID == "" || c.header.Get(hookout.HeaderID) != p.ID || ids[p.ID] {
			t.Errorf("call %d: id %q header %q game %q", i, p.ID, c.header.Get(hookout.HeaderID), p.Game)
		}
		ids[p.ID] = true
		for _, s := range secrets {
			if s != "" && bytes.Contains(c.body, []byte(s)) {
				t.Errorf("call %d reveals %q: %s", i, s, c.body)
			}
		}
		for _, hidden := range []string{`"amount"`, `"bids"`, "toy.autohold"} {
			if bytes.Contains(c.body, []byte(hidden)) {
				t.Errorf("call %d reveals hidden information %s: %s", i, hidden, c.body)
			}
		}
	}
}
