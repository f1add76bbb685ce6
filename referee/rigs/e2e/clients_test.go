package e2e_test

import (
	"bytes"
	"fmt"
	"mime/quotedprintable"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/mailfmt"
)

// The mail clients people use, as they shape a mail: Gmail (top-posted,
// multipart/alternative, "On ... wrote:" over a "> " quote, its "-- "
// signature), Outlook (top-posted, quoted-printable, a signature without a
// delimiter and the original below a line and a header block in the
// writer's language, not quoted at all) and Thunderbird (answers.go:
// bottom-posted under the quote, format=flowed). Each returns the address
// to write to and the raw mail.

// gmailNew is a new mail written in Gmail: a text and an HTML part, the
// signature under "-- ".
func gmailNew(from, name, to, subject, id, text, sig string) []byte {
	return gmailMail(from, name, to, subject, id, "", text+"\r\n\r\n-- \r\n"+sig)
}

// gmailReply is a reply written in Gmail: the answer on top, the
// signature, then "On <date>, <sender> wrote:" and the original quoted
// with "> ".
func gmailReply(t *testing.T, orig []byte, from, name, id, text, sig string) (to string, raw []byte) {
	t.Helper()
	m := parse(t, orig)
	to = m.ReplyTo[0].Addr
	var b strings.Builder
	b.WriteString(text + "\r\n\r\n-- \r\n" + sig + "\r\n\r\n")
	fmt.Fprintf(&b, "On %s %s <%s> wrote:\r\n\r\n", m.Date.Format("Mon, Jan 2, 2006 at 3:04 PM"), m.From.Name, m.From.Addr)
	for _, l := range strings.Split(strings.TrimRight(m.Text, "\n"), "\n") {
		b.WriteString(strings.TrimRight("> "+l, " ") + "\r\n")
	}
	return to, gmailMail(from, name, to, "Re: "+m.Subject, id, m.MessageID, b.String())
}

func gmailMail(from, name, to, subject, id, inReplyTo, body string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "MIME-Version: 1.0\r\nDate: %s\r\nMessage-ID: <%s@mail.gmail.example.test>\r\n",
		time.Now().UTC().Format(time.RFC1123Z), id)
	if inReplyTo != "" {
		fmt.Fprintf(&b, "References: %s\r\nIn-Reply-To: %s\r\n", inReplyTo, inReplyTo)
	}
	fmt.Fprintf(&b, "Subject: %s\r\nFrom: %s <%s>\r\nTo: %s\r\n"+
		"Content-Type: multipart/alternative; boundary=\"0000000000004f3b2a05e1c0ffee\"\r\n\r\n"+
		"--0000000000004f3b2a05e1c0ffee\r\nContent-Type: text/plain; charset=\"UTF-8\"\r\n\r\n%s\r\n\r\n"+
		"--0000000000004f3b2a05e1c0ffee\r\nContent-Type: text/html; charset=\"UTF-8\"\r\n\r\n<div dir=\"ltr\">%s</div>\r\n\r\n"+
		"--0000000000004f3b2a05e1c0ffee--\r\n",
		subject, name, from, to, body, strings.ReplaceAll(strings.ReplaceAll(body, "<", "&lt;"), "\r\n", "<br>\r\n"))
	return []byte(b.String())
}

// outlookReply is a reply written in Outlook (desktop, Italian): the
// answer on top, the signature (no "-- "), a line of underscores and the
// original's header block in Italian, then the original unquoted;
// quoted-printable, with Outlook's own header fields.
func outlookReply(t *testing.T, orig []byte, from, name, id, text, sig string) (to string, raw []byte) {
	t.Helper()
	m := parse(t, orig)
	to = m.ReplyTo[0].Addr
	var body strings.Builder
	body.WriteString(text + "\r\n\r\n" + sig + "\r\n\r\n________________________________\r\n")
	fmt.Fprintf(&body, "Da: %s <%s>\r\nInviato: %s\r\nA: %s <%s>\r\nOggetto: %s\r\n\r\n",
		m.From.Name, m.From.Addr, m.Date.Format("02/01/2006 15:04"), name, from, m.Subject)
	for _, l := range strings.Split(strings.TrimRight(m.Text, "\n"), "\n") {
		body.WriteString(l + "\r\n")
	}
	var qp bytes.Buffer
	w := quotedprintable.NewWriter(&qp)
	if _, err := w.Write([]byte(body.String())); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s <%s>\r\nTo: Referee <%s>\r\nSubject: R: %s\r\nThread-Topic: %s\r\n"+
		"Thread-Index: AQHbXq0wN2xkZXJpdGE=\r\nDate: %s\r\nMessage-ID: <%s@outlook.example.test>\r\n"+
		"References: %s\r\nIn-Reply-To: %s\r\nAccept-Language: it-IT, en-US\r\nContent-Language: it-IT\r\n"+
		"X-MS-Has-Attach:\r\nX-MS-TNEF-Correlator:\r\nMIME-Version: 1.0\r\n"+
		"Content-Type: text/plain; charset=\"utf-8\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n%s",
		name, from, to, m.Subject, m.Subject, time.Now().UTC().Format(time.RFC1123Z), id, m.MessageID, m.MessageID, qp.String())
	return to, []byte(b.String())
}

func parse(t *testing.T, raw []byte) *mailfmt.Message {
	t.Helper()
	m, err := mailfmt.Parse(raw, mailfmt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.ReplyTo) == 0 {
		t.Fatalf("no Reply-To in the referee's mail:\n%s", raw)
	}
	return m
}
