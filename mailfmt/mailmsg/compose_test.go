package mailmsg

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/* from the current behaviour (only after checking the diff)")

var (
	goldenDate    = time.Date(2026, 5, 12, 10, 14, 0, 0, time.FixedZone("CEST", 2*3600))
	goldenReferee = Address{Name: "Referee", Addr: "referee@example.test"}
)

func replyOut(t *testing.T) Out {
	t.Helper()
	tag, err := SeatTag("g42", 1, "k7x9q2abcd3e", 57)
	if err != nil {
		t.Fatal(err)
	}
	id, err := NewMessageID("g42", 1, 57, "a1b2", "example.test")
	if err != nil {
		t.Fatal(err)
	}
	return Out{
		From:       goldenReferee,
		To:         Address{Name: "Anna Rossi", Addr: "anna@rossi.example"},
		Tag:        tag,
		Subject:    "Dice Brewing: tocca a te — mossa 57",
		Reply:      true,
		MessageID:  id,
		InReplyTo:  []string{"<CAJx7ab2@mail.gmail.com>"},
		References: []string{"<rf.g42.x.55.k3@example.test>", "rf.g42.1.56.z9@example.test", "<CAJx7ab2@mail.gmail.com>"},
		Date:       goldenDate,
		Language:   "it",
		Text: "Dice Brewing - partita g42, mossa 57\nTocca a te, Anna (posto 1).\n\nLe tue opzioni:\n" +
			"  1  PLACE MH1 SEED, MH1+ B3\n  2  BREW R24 IMPROVE SMALT\n  3  PASS\n\n-- \n" +
			"Arbitro della partita g42 - rispondi STATUS per il tabellone",
	}
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("missing golden file (run with -update after checking): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestComposeGolden(t *testing.T) {
	o := replyOut(t)
	raw, err := Compose(o)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "compose-reply.eml", raw)

	j := replyOut(t)
	j.Reply = false
	j.AllowOOF = true
	j.HideSecret = true
	j.Subject = "Dice Brewing: reminder"
	j.InReplyTo, j.References = nil, nil
	j.JSON = []byte(`{"game":"g42","move":57,"options":["PLACE MH1 SEED, MH1+ B3","PASS"]}`)
	j.JSONName = "g42-57.json"
	raw, err = Compose(j)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "compose-json.eml", raw)
}

func header(raw []byte, key string) []string {
	head := string(raw)
	if i := strings.Index(head, "\r\n\r\n"); i >= 0 {
		head = head[:i]
	}
	head = strings.ReplaceAll(head, "\r\n ", " ")
	var out []string
	for _, l := range strings.Split(head, "\r\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(k, key) {
			out = append(out, strings.TrimSpace(v))
		}
	}
	return out
}

func TestComposeHeaders(t *testing.T) {
	o := replyOut(t)
	raw, err := Compose(o)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Compose(o)
	if !bytes.Equal(raw, again) {
		t.Fatal("Compose is not deterministic")
	}
	expect := map[string]string{
		"References":               "<rf.g42.x.55.k3@example.test> <rf.g42.1.56.z9@example.test> <CAJx7ab2@mail.gmail.com>",
		"In-Reply-To":              "<CAJx7ab2@mail.gmail.com>",
		"Message-ID":               "<rf.g42.1.57.a1b2@example.test>",
		"Auto-Submitted":           "auto-replied",
		"X-Auto-Response-Suppress": "All",
		"X-Loop":                   "referee@example.test",
		"Date":                     "Tue, 12 May 2026 10:14:00 +0200",
		"Reply-To":                 `"Referee" <referee+g42.1.k7x9q2abcd3e.57@example.test>`,
		"To":                       `"Anna Rossi" <anna@rossi.example>`,
		"From":                     `"Referee" <referee@example.test>`,
		"Content-Language":         "it",
	}
	for k, want := range expect {
		got := header(raw, k)
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	for _, k := range []string{"User-Agent", "X-Mailer", "Precedence", "List-Unsubscribe"} {
		if got := header(raw, k); len(got) != 0 {
			t.Errorf("unexpected %s: %q", k, got)
		}
	}
	if s := header(raw, "Subject"); len(s) != 1 || !strings.HasPrefix(s[0], "=?UTF-8?q?") {
		t.Errorf("non-ASCII subject not encoded: %q", s)
	}
	if bytes.Contains(raw, []byte(", <")) {
		t.Error("comma-joined message ids (the go-mail SetGenHeader trap)")
	}
	o.Reply = false
	raw, _ = Compose(o)
	if got := header(raw, "Auto-Submitted"); len(got) != 1 || got[0] != "auto-generated" {
		t.Errorf("unprompted mail: Auto-Submitted = %q", got)
	}
}

func TestComposeErrors(t *testing.T) {
	mods := map[string]func(*Out){
		"no message id":    func(o *Out) { o.MessageID = "" },
		"bad message id":   func(o *Out) { o.MessageID = "<no at sign>" },
		"no date":          func(o *Out) { o.Date = time.Time{} },
		"bad from":         func(o *Out) { o.From.Addr = "referee" },
		"bad to":           func(o *Out) { o.To.Addr = "anna at rossi" },
		"bad reference":    func(o *Out) { o.References = []string{"<a b@c>"} },
		"bad in-reply-to":  func(o *Out) { o.InReplyTo = []string{"x"} },
		"bad reply line":   func(o *Out) { o.ReplyLine = "reply above" },
		"invalid tag":      func(o *Out) { o.Tag.Secret = "short" },
		"header injection": func(o *Out) { o.MessageID = "<a@b>\r\nBcc: x@y" },
	}
	for name, mod := range mods {
		o := replyOut(t)
		mod(&o)
		if _, err := Compose(o); !errors.Is(err, ErrCompose) {
			t.Errorf("%s: err = %v, want ErrCompose", name, err)
		}
	}
}

func quoteLines(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("> " + l + "\n")
	}
	return b.String()
}

func TestComposeNoHeaderInjection(t *testing.T) {
	o := replyOut(t)
	o.Subject = "hello\r\nBcc: evil@example.net"
	o.To.Name = "Anna\r\nBcc: evil@example.net"
	o.From.Name = "Referee\nX-Evil: 1"
	raw, err := Compose(o)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte("\nBcc:")) || bytes.Contains(raw, []byte("\nX-Evil:")) {
		t.Errorf("header injection:\n%s", raw)
	}
	m, err := Parse(raw, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Header("Bcc")) != 0 || len(m.Header("X-Evil")) != 0 || len(m.To) != 1 || m.To[0].Addr != "anna@rossi.example" {
		t.Errorf("injected fields parsed back: %+v", m)
	}
}
