package imapin

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"log/slog"
	"mime/quotedprintable"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/hookout"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/edge/webhook"
	"github.com/pbem-referee/referee/store"
)

// The whole-mail fuzz (issue 23, rule 2: "no input may stall intake").
// Every input becomes one whole mail, built from a display name, a
// subject, a body, raw header bytes and a shape (MIME structure, transfer
// encoding, charset, the From's form, whether it goes to a seat's tagged
// address), and goes through both intake paths in-process into one real
// referee with a running game: posted signed to the webhook with a real
// HTTP client, and delivered to an IMAP mailbox watched by the Watcher.
// The rules checked for every input:
//
//   - the webhook answers 200 (handled, refused or set aside) or a
//     permanent 4xx, never 5xx: a deterministic input that fails is a
//     failure misclassified as transient, retried for ever;
//   - over IMAP the mail leaves the inbox (Processed or Quarantine) and a
//     genuine mail delivered after it is handled: the intake moves on;
//   - the store stays consistent (tx.Check at the end).
//
// The seeds are every hostile input of the earlier fixed sets (the
// hostile names, bidi and confusable commands, encoded-word look-alikes,
// broken MIME); inputs the fuzzer finds failing are kept in
// testdata/fuzz/FuzzWholeMail.

// fuzzRig is the referee, its intake on both paths, and a game.
type fuzzRig struct {
	db    *store.DB
	ref   *referee.Referee
	ms    *memServer
	front *httptest.Server
	// seatTo is ann's tagged address (the Reply-To of her invitation).
	seatTo string
	n      atomic.Int64
	// handled receives the Message-ID of every mail the IMAP path handed
	// over.
	mu      sync.Mutex
	handled map[string]bool
}

type signalIntake struct {
	*mailin.Intake
	rig *fuzzRig
}

func (s signalIntake) HandleMail(ctx context.Context, in mailin.Inbound) (referee.Outcome, error) {
	return s.HandleParsed(ctx, s.Parse(in))
}

// HandleParsed: the Watcher's lanes hand a mail over read (mailin.Reader).
func (s signalIntake) HandleParsed(ctx context.Context, p *mailin.Parsed) (referee.Outcome, error) {
	out, err := s.Intake.HandleParsed(ctx, p)
	if strings.HasPrefix(p.In.Source, "imap") {
		s.rig.mu.Lock()
		s.rig.handled[msgID(p.In.Raw)] = true
		s.rig.mu.Unlock()
	}
	return out, err
}

const fuzzSecret = "fuzz-webhook-secret-0123"

