package mailfmt

import (
	"bytes"
	"net/mail"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// hostileNames are the display names of issue 23 and their kind: quotes,
// backslashes, controls, bidi overrides, encoded-word look-alikes, header
// injection, very long text.
var hostileNames = []string{
	`Pat O"Brien`, `Pat O\"Brien`, `Pat\`, `"`, `\`, `""`, `"Pat`, `Pat"`, `a\b`, `\"\"\\`,
	"\u202ePASS", "Pat\u200b\u200dO", "x\x00y", "tab\there", "line\r\nBcc: evil@example.org",
	"=?utf-8?q?=22?=", "=?x?b?IiIi?=", "<evil@example.org>", "Pat, O'Brien <x@y>", "(comment",
	"é \"q\\", "日本語の名前", "\xff\xfe bad utf8", strings.Repeat("ä\"", 500), "",
	"   ", "a;b:c@d", "\U0001F600 smile", "\ue000private",
}

// TestComposeAnyName is issue 23's rule 1: every display name, however
// hostile, composes (To and Reply-To), and the header reads back as the
// cleaned name.
func TestComposeAnyName(t *testing.T) {
	for _, n := range hostileNames {
		checkComposeName(t, n, n)
	}
}

func FuzzComposeName(f *testing.F) {
	for _, n := range hostileNames {
		f.Add(n, n)
	}
	f.Fuzz(checkComposeName)
}

func checkComposeName(t *testing.T, to, from string) {
	out := mailmsg.Out{
		From: mailmsg.Address{Name: from, Addr: "referee@example.org"}, To: mailmsg.Address{Name: to, Addr: "pat@example.org"},
		Tag: mailmsg.Tag{Kind: mailmsg.TagPlayer, Seat: mailmsg.NoSeat, Secret: "k7x9q2abcd3e", Token: mailmsg.NoToken}, Subject: "Hello " + to, MessageID: "<1@example.org>",
		Date: time.Unix(1e9, 0), Text: "hi",
	}
	raw, err := mailmsg.Compose(out)
	if err != nil {
		t.Fatalf("name %q: %v", to, err)
	}
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("name %q: the composed mail does not parse: %v", to, err)
	}
	for _, h := range []struct{ field, want string }{{"To", mailmsg.CleanName(to)}, {"From", mailmsg.CleanName(from)}, {"Reply-To", mailmsg.CleanName(from)}} {
		a, err := mailmsg.ParseAddress(m.Header.Get(h.field))
		if err != nil {
			t.Fatalf("name %q: %s %q does not parse: %v", to, h.field, m.Header.Get(h.field), err)
		}
		if a.Name != h.want {
			t.Fatalf("name %q: %s name reads %q, want %q", to, h.field, a.Name, h.want)
		}
	}
	if len(m.Header["Bcc"]) > 0 {
		t.Fatalf("name %q injected a header", to)
	}
}

// TestCleanName pins the cleaning itself: controls and invisible format
// characters go, space folds, the length is capped, the rest is kept.
func TestCleanName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`Pat O"Brien`, `Pat O"Brien`},
		{`Pat\`, `Pat\`},
		{"\u202ePASS", "PASS"},
		{"  Anna \t\r\n Rossi ", "Anna Rossi"},
		{"x\x00y", "xy"},
		{"\xffA", "\uFFFDA"},
	} {
		if got := mailmsg.CleanName(c.in); got != c.want {
			t.Errorf("CleanName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	long := mailmsg.CleanName(strings.Repeat("é", 3*mailmsg.MaxNameRunes))
	if utf8.RuneCountInString(long) != mailmsg.MaxNameRunes {
		t.Errorf("a long name keeps %d characters, want %d", utf8.RuneCountInString(long), mailmsg.MaxNameRunes)
	}
}
