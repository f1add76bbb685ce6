package mailmsg

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func mustParse(t *testing.T, raw string) *Message {
	t.Helper()
	m, err := Parse([]byte(strings.ReplaceAll(raw, "\n", "\r\n")), Options{})
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return m
}

// TestParseHeaderTraps covers what jordan-wright/email gets wrong on its
// own: quoted commas in display names, encoded words in non-UTF-8
// charsets, and an address list split on commas.
func TestParseHeaderTraps(t *testing.T) {
	m := mustParse(t, `From: =?windows-1252?Q?=93Rossi=2C_Anna=94?= <Anna.Rossi@Example.ORG>
To: "Roe, Jane" <jane@example.net>, Bob <bob@example.net>
Cc: =?iso-8859-1?Q?J=FCrgen?= <jw@example.de>
Reply-To: "Dubois, Claire" <claire@example.fr>
Sender: list-bounces@lists.example.net
Subject: =?windows-1252?Q?Re:_[g42_#57]_mossa_=96_=93ok=94?=
Message-ID: <abc@mail.example.org>
In-Reply-To: <rf.g42.1.57.a1@example.test>
References: <a@x> <b@y>
	<c@z>
Date: Tue, 12 May 2026 10:20:03 +0200
Return-Path: <>
Authentication-Results: top.example; dkim=pass header.d=example.org
Authentication-Results: lower.example; dkim=fail header.d=example.org
Delivered-To: Referee+G42.1.ABCDEFGHIJKL.57@Example.TEST
X-Original-To: referee+g42.1.abcdefghijkl.57@example.test
Content-Type: text/plain; charset=us-ascii

PASS
`)
	if m.From.Name != `"Rossi, Anna"` || m.From.Addr != "Anna.Rossi@example.org" {
		t.Errorf("From = %q %q", m.From.Name, m.From.Addr)
	}
	if len(m.To) != 2 || m.To[0].Name != "Roe, Jane" || m.To[0].Addr != "jane@example.net" || m.To[1].Addr != "bob@example.net" {
		t.Errorf("To = %+v", m.To)
	}
	if len(m.Cc) != 1 || m.Cc[0].Name != "Jürgen" {
		t.Errorf("Cc = %+v", m.Cc)
	}
	if len(m.ReplyTo) != 1 || m.ReplyTo[0].Name != "Dubois, Claire" {
		t.Errorf("Reply-To = %+v", m.ReplyTo)
	}
	if m.Sender.Addr != "list-bounces@lists.example.net" {
		t.Errorf("Sender = %+v", m.Sender)
	}
	if m.Subject != `Re: [g42 #57] mossa - "ok"` {
		t.Errorf("Subject = %q", m.Subject)
	}
	if m.MessageID != "<abc@mail.example.org>" || m.MessageIDDigest {
		t.Errorf("Message-ID = %q %v", m.MessageID, m.MessageIDDigest)
	}
	if fmt.Sprint(m.InReplyTo) != "[<rf.g42.1.57.a1@example.test>]" || fmt.Sprint(m.References) != "[<a@x> <b@y> <c@z>]" {
		t.Errorf("threading = %v %v", m.InReplyTo, m.References)
	}
	if m.Date.IsZero() || m.Date.UTC().Hour() != 8 {
		t.Errorf("Date = %v", m.Date)
	}
	if !m.NullReturnPath || m.ReturnPath != "" {
		t.Errorf("Return-Path = %q null=%v", m.ReturnPath, m.NullReturnPath)
	}
	if len(m.AuthenticationResults) != 2 || !strings.HasPrefix(m.AuthenticationResults[0], "top.example") {
		t.Errorf("Authentication-Results order = %q", m.AuthenticationResults)
	}
	if fmt.Sprint(m.DeliveredTo) != "[Referee+G42.1.ABCDEFGHIJKL.57@example.test]" || len(m.XOriginalTo) != 1 {
		t.Errorf("Delivered-To %v X-Original-To %v", m.DeliveredTo, m.XOriginalTo)
	}
	if got := m.Header("authentication-results"); len(got) != 2 {
		t.Errorf("Header() = %q", got)
	}
	if m.Text != "PASS\n" {
		t.Errorf("Text = %q", m.Text)
	}
}

