package mailin

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// A mail over the size limit is not read: a registered player is told, once
// (the same mail again is a duplicate), in their language; a stranger gets
// nothing.
func TestIntakeTooLarge(t *testing.T) {
	h := newMailHarness(t)
	if _, err := h.r.Organise(org, "NEW claim id=c1\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob"); err != nil {
		t.Fatal(err)
	}
	h.inbox()
	h.in = New(h.r, Options{MaxMessageBytes: 2048})
	big := []byte("From: Ann <ann@example.test>\r\nTo: referee@example.test\r\nSubject: my move\r\nMessage-ID: <big1@example.test>\r\n" +
		"Date: Mon, 23 Nov 2026 09:05:00 +0000\r\n\r\nCLAIM 3\r\n" + strings.Repeat("padding line\r\n", 400))
	if out := h.handle(big); out.Status != "rejected" || out.Detail != "message too large" {
		t.Fatalf("too large: %+v", out)
	}
	in := h.inbox()
	if len(in[ann]) != 1 {
		t.Fatalf("%d mails to ann", len(in[ann]))
	}
	m, _ := mailmsg.Parse(in[ann][0], mailmsg.Options{})
	contains(t, m.Text, "too large", "more than 2048 bytes")
	if out := h.handle(big); out.Status != "duplicate" {
		t.Errorf("again: %+v", out)
	}
	stranger := strings.Replace(strings.Replace(string(big), "ann@example.test", "zed@else.test", 1), "<big1@", "<big2@", 1)
	if out := h.handle([]byte(stranger)); out.Status != "ignored" {
		t.Errorf("a stranger's large mail: %+v", out)
	}
	if ms := h.inbox(); len(ms) != 0 {
		t.Errorf("mails after the duplicate and the stranger: %v", ms)
	}
}

// With RequireDKIM and a trusted authserv-id, only a mail whose receiving
// server vouches for the From domain (an aligned DKIM pass, or DMARC) acts
// for the seat; the same reply without it is refused as failing
// authentication (issue 11, item 2).
func TestIntakeSenderAuthentication(t *testing.T) {
	h := newMailHarness(t)
	if _, err := h.r.Organise(org, "NEW claim id=c1\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob"); err != nil {
		t.Fatal(err)
	}
	in := h.inbox()
	h.in = New(h.r, Options{Auth: AuthPolicy{RequireDKIM: true, AuthservID: "mx.example.test"}})
	unsigned := h.reply(in[ann][0], ann, "JOIN")
	if out := h.handle(unsigned); out.Status != "rejected" || !strings.Contains(out.Detail, "authentication") {
		t.Fatalf("unauthenticated JOIN: %+v", out)
	}
	// Another server's verdict, or a pass for another domain, is no proof.
	for i, ar := range []string{
		"Authentication-Results: other.example; dkim=pass header.d=example.test\r\n",
		"Authentication-Results: mx.example.test; dkim=pass header.d=evil.example\r\n",
	} {
		raw := []byte(ar + strings.Replace(string(h.reply(in[ann][0], ann, "JOIN")), "Message-ID: <reply", "Message-ID: <x"+string(rune('a'+i)), 1))
		if out := h.handle(raw); out.Status == "answered" {
			t.Errorf("%q made the JOIN count: %+v", ar, out)
		}
	}
	signed := []byte("Authentication-Results: mx.example.test; dkim=pass header.d=example.test header.s=s1\r\n" +
		string(h.reply(in[ann][0], ann, "JOIN")))
	if out := h.handle(signed); out.Status != "answered" {
		t.Fatalf("authenticated JOIN: %+v", out)
	}
	dmarc := []byte("Authentication-Results: mx.example.test; dkim=fail; dmarc=pass header.from=example.test\r\n" +
		string(h.reply(in[bob][0], bob, "JOIN")))
	if out := h.handle(dmarc); out.Status != "answered" {
		t.Fatalf("JOIN with a DMARC pass: %+v", out)
	}
	if g := h.game("c1"); g.Status != "running" {
		t.Errorf("game %s after both authenticated JOINs", g.Status)
	}
}
