package referee

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/store"
)

func init() {
	enginetest.RegisterToy()
	enginetest.RegisterClaim()
}

// harness drives a Referee with a fake clock and a store in a temp dir; the
// composer stores each Outgoing as JSON so tests can read the mails back.
type harness struct {
	t     testing.TB
	clock *FakeClock
	db    *store.DB
	r     *Referee
	n     int
	kicks int
}

const org = "olga@example.test"

func newHarness(t testing.TB) *harness {
	t.Helper()
	return newHarnessStore(t, &store.Options{NoSync: true})
}

// newHarnessStore is newHarness with the given store options (the
// benchmarks measure with fsync on).
func newHarnessStore(t testing.TB, opt *store.Options) *harness {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "r.db"), opt)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, clock: &FakeClock{T: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}, db: db}
	t.Cleanup(func() {
		if err := db.Check(); err != nil {
			t.Errorf("tx.Check: %v", err)
		}
		checkGameIndex(t, db)
		db.Close()
	})
	h.r, err = New(Options{DB: db, Clock: h.clock, Domain: "example.test", Organisers: map[string]string{org: "orgsecretorgsecret"},
		Compose: func(m *Outgoing) ([]byte, error) { return json.Marshal(m) }, Kick: func() { h.kicks++ },
		Random: &counterReader{}})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// counterReader is a deterministic source of secrets.
type counterReader struct{ n byte }

func (c *counterReader) Read(p []byte) (int, error) {
	for i := range p {
		c.n++
		p[i] = c.n
	}
	return len(p), nil
}

// mails returns the mails queued since the last call (and retires them).
func (h *harness) mails() []*Outgoing {
	h.t.Helper()
	var out []*Outgoing
	err := h.db.Update(func(tx *store.Tx) error {
		due, err := tx.Due(OutboxQueue, h.clock.Now().Add(1000*time.Hour), 0)
		if err != nil {
			return err
		}
		for _, it := range due {
			var m Outgoing
			if err := json.Unmarshal(it.Payload, &m); err != nil {
				return err
			}
			if it.Key != m.MessageID || it.To != m.To {
				return fmt.Errorf("outbox row %d: key %s to %s, mail %s to %s", it.ID, it.Key, it.To, m.MessageID, m.To)
			}
			out = append(out, &m)
			if _, err := tx.Finish(OutboxQueue, it.ID, store.Sent, h.clock.Now(), h.clock.Now(), ""); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

// mailTo returns the only mail to addr among ms (failing otherwise).
func (h *harness) mailTo(ms []*Outgoing, addr string) *Outgoing {
	h.t.Helper()
	var found *Outgoing
	for _, m := range ms {
		if m.To == addr {
			if found != nil {
				h.t.Fatalf("two mails to %s:\n%s\n----\n%s", addr, found.Body, m.Body)
			}
			found = m
		}
	}
	if found == nil {
		var to []string
		for _, m := range ms {
			to = append(to, m.To)
		}
		h.t.Fatalf("no mail to %s (mails to %v)", addr, to)
	}
	return found
}

func (h *harness) noMailTo(ms []*Outgoing, addr string) {
	h.t.Helper()
	for _, m := range ms {
		if m.To == addr {
			h.t.Fatalf("unexpected mail to %s:\n%s", addr, m.Body)
		}
	}
}

func (h *harness) game(id string) *Game {
	h.t.Helper()
	g, err := h.r.GameRecord(id)
	if err != nil {
		h.t.Fatal(err)
	}
	return g
}

// send sends a seat's message, as a reply to the game's last mail (token -1
// means the current one).
func (h *harness) send(gameID, addr, text string, token int) Outcome {
	h.t.Helper()
	g := h.game(gameID)
	seat := g.SeatOfAddress(addr)
	if seat < 0 {
		h.t.Fatalf("%s has no seat in %s", addr, gameID)
	}
	if token == -1 && g.Table != nil {
		token = h.table(gameID).Token()
	}
	return h.sendAs(Request{From: addr, Kind: "seat", Game: gameID, Seat: seat, Secret: g.Seats[seat].Secret, Token: token, Text: text})
}

func (h *harness) sendAs(req Request) Outcome {
	h.t.Helper()
	h.n++
	if req.MessageID == "" {
		req.MessageID = fmt.Sprintf("<m%d@players.test>", h.n)
	}
	if req.Keys == nil {
		req.Keys = []string{"msgid:" + req.MessageID}
	}
	req.Source = "test"
	if req.Kind != "" || req.SenderVerified == false {
		req.SenderVerified = true
	}
	out, err := h.r.Process(context.Background(), req)
	if err != nil {
		h.t.Fatalf("Process(%q): %v", req.Text, err)
	}
	return out
}

func (h *harness) org(text string) Outcome {
	h.t.Helper()
	return h.sendAs(Request{From: org, Kind: "org", Secret: "orgsecretorgsecret", Text: text})
}

func (h *harness) tick() {
	h.t.Helper()
	if _, err := h.r.Tick(context.Background()); err != nil {
		h.t.Fatal(err)
	}
}

// newToyGame creates a toy game for the given players and has all join.
func (h *harness) newToyGame(id string, players ...string) {
	h.t.Helper()
	text := "NEW toy id=" + id + " rounds=2 deadline=24h,misses=2,vacation=3\n"
	for _, p := range players {
		name, _, _ := strings.Cut(p, "@")
		text += "PLAYER " + p + " " + name + "\n"
	}
	h.org(text)
	for _, p := range players {
		h.send(id, p, "JOIN", -1)
	}
}

func contains(t *testing.T, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Errorf("mail lacks %q:\n%s", w, body)
		}
	}
}

func lacks(t *testing.T, body string, nots ...string) {
	t.Helper()
	for _, w := range nots {
		if strings.Contains(body, w) {
			t.Errorf("mail contains %q:\n%s", w, body)
		}
	}
}

var _ = bytes.Equal