func TestParseMalformedHeaders(t *testing.T) {
	m := mustParse(t, `From: Anna Rossi anna@example.org (no angle brackets, unquoted)
To: <broken@, bob@example.net
Message-ID: not-bracketed@example.org
References: <one@x>, <two@x> junk <three>
Date: yesterday
Subject: plain

x
`)
	if m.From.Addr != "anna@example.org" {
		t.Errorf("lenient From = %+v", m.From)
	}
	if m.MessageID != "<not-bracketed@example.org>" {
		t.Errorf("lenient Message-ID = %q", m.MessageID)
	}
	if fmt.Sprint(m.References) != "[<one@x> <two@x> <three>]" {
		t.Errorf("lenient References = %v", m.References)
	}
	if !m.Date.IsZero() || len(m.Warnings) == 0 {
		t.Errorf("bad Date should be zero with a warning: %v %v", m.Date, m.Warnings)
	}
}

func TestParseErrors(t *testing.T) {
	if _, err := Parse(nil, Options{}); !errors.Is(err, ErrEmpty) {
		t.Errorf("nil input: %v", err)
	}
	if _, err := Parse([]byte(" \r\n"), Options{}); !errors.Is(err, ErrEmpty) {
		t.Errorf("blank input: %v", err)
	}
	if _, err := Parse([]byte("From anna@x\r\n no colon here\r\n\r\nbody"), Options{}); !errors.Is(err, ErrMalformed) {
		t.Errorf("malformed header: %v", err)
	}
	big := "From: Anna <anna@example.org>\r\nSubject: big\r\n\r\n" + strings.Repeat("x", 5000)
	m, err := Parse([]byte(big), Options{MaxBytes: 4096})
	var tl *TooLargeError
	if !errors.Is(err, ErrTooLarge) || !errors.As(err, &tl) || tl.Limit != 4096 || tl.Size != len(big) {
		t.Fatalf("too large: %v", err)
	}
	if m == nil || m.From.Addr != "anna@example.org" || m.Text != "" {
		t.Errorf("too large message should keep its headers only: %+v", m)
	}
}

func TestDigestMessageID(t *testing.T) {
	msg := "From: Anna <anna@example.org>\nSubject: x\nDate: Tue, 12 May 2026 10:00:00 +0200\n\nPASS\n"
	a := mustParse(t, msg)
	b := mustParse(t, "Received: from a by b; Tue, 12 May 2026 10:00:01 +0200\nDelivered-To: referee@example.test\nReturn-Path: <anna@example.org>\n"+msg)
	c := mustParse(t, strings.Replace(msg, "PASS", "DONE", 1))
	if !a.MessageIDDigest || !strings.HasSuffix(a.MessageID, "@"+DigestDomain+">") || !strings.HasPrefix(a.MessageID, "<digest.") {
		t.Fatalf("digest id = %q %v", a.MessageID, a.MessageIDDigest)
	}
	if a.MessageID != b.MessageID {
		t.Errorf("trace fields changed the digest: %s vs %s", a.MessageID, b.MessageID)
	}
	if a.MessageID == c.MessageID {
		t.Errorf("a different body gave the same digest")
	}
}

func TestParseBodies(t *testing.T) {
	// Two text/plain parts: both are kept (jordan-wright keeps the last).
	m := mustParse(t, `Content-Type: multipart/mixed; boundary=b

--b
Content-Type: text/plain; charset=iso-8859-1
Content-Transfer-Encoding: quoted-printable

STORE Y5 G4 gr=FCn
--b
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: Base64

UEFTUw==
--b
Content-Type: application/pdf
Content-Disposition: attachment; filename="rules.pdf"
Content-Transfer-Encoding: base64

JVBERi0xLjQK
--b--
`)
	if m.Text != "STORE Y5 G4 grün\nPASS" {
		t.Errorf("Text = %q", m.Text)
	}
	if len(m.Attachments) != 1 || m.Attachments[0].Filename != "rules.pdf" || m.Attachments[0].ContentType != "application/pdf" {
		t.Errorf("Attachments = %+v", m.Attachments)
	}

	// A leading mbox separator line is skipped.
	m = mustParse(t, "From anna@example.org Tue May 12 10:00:00 2026\nFrom: Anna <anna@example.org>\n\nPASS\n")
	if m.From.Addr != "anna@example.org" || m.Text != "PASS\n" {
		t.Errorf("mbox line: %+v", m)
	}

	// A forwarded message attached as message/rfc822 is not the body.
	m = mustParse(t, `Content-Type: multipart/mixed; boundary=b

--b
Content-Type: text/plain

DONE
--b
Content-Type: message/rfc822

From: Referee <referee@example.test>
Subject: old

PLACE MH1 SEED
--b--
`)
	if m.Text != "DONE" {
		t.Errorf("rfc822 attachment leaked: %q", m.Text)
	}
}

