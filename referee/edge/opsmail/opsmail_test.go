package opsmail_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/hookout"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/edge/opsmail"
	"github.com/pbem-referee/referee/referee/edge/webhook"
	"github.com/pbem-referee/referee/store"
)

const operator = "ops@example.org"

var referer = mailmsg.Address{Name: "Referee", Addr: "referee@example.test"}

func openStore(t *testing.T, path string) *store.DB {
	t.Helper()
	db, err := store.Open(path, &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// outbox returns the operator's mails queued in db, parsed, oldest first.
func outbox(t *testing.T, db *store.DB) []*mailmsg.Message {
	t.Helper()
	var out []*mailmsg.Message
	err := db.View(func(tx *store.Tx) error {
		return tx.Items(referee.OutboxQueue, func(it store.Item) error {
			if it.To != operator {
				return nil
			}
			if it.Meta[referee.MetaFrom] != referer.Addr || it.Kind != "operator" {
				t.Errorf("item %+v", it)
			}
			m, err := mailmsg.Parse(it.Payload, mailmsg.Options{})
			if err != nil {
				return err
			}
			out = append(out, m)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// hostile are values a sender controls, as they reach the notice.
var hostile = []string{
	"plain", "a\r\nBcc: evil@example.org", "\u202eSSAP", "zero\u200bwidth", strings.Repeat("x", 5000),
	"\x00\x1b[31mred", string([]byte{0xff, 0xfe}), strings.Repeat("word ", 100), "=?utf-8?q?=0D=0ABcc:_x?=",
}

// Every operator mail, whatever the notice holds (each hostile value in
// each field, every reason), composes, parses back, has no line over 80
// columns, shows no control or format character and adds no header.
func TestOperatorMailIsSafe(t *testing.T) {
	db := openStore(t, filepath.Join(t.TempDir(), "s.db"))
	defer db.Close()
	now := time.Date(2026, 12, 6, 1, 0, 0, 0, time.UTC)
	n, err := opsmail.New(opsmail.Options{Store: db, From: referer, To: operator, PerDay: 1000, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	for _, reason := range []string{"failed", "crashed", "too_large", "replayed", "other"} {
		for _, v := range hostile {
			for field := 0; field < 4; field++ {
				note := referee.QuarantineNotice{Reason: reason, Source: "webhook:raw", Size: 42, Raw: []byte("x")}
				switch field {
				case 0:
					note.From = v
				case 1:
					note.MessageID = v
				case 2:
					note.Detail = v
				case 3:
					note.Source = v
				}
				if ok, err := n.SetAside(context.Background(), note); err != nil || !ok {
					t.Fatalf("reason %s, field %d = %q: %v %v", reason, field, v, ok, err)
				}
				sent++
			}
		}
	}
	ms := outbox(t, db)
	if len(ms) != sent {
		t.Fatalf("%d mails, want %d", len(ms), sent)
	}
	for _, m := range ms {
		if len(m.Header("Bcc")) != 0 || len(m.To) != 1 || m.To[0].Addr != operator {
			t.Errorf("headers: bcc %v to %v", m.Header("Bcc"), m.To)
		}
		for _, l := range strings.Split(m.Text, "\n") {
			if utf8.RuneCountInString(strings.TrimRight(l, "\r")) > 80 {
				t.Errorf("line over 80 columns: %q", l)
			}
			for _, r := range l {
				if r == '\u202e' || r == '\u200b' || r == 0 || r == 0x1b {
					t.Errorf("unsafe character %U in %q", r, l)
				}
			}
		}
		if !strings.Contains(m.Text, "Reason: ") || !strings.Contains(m.Text, "set aside") {
			t.Errorf("text %q", m.Text)
		}
	}
}

// The daily budget holds across restarts (a new Notifier on the reopened
// store): PerDay mails, one more saying the budget is spent, then none
// until the next UTC day.
func TestOperatorMailBudgetAcrossRestarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	now := time.Date(2026, 12, 6, 1, 0, 0, 0, time.UTC)
	var got []bool
	for restart := 0; restart < 3; restart++ {
		db := openStore(t, path)
		n, err := opsmail.New(opsmail.Options{Store: db, From: referer, To: operator, PerDay: 3, Now: func() time.Time { return now }})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			ok, err := n.SetAside(context.Background(), referee.QuarantineNotice{Reason: "failed", Source: "imap"})
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, ok)
		}
		db.Close()
	}
	if want := "[true true true true false false]"; fmt.Sprint(got) != want {
		t.Errorf("queued %v, want %s", got, want)
	}
	db := openStore(t, path)
	defer db.Close()
	ms := outbox(t, db)
	if len(ms) != 4 || !strings.Contains(ms[3].Subject, "budget reached") {
		t.Fatalf("%d mails; last %q", len(ms), ms[len(ms)-1].Subject)
	}
	now = now.Add(24 * time.Hour)
	n, _ := opsmail.New(opsmail.Options{Store: db, From: referer, To: operator, PerDay: 3, Now: func() time.Time { return now }})
	if ok, err := n.SetAside(context.Background(), referee.QuarantineNotice{Reason: "failed"}); !ok || err != nil {
		t.Errorf("the next day: %v %v", ok, err)
	}
}

// failing stands for a referee whose handling of one message always fails
// (a transient error), in front of the real referee's quarantine.
type failing struct {
	*mailin.Intake
}

func (f failing) HandleMail(context.Context, mailin.Inbound) (referee.Outcome, error) {
	return referee.Outcome{}, errors.New("temporary: cannot compose")
}

// Through the front door with a real HTTP client and the real referee and
// intake: a posted message that keeps failing is set aside after
// MaxAttempts; the referee records it, and the operator gets one mail
// naming it; posting it again later tells nobody twice.
func TestOperatorToldThroughTheWebhook(t *testing.T) {
	db := openStore(t, filepath.Join(t.TempDir(), "s.db"))
	defer db.Close()
	ref, err := referee.New(referee.Options{DB: db, Domain: "example.test", Compose: referee.Composer(referer)})
	if err != nil {
		t.Fatal(err)
	}
	ops, err := opsmail.New(opsmail.Options{Store: db, From: referer, To: operator})
	if err != nil {
		t.Fatal(err)
	}
	in := mailin.New(ref, mailin.Options{Operator: ops})
	front, err := webhook.New(webhook.Options{Handler: failing{in}, Secret: "s3cret-s3cret", MaxAttempts: 3})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	front.Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	raw := []byte("From: Pat <pat@example.org>\r\nTo: referee@example.test\r\nSubject: hi\r\n" +
		"Message-ID: <poison@example.org>\r\nDate: Sun, 06 Dec 2026 01:00:00 +0000\r\n\r\nREGISTER\r\n")
	var codes []int
	for i := 0; i < 4; i++ {
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		req, _ := http.NewRequest("POST", srv.URL+"/inbound", bytes.NewReader(raw))
		req.Header.Set(hookout.HeaderTimestamp, ts)
		req.Header.Set(hookout.HeaderSignature, hookout.Sign("s3cret-s3cret", ts, raw))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		codes = append(codes, resp.StatusCode)
	}
	if fmt.Sprint(codes) != "[503 503 422 503]" {
		t.Errorf("answers %v", codes)
	}
	ms := outbox(t, db)
	if len(ms) != 1 || !strings.Contains(ms[0].Text, "<poison@example.org>") || !strings.Contains(ms[0].Text, "failed") {
		t.Fatalf("operator mails: %d", len(ms))
	}
	var kept int
	db.View(func(tx *store.Tx) error {
		return tx.Quarantined(func(q store.Quarantined) error {
			if bytes.Equal(q.Raw, raw) {
				kept++
			}
			return nil
		})
	})
	if kept != 1 {
		t.Errorf("the message is kept %d times in the quarantine", kept)
	}
}
