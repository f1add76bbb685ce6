package mailin

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

func init() {
	enginetest.RegisterToy()
	enginetest.RegisterClaim()
}

const (
	org = "olga@example.test"
	ann = "ann@example.test"
	bob = "bob@example.test"
)

// mailHarness runs a referee whose outbox holds real mails (mailfmt),
// behind the intake, and players who answer them as a mail client would.
type mailHarness struct {
	t     testing.TB
	clock *testkit.FakeClock
	db    *store.DB
	r     *referee.Referee
	in    *Intake
	n     int
	// envelope is the envelope sender (VERP) of every mail queued, by
	// Message-ID.
	envelope map[string]string
}

func newMailHarness(t *testing.T, mods ...func(*referee.Options)) *mailHarness {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "r.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	h := &mailHarness{t: t, clock: &testkit.FakeClock{T: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}, db: db}
	t.Cleanup(func() {
		if err := db.Check(); err != nil {
			t.Errorf("tx.Check: %v", err)
		}
		db.Close()
	})
	ro := referee.Options{DB: db, Clock: h.clock, Domain: "example.test", Organisers: map[string]string{org: "orgsecretorgsecret"},
		Compose: referee.Composer(mailmsg.Address{Name: "Referee", Addr: "referee@example.test"}), Random: &counterReader{}}
	for _, m := range mods {
		m(&ro)
	}
	h.r, err = referee.New(ro)
	if err != nil {
		t.Fatal(err)
	}
	h.in = New(h.r, Options{})
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

// inbox returns the raw mails queued since the last call, by recipient.
func (h *mailHarness) inbox() map[string][][]byte {
	h.t.Helper()
	out := map[string][][]byte{}
	err := h.db.Update(func(tx *store.Tx) error {
		due, err := tx.Due(referee.OutboxQueue, h.clock.Now().Add(1000*time.Hour), 0)
		if err != nil {
			return err
		}
		for _, it := range due {
			out[it.To] = append(out[it.To], it.Payload)
			if h.envelope == nil {
				h.envelope = map[string]string{}
			}
			h.envelope[it.Key] = it.Meta[referee.MetaFrom]
			if _, err := tx.Finish(referee.OutboxQueue, it.ID, store.Sent, h.clock.Now(), h.clock.Now(), ""); err != nil {
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

// reply builds a player's reply to a referee mail, Gmail style: the new
// text on top, then "On ..., Referee wrote:" and the quoted original.
func (h *mailHarness) reply(orig []byte, from, text string) []byte {
	h.t.Helper()
	b, m := h.replyHead(orig, from, "reply", "")
	writeLines(b, "", text)
	b.WriteString("\r\nOn Mon, 23 Nov 2026 at 09:00, Referee <referee@example.test> wrote:\r\n")
	writeLines(b, "> ", m.Text)
	return []byte(b.String())
}

// replyHead starts a player's reply to orig: its header (Message-ID
// <idN@players.test>, extra header lines last) and the blank line after
// it. It returns the reply so far and orig as read.
func (h *mailHarness) replyHead(orig []byte, from, id, extra string) (*strings.Builder, *mailmsg.Message) {
	h.t.Helper()
	m, err := mailmsg.Parse(orig, mailmsg.Options{})
	if err != nil {
		h.t.Fatal(err)
	}
	h.n++
	b := &strings.Builder{}
	fmt.Fprintf(b, "From: Player <%s>\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <%s%d@players.test>\r\n"+
		"In-Reply-To: %s\r\nReferences: %s\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\n"+
		"Content-Type: text/plain; charset=utf-8\r\n%s\r\n",
		from, m.ReplyTo[0].Addr, m.Subject, id, h.n, m.MessageID, m.MessageID, extra)
	return b, m
}

// writeLines writes each line of text after prefix, ending in CRLF.
func writeLines(b *strings.Builder, prefix, text string) {
	for _, l := range strings.Split(text, "\n") {
		b.WriteString(prefix + l + "\r\n")
	}
}

func (h *mailHarness) handle(raw []byte) referee.Outcome {
	h.t.Helper()
	out, err := h.in.HandleMail(context.Background(), Inbound{Raw: raw, Source: "test", Received: h.clock.Now()})
	if err != nil {
		h.t.Fatalf("HandleMail: %v", err)
	}
	return out
}

func (h *mailHarness) game(id string) *referee.Game {
	h.t.Helper()
	g, err := h.r.GameRecord(id)
	if err != nil {
		h.t.Fatal(err)
	}
	return g
}

// seatOf returns the seat of an address in a game, or -1.
func seatOf(g *referee.Game, addr string) int {
	for i, s := range g.Seats {
		if strings.EqualFold(s.Address, addr) {
			return i
		}
	}
	return -1
}

func last(ms [][]byte) []byte { return ms[len(ms)-1] }

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
