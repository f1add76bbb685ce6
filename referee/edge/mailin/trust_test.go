package mailin

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/referee"
)

// registerMail is an untagged REGISTER from addr with the given From
// display name (written as is) and extra header lines.
func registerMail(n int, from, text, extra string) []byte {
	return []byte(extra + "From: " + from + "\r\nTo: referee@example.test\r\nSubject: hello\r\n" +
		fmt.Sprintf("Message-ID: <reg%d@example.org>\r\n", n) + "Date: Mon, 23 Nov 2026 09:05:00 +0000\r\n\r\n" + text + "\r\n")
}

// Issue 23, no backscatter, through the intake: a REGISTER is answered only
// when the From is proven, and an Authentication-Results header counts
// only with our own configured authserv-id.
func TestIntakeRegisterNeedsAuthentication(t *testing.T) {
	h := newMailHarness(t, func(o *referee.Options) { o.RegisterNeedsAuth = true })
	h.in = New(h.r, Options{Auth: AuthPolicy{AuthservID: "mx.example.test"}})
	cases := []struct {
		extra string
		mails int
	}{
		{"", 0},
		{"Authentication-Results: other.example; dkim=pass header.d=example.org\r\n", 0},
		{"Authentication-Results: mx.example.test; dkim=pass header.d=evil.example\r\n", 0},
		{"Authentication-Results: mx.example.test; dkim=fail header.d=example.org\r\n", 0},
		{"Authentication-Results: mx.example.test; dkim=pass header.d=example.org header.s=s1\r\n", 1},
	}
	for i, c := range cases {
		addr := fmt.Sprintf("pat%d@example.org", i)
		h.handle(registerMail(i, "Pat <"+addr+">", "REGISTER", c.extra))
		if got := len(h.inbox()[addr]); got != c.mails {
			t.Errorf("REGISTER with %q: %d mails, want %d", c.extra, got, c.mails)
		}
	}
}

// Issue 23, rule 1, through the intake and the real composer: every hostile
// display name, from the From field or written after REGISTER or in an
// organiser's PLAYER line, gets its mail composed; nothing fails.
func TestIntakeHostileNamesCompose(t *testing.T) {
	h := newMailHarness(t)
	names := []string{`Pat O"Brien`, `Pat O\"Brien`, `Pat\`, `"`, `\`, "\u202ePASS", "x\x00y", "é \"q\\",
		strings.Repeat("ä\"", 300), "=?utf-8?q?=22?=", "a\r\nBcc: evil@example.org"}
	n := 0
	for i, name := range names {
		// The From display name as a sender would write it (quoted, with
		// its quotes and backslashes escaped or not).
		for _, from := range []string{
			`"` + name + `" <p` + fmt.Sprint(i) + `x@example.org>`,
			mailfmt.Address{Name: name, Addr: fmt.Sprintf("p%dy@example.org", i)}.String(),
		} {
			n++
			raw := registerMail(n, strings.NewReplacer("\r", "", "\n", "").Replace(from), "REGISTER "+name, "")
			out, err := h.in.HandleMail(t.Context(), Inbound{Raw: raw, Source: "test", Keys: []string{fmt.Sprintf("k%d", n)}})
			if err != nil {
				t.Fatalf("REGISTER from %q: %v (before issue 23 this error was taken as transient, for ever)", from, err)
			}
			if out.Status == referee.OutcomeApplied && len(h.inbox()) != 1 {
				t.Errorf("REGISTER from %q: no confirmation mail", from)
			}
		}
		addr := fmt.Sprintf("inv%d@example.org", i)
		// PLAYER takes the name as one word, as written.
		word := strings.Join(strings.Fields(name), "")
		lines, err := h.r.Organise(org, fmt.Sprintf("NEW claim id=n%d\nPLAYER %s %s\nPLAYER bob%d@example.org Bob", i, addr, word, i))
		if err != nil {
			t.Fatalf("PLAYER with name %q: %v", name, err)
		}
		if len(h.inbox()[addr]) != 1 {
			t.Errorf("PLAYER %q: no invitation (%v)", word, lines)
		}
	}
}