func newFuzzRig(t testing.TB) *fuzzRig {
	enginetest.RegisterClaim()
	r := &fuzzRig{handled: map[string]bool{}}
	var err error
	if r.db, err = store.Open(filepath.Join(t.TempDir(), "r.db"), &store.Options{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := r.db.Check(); err != nil {
			t.Errorf("store check: %v", err)
		}
		r.db.Close()
	})
	r.ref, err = referee.New(referee.Options{DB: r.db, Domain: "example.test", Organisers: map[string]string{"olga@example.test": "orgsecretorgsecret"},
		Compose: referee.Composer(mailmsg.Address{Name: "Referee", Addr: testUser}), RateLimit: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.ref.Organise("olga@example.test", "NEW claim id=fz\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob"); err != nil {
		t.Fatal(err)
	}
	err = r.db.View(func(tx *store.Tx) error {
		return tx.Items(referee.OutboxQueue, func(it store.Item) error {
			if it.To == "ann@example.test" && r.seatTo == "" {
				m, err := mailmsg.Parse(it.Payload, mailmsg.Options{})
				if err != nil {
					return err
				}
				r.seatTo = m.ReplyTo[0].Addr
			}
			return nil
		})
	})
	if err != nil || r.seatTo == "" {
		t.Fatalf("no invitation for ann: %v", err)
	}
	in := signalIntake{Intake: mailin.New(r.ref, mailin.Options{}), rig: r}
	front, err := webhook.New(webhook.Options{Handler: in, Secret: fuzzSecret, Replay: r.ref})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	front.Register(mux)
	r.front = httptest.NewServer(mux)
	t.Cleanup(r.front.Close)
	r.ms = startServer(t, capsDovecot)
	o := testOptions(r.ms.addr, r.db, in, &bytes.Buffer{})
	o.Logger = slog.New(slog.DiscardHandler)
	o.MaxAttempts = 3
	start(t, o)
	return r
}

// post posts raw to the webhook, signed, and returns the status.
func (r *fuzzRig) post(t testing.TB, raw []byte) int {
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	req, _ := http.NewRequest("POST", r.front.URL+"/inbound", bytes.NewReader(raw))
	req.Header.Set("Content-Type", "message/rfc822")
	req.Header.Set(hookout.HeaderTimestamp, ts)
	req.Header.Set(hookout.HeaderSignature, hookout.Sign(fuzzSecret, ts, raw))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// imap delivers raw, then a genuine sentinel, and waits until the
// sentinel was handled and the inbox is empty.
func (r *fuzzRig) imap(t testing.TB, raw []byte) {
	sentinel := fmt.Sprintf("<sentinel%d@example.test>", r.n.Add(1))
	r.ms.deliver(t, "INBOX", raw)
	r.ms.deliver(t, "INBOX", []byte("From: Bob <bob@example.test>\r\nTo: "+testUser+"\r\nSubject: hello\r\nMessage-ID: "+sentinel+
		"\r\nDate: Sun, 06 Dec 2026 01:00:00 +0000\r\n\r\nHELP\r\n"))
	deadline := time.Now().Add(20 * time.Second)
	for {
		r.mu.Lock()
		done := r.handled[sentinel]
		r.mu.Unlock()
		if done && len(contents(t, r.ms.addr, testUser, testPass, "INBOX")) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the intake did not move on past %q: sentinel handled %v, inbox %s", raw, done,
				msgIDs(contents(t, r.ms.addr, testUser, testPass, "INBOX")))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// wholeMail builds one mail from the fuzzer's parts. shape selects: bits
// 0-2 the MIME structure, 3-4 the transfer encoding, 5-6 the charset, 7-8
// the From's form, 9 the seat's tagged address or the plain one, 10 raw
// header bytes before or after the standard ones.
func wholeMail(r *fuzzRig, n int64, name, subject, body string, extra []byte, shape uint16) []byte {
	to := testUser
	if shape&(1<<9) != 0 {
		to = r.seatTo
	}
	var from string
	switch (shape >> 7) & 3 {
	case 0:
		from = mailmsg.Address{Name: name, Addr: "ann@example.test"}.String()
	case 1:
		from = `"` + name + `" <ann@example.test>`
	case 2:
		from = "=?utf-8?b?" + base64.StdEncoding.EncodeToString([]byte(name)) + "?= <ann@example.test>"
	case 3:
		from = name
	}
	charset := []string{"utf-8", "iso-8859-1", "x-unknown", ""}[(shape>>5)&3]
	cte := []string{"7bit", "quoted-printable", "base64", "8bit"}[(shape>>3)&3]
	encode := func(s string) string {
		switch cte {
		case "quoted-printable":
			var b bytes.Buffer
			w := quotedprintable.NewWriter(&b)
			w.Write([]byte(s))
			w.Close()
			return b.String()
		case "base64":
			return base64.StdEncoding.EncodeToString([]byte(s))
		}
		return s
	}
	textPart := func() string {
		ct := "text/plain"
		if charset != "" {
			ct += "; charset=" + charset
		}
		return "Content-Type: " + ct + "\r\nContent-Transfer-Encoding: " + cte + "\r\n\r\n" + encode(body) + "\r\n"
	}
	var mime, content string
	switch shape & 7 {
	case 0:
		content = textPart()
		mime = ""
	case 1:
		content = "Content-Type: multipart/alternative; boundary=b1\r\n\r\n--b1\r\n" + textPart() +
			"--b1\r\nContent-Type: text/html\r\n\r\n<p>" + body + "</p>\r\n--b1--\r\n"
	case 2:
		content = "Content-Type: multipart/mixed; boundary=b2\r\n\r\n--b2\r\n" + textPart() +
			"--b2\r\nContent-Type: application/octet-stream; name=\"" + name + "\"\r\nContent-Disposition: attachment; filename=\"" +
			name + "\"\r\nContent-Transfer-Encoding: base64\r\n\r\n" + base64.StdEncoding.EncodeToString([]byte(body)) + "\r\n--b2--\r\n"
	case 3:
		content = "Content-Type: multipart/mixed; boundary=outer\r\n\r\n--outer\r\nContent-Type: multipart/alternative; boundary=inner\r\n\r\n--inner\r\n" +
			textPart() + "--inner--\r\n--outer--\r\n"
	case 4:
		content = "Content-Type: multipart/mixed; boundary=fw\r\n\r\n--fw\r\n" + textPart() + "--fw\r\nContent-Type: message/rfc822\r\n\r\n" +
			"From: " + from + "\r\nSubject: " + subject + "\r\n\r\n" + body + "\r\n--fw--\r\n"
	case 5:
		// A boundary that never closes, and a part without headers.
		content = "Content-Type: multipart/mixed; boundary=\"" + name + "\"\r\n\r\n--" + name + "\r\n\r\n" + body + "\r\n"
	case 6:
		content = "Content-Type: multipart/mixed\r\n\r\n" + body + "\r\n"
	case 7:
		content = "Content-Type: " + subject + "\r\nContent-Transfer-Encoding: " + name + "\r\n\r\n" + body + "\r\n"
	}
	if mime == "" && shape&7 != 0 {
		mime = "MIME-Version: 1.0\r\n"
	}
	head := "From: " + from + "\r\nTo: " + to + "\r\nSubject: " + subject + "\r\n" +
		fmt.Sprintf("Message-ID: <fuzz%d.%d@example.test>\r\n", time.Now().UnixNano(), n) +
		"Date: Sun, 06 Dec 2026 01:00:00 +0000\r\n" + mime
	// Header lines from the fuzzer: no bare CR/LF that would end the head
	// early is removed; what they do to the head is the point.
	if shape&(1<<10) != 0 {
		return append(append(extra, []byte(head)...), []byte(content)...)
	}
	return append(append([]byte(head), extra...), []byte(content)...)
}

// fuzzSeeds are the hostile inputs of the earlier fixed sets.
var fuzzSeeds = []struct {
	name, subject, body string
	extra               string
}{
	{`Pat O"Brien`, "hello", "REGISTER Pat O\"Brien", ""},
	{`Pat O\"Brien`, "hello", "REGISTER Pat O\\\"Brien", ""},
	{`Pat\`, "Re: [fz] your turn", "JOIN", ""},
	{`"`, `"`, `"`, ""},
	{`\`, `\`, `\`, ""},
	{`""\`, "x", "SAY all: \\", ""},
	{"\u202ePASS", "\u202ePASS", "\u202ePASS", ""},
	{"Pat\u200bO", "zero\u200bwidth", "P\u0410SS", ""},
	{"é \"q\\", "é", "\uff30\uff21\uff33\uff33", ""},
	{"日本語\\", "日本語", "JOIN\nSAY all: 日本語\\", ""},
	{"=?utf-8?q?=22?=", "=?utf-8?q?=0D=0ABcc:_x?=", "REGISTER =?utf-8?q?=22?=", ""},
	{"(comment", "(", "STATUS", ""},
	{"<x@y>", "<x@y>", "REGISTER <x@y>", ""},
	{strings.Repeat("ä\"", 120), strings.Repeat("ä", 500), strings.Repeat("JOIN ", 2000), ""},
	{"Ann", "list", "JOIN", "List-Id: <games.example.org>\r\nPrecedence: bulk\r\n"},
	{"Ann", "loop", "JOIN", "X-Loop: other@example.org\r\n"},
	{"Ann", "ar", "JOIN", "Authentication-Results: mx.example.test; dkim=pass header.d=example.test\r\n"},
	{"Ann", "bounce", "JOIN", "Content-Type: multipart/report; report-type=delivery-status; boundary=x\r\n"},
	{"Ann", "auto", "JOIN", "Auto-Submitted: auto-replied\r\n"},
	{"Ann", "folded", "JOIN", "X-Long:\r\n \r\n \r\n"},
	{"Ann", "no colon", "JOIN", "NoColonHere\r\n"},
	{"Ann", "nul", "JOIN\x00PASS", "X-Nul: a\x00b\r\n"},
	{"Ann", "bare cr", "JOIN\rPASS", "X-CR: a\rb\r\n"},
	{"Ann", "two froms", "JOIN", "From: bob@example.test\r\n"},
	{"Ann", "empty", "", ""},
	{"", "", "", "\r\n"},
}

// FuzzWholeMail: see the rules above. Run with
// go test -run '^$' -fuzz FuzzWholeMail ./referee/edge/imapin/
func FuzzWholeMail(f *testing.F) {
	for i, s := range fuzzSeeds {
		for _, shape := range []uint16{0, 1<<9 | 1, 2 | 1<<3 | 1<<7, 3 | 2<<3 | 1<<5 | 1<<9, 4 | 1<<8, 5 | 3<<7, 6 | 3<<3, 7 | 1<<10} {
			if (i+int(shape))%3 == 0 || shape == 0 {
				f.Add(s.name, s.subject, s.body, []byte(s.extra), shape)
			}
		}
	}
	r := newFuzzRig(f)
	f.Fuzz(func(t *testing.T, name, subject, body string, extra []byte, shape uint16) {
		if len(name)+len(subject)+len(body)+len(extra) > 64<<10 {
			t.Skip("larger than a mail worth fuzzing")
		}
		n := r.n.Add(1)
		raw := wholeMail(r, n, name, subject, body, extra, shape)
		if c := r.post(t, raw); c >= 500 || (c != 200 && c != 400 && c != 422) {
			t.Fatalf("the webhook answered %d to %q", c, raw)
		}
		r.imap(t, wholeMail(r, n, name, subject, body, extra, shape))
	})
}