func TestParseLimits(t *testing.T) {
	// 40 nested multiparts: the walk stops at MaxDepth without failing.
	var b strings.Builder
	b.WriteString("From: x@example.org\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n", i, i)
	}
	b.WriteString("Content-Type: text/plain\n\nPASS\n")
	for i := 39; i >= 0; i-- {
		fmt.Fprintf(&b, "--b%d--\n", i)
	}
	m := mustParse(t, b.String())
	if m.Text != "" || !strings.Contains(strings.Join(m.Warnings, ";"), "too deep") {
		t.Errorf("deep nesting: text %q warnings %v", m.Text, m.Warnings)
	}
	m2, err := Parse([]byte(strings.ReplaceAll(b.String(), "\n", "\r\n")), Options{MaxDepth: 64})
	if err != nil || m2.Text != "PASS" {
		t.Errorf("deep nesting within MaxDepth: %q, %v", m2.Text, err)
	}

	// Many parts: only MaxParts are visited.
	b.Reset()
	b.WriteString("Content-Type: multipart/mixed; boundary=b\n\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "--b\nContent-Type: text/plain\n\nline%d\n", i)
	}
	b.WriteString("--b--\n")
	m3, err := Parse([]byte(b.String()), Options{MaxParts: 5})
	if err != nil || strings.Count(m3.Text, "line") != 5 {
		t.Errorf("MaxParts: %q, %v", m3.Text, err)
	}
}

func TestParseBrokenMultipart(t *testing.T) {
	// No closing boundary and a truncated base64 part: what was read is kept.
	m := mustParse(t, `Content-Type: multipart/alternative; boundary=zz

--zz
Content-Type: text/plain; charset=utf-8

MAKE B14
--zz
Content-Type: text/html; charset=utf-8
Content-Transfer-Encoding: base64

PGI+Ym9sZDwvYj4=!!!notbase64
`)
	if !strings.HasPrefix(m.Text, "MAKE B14") {
		t.Errorf("Text = %q (warnings %v)", m.Text, m.Warnings)
	}
	// Boundary missing from the header: the body is read as text.
	m = mustParse(t, "Content-Type: multipart/mixed\n\nPASS\n")
	if m.Text != "PASS\n" {
		t.Errorf("multipart without boundary: %q", m.Text)
	}
	// Boundary declared but never used: mislabelled text, in its charset.
	m = mustParse(t, "Content-Type: multipart/mixed; boundary=zz; charset=iso-8859-1\n\nPASS gr\xfcn\n")
	if m.Text != "PASS grün\n" {
		t.Errorf("multipart whose boundary never occurs: %q", m.Text)
	}
	// Unparseable parameters: go-message returns the raw value as the type;
	// the part is still read as text/plain with its charset.
	m = mustParse(t, "Content-Type: multipart/mixed; boundary=zz\n\n--zz\nContent-Type: text/plain; charset=iso-8859-1; name=\"\n\nMAKE B14 \xe0\n--zz--\n")
	if m.Text != "MAKE B14 à" {
		t.Errorf("part with unparseable Content-Type: %q (%v)", m.Text, m.Warnings)
	}
	// A Content-Type without type/subtype is text/plain (RFC 2045).
	m = mustParse(t, "Content-Type: garbage\n\nPASS\n")
	if m.Text != "PASS\n" || m.ContentType != "text/plain" {
		t.Errorf("garbage Content-Type: %q %q", m.Text, m.ContentType)
	}
}

// Issue 10: the text/plain alternative, when not empty, is used without
// converting the HTML part; an empty (or blank) text/plain falls back to
// the HTML.
func TestParsePlainPreferredHTMLOnlyWhenPlainEmpty(t *testing.T) {
	mk := func(plain string) []byte {
		return []byte("From: a@example.org\r\nMessage-ID: <x@example.org>\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n" +
			"--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + plain + "\r\n" +
			"--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<div>FROM HTML</div>\r\n--b--\r\n")
	}
	m, err := Parse(mk("PASS"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.FromHTML || strings.TrimSpace(m.Text) != "PASS" {
		t.Errorf("plain part not used: FromHTML=%v text %q", m.FromHTML, m.Text)
	}
	for _, blank := range []string{"", "  \r\n \r\n"} {
		m, err = Parse(mk(blank), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !m.FromHTML || strings.TrimSpace(m.Text) != "FROM HTML" {
			t.Errorf("blank plain %q: FromHTML=%v text %q", blank, m.FromHTML, m.Text)
		}
	}
}
