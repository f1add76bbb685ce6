package mailin

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
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
			mailmsg.Address{Name: name, Addr: fmt.Sprintf("p%dy@example.org", i)}.String(),
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

// Issue 23, tell don't drop: a registered player's mail with a list or
// robot header (List-Id, Precedence: bulk, list or junk, another robot's
// X-Loop) is not applied, and the player is told why, at most once a day;
// a stranger's is never answered.
func TestIntakeListMailTold(t *testing.T) {
	h := newMailHarness(t)
	if _, err := h.r.Organise(org, "NEW claim id=c1\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob"); err != nil {
		t.Fatal(err)
	}
	in := h.inbox()
	for i, hdr := range []string{"List-Id: <players.lists.example>", "Precedence: bulk", "Precedence: junk", "X-Loop: robot@else.example"} {
		raw := []byte(hdr + "\r\n" + strings.Replace(string(h.reply(in[ann][0], ann, "JOIN")), "Message-ID: <reply", fmt.Sprintf("Message-ID: <l%d", i), 1))
		out := h.handle(raw)
		if out.Status == referee.OutcomeApplied || out.Status == referee.OutcomeAnswered {
			t.Fatalf("%s: the JOIN was applied: %+v", hdr, out)
		}
		got := h.inbox()[ann]
		want := map[bool]int{true: 1, false: 0}[i == 0]
		if len(got) != want {
			t.Fatalf("%s: %d notes to ann, want %d (once a day)", hdr, len(got), want)
		}
		if want == 1 {
			m, _ := mailmsg.Parse(got[0], mailmsg.Options{})
			contains(t, m.Text, "List-Id", "never acts on mail sent by lists")
		}
	}
	if g := h.game("c1"); g.Seats[0].State != referee.SeatInvited {
		t.Error("a list mail's JOIN was applied")
	}
	stranger := registerMail(99, "Zed <zed@else.example>", "REGISTER", "List-Id: <x.example>\r\n")
	h.handle(stranger)
	if ms := h.inbox(); len(ms) != 0 {
		t.Errorf("a stranger's list mail was answered: %v", ms)
	}
	h.clock.Advance(25 * time.Hour)
	raw := []byte("Precedence: list\r\n" + strings.Replace(string(h.reply(in[ann][0], ann, "JOIN")), "Message-ID: <reply", "Message-ID: <nextday", 1))
	h.handle(raw)
	if got := h.inbox()[ann]; len(got) != 1 {
		t.Errorf("the next day: %d notes to ann, want 1", len(got))
	}
}

// Issue 23, trust only what we can check: a seat's secret written in the
// Subject of a mail to the plain address is no authentication (subjects
// travel in previews, forwards and screenshots); the same mail to the
// seat's reply address acts.
func TestIntakeSubjectSecretIsNoAuthentication(t *testing.T) {
	h := newMailHarness(t)
	if _, err := h.r.Organise(org, "NEW claim id=c1\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob"); err != nil {
		t.Fatal(err)
	}
	in := h.inbox()
	m, err := mailmsg.Parse(in[ann][0], mailmsg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr := mailmsg.FindTag(&mailmsg.Message{To: m.ReplyTo}, mailmsg.Address{Addr: "referee@example.test"})
	if tr.Tag.Secret == "" {
		t.Fatalf("no secret in the invitation's Reply-To %v", m.ReplyTo)
	}
	subject := mailmsg.SubjectTag(tr.Tag, true) + " JOIN"
	raw := []byte("From: Ann <ann@example.test>\r\nTo: referee@example.test\r\nSubject: " + subject +
		"\r\nMessage-ID: <subj1@example.test>\r\nDate: Mon, 23 Nov 2026 09:05:00 +0000\r\n\r\nJOIN\r\n")
	out := h.handle(raw)
	if out.Status == referee.OutcomeApplied || out.Status == referee.OutcomeAnswered {
		t.Fatalf("a JOIN with the secret in the Subject alone: %+v", out)
	}
	if g := h.game("c1"); g.Seats[0].State != referee.SeatInvited {
		t.Fatalf("ann's seat is %s after a subject-only secret", g.Seats[0].State)
	}
	h.inbox()
	if out := h.handle(h.reply(in[ann][0], ann, "JOIN")); out.Status != referee.OutcomeAnswered && out.Status != referee.OutcomeApplied {
		t.Fatalf("the same JOIN to the reply address: %+v", out)
	}
}

// Issue 23: DKIM alignment is required by default from domains that
// publish an enforcing DMARC policy, even without RequireDKIM: an unsigned
// JOIN claiming such a domain is refused, the same from a domain without
// DMARC (or with p=none) acts, and our own Authentication-Results proves
// it.
func TestIntakeDMARCDomainsNeedDKIM(t *testing.T) {
	for _, c := range []struct {
		name  string
		txt   map[string][]string
		ar    string
		fails bool
	}{
		{"no DMARC", nil, "", false},
		{"p=none", map[string][]string{"_dmarc.example.test": {"v=DMARC1; p=none"}}, "", false},
		{"p=reject", map[string][]string{"_dmarc.example.test": {"v=DMARC1; p=reject; rua=mailto:x@example.test"}}, "", true},
		{"p=quarantine, unsigned", map[string][]string{"_dmarc.example.test": {"v=DMARC1;p=quarantine"}}, "", true},
		{"p=reject, another server's pass", map[string][]string{"_dmarc.example.test": {"v=DMARC1; p=reject"}},
			"Authentication-Results: other.example; dkim=pass header.d=example.test\r\n", true},
		{"p=reject, our pass", map[string][]string{"_dmarc.example.test": {"v=DMARC1; p=reject"}},
			"Authentication-Results: mx.example.test; dkim=pass header.d=example.test header.s=s1\r\n", false},
	} {
		h := newMailHarness(t)
		if _, err := h.r.Organise(org, "NEW claim id=c1\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob"); err != nil {
			t.Fatal(err)
		}
		in := h.inbox()
		lookups := 0
		h.in = New(h.r, Options{Auth: AuthPolicy{DMARCDomains: true, AuthservID: "mx.example.test", LookupTXT: func(d string) ([]string, error) {
			lookups++
			if v, ok := c.txt[d]; ok {
				return v, nil
			}
			return nil, fmt.Errorf("no such host %s", d)
		}}})
		out := h.handle([]byte(c.ar + string(h.reply(in[ann][0], ann, "JOIN"))))
		refused := out.Status == referee.OutcomeRejected && strings.Contains(out.Detail, "authentication")
		if refused != c.fails {
			t.Errorf("%s: %+v", c.name, out)
		}
		h.handle([]byte(c.ar + strings.Replace(string(h.reply(in[bob][0], bob, "JOIN")), "<reply", "<again", 1)))
		if lookups > 2 {
			t.Errorf("%s: %d DNS lookups for two mails from one domain (cached?)", c.name, lookups)
		}
	}
}
