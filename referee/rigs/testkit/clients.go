package testkit

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"html"
	"math/rand/v2"
	"mime"
	"mime/quotedprintable"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// The mail clients people use, as they shape a reply (the rigs that send
// mail through Dovecot and Postfix share them: referee/rigs/e2e,
// referee/rigs/mailstack, referee/rigs/crashtest): Gmail (top-posted,
// multipart/alternative with an HTML part, "On ... wrote:" over a "> "
// quote, a "-- " signature), Outlook (top-posted, quoted-printable, a
// signature without a delimiter and the original below a line and a header
// block in Italian, not quoted at all), Apple Mail (format=flowed, "-- "
// signature, German attribution, the quote below), Thunderbird
// (bottom-posted under the quote, format=flowed) and a phone's HTML-only
// reply (no text part at all, quoted-printable, "Sent from my phone").
// Each reply answers orig (the referee's raw mail): it returns the address
// to write to (orig's Reply-To) and the raw mail, with In-Reply-To and
// References naming orig.

// Client is a mail client as a person replies with it: text is what they
// type (their greeting, command lines and sign-off), sig their signature
// ("\n" between its lines), name the display name of their From.
type Client struct {
	Name  string
	Reply func(t testing.TB, orig []byte, from, name, id, text, sig string) (to string, raw []byte)
}

// Clients are the person-shaped layouts with a text part: Gmail, Outlook,
// Apple Mail and Thunderbird.
var Clients = []Client{
	{"gmail", GmailReply},
	{"outlook", OutlookReply},
	{"apple", AppleMailReply},
	{"thunderbird", ThunderbirdReply},
}

// PhoneHTML is the phone client that sends HTML only (not in Clients: a
// test that wants it says so).
var PhoneHTML = Client{"phone-html", PhoneHTMLReply}

// Parse parses a referee's mail and fails the test if it has no Reply-To.
func Parse(t testing.TB, raw []byte) *mailmsg.Message {
	t.Helper()
	m, err := mailmsg.Parse(raw, mailmsg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.ReplyTo) == 0 {
		t.Fatalf("no Reply-To in the referee's mail:\n%s", raw)
	}
	return m
}

func crlf(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}

// hdr encodes a header value as a client does (RFC 2047 when not ASCII).
func hdr(s string) string { return mime.QEncoding.Encode("utf-8", s) }

func now() string { return time.Now().UTC().Format(time.RFC1123Z) }

// GmailNew is a new mail written in Gmail: a text and an HTML part, the
// signature under "-- ".
func GmailNew(from, name, to, subject, id, text, sig string) []byte {
	return gmailMail(from, name, to, subject, id, "", crlf(text)+"\r\n\r\n-- \r\n"+crlf(sig))
}

// GmailReply is a reply written in Gmail: the answer on top, the
// signature, then "On <date>, <sender> wrote:" and the original quoted
// with "> ".
func GmailReply(t testing.TB, orig []byte, from, name, id, text, sig string) (to string, raw []byte) {
	t.Helper()
	m := Parse(t, orig)
	to = m.ReplyTo[0].Addr
	var b strings.Builder
	b.WriteString(crlf(text) + "\r\n\r\n-- \r\n" + crlf(sig) + "\r\n\r\n")
	fmt.Fprintf(&b, "On %s %s <%s> wrote:\r\n\r\n", m.Date.Format("Mon, Jan 2, 2006 at 3:04 PM"), m.From.Name, m.From.Addr)
	for _, l := range strings.Split(strings.TrimRight(m.Text, "\n"), "\n") {
		b.WriteString(strings.TrimRight("> "+l, " ") + "\r\n")
	}
	return to, gmailMail(from, name, to, "Re: "+m.Subject, id, m.MessageID, b.String())
}

func gmailMail(from, name, to, subject, id, inReplyTo, body string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "MIME-Version: 1.0\r\nDate: %s\r\nMessage-ID: <%s@mail.gmail.example.test>\r\n", now(), id)
	if inReplyTo != "" {
		fmt.Fprintf(&b, "References: %s\r\nIn-Reply-To: %s\r\n", inReplyTo, inReplyTo)
	}
	fmt.Fprintf(&b, "Subject: %s\r\nFrom: %s <%s>\r\nTo: %s\r\n"+
		"Content-Type: multipart/alternative; boundary=\"0000000000004f3b2a05e1c0ffee\"\r\n\r\n"+
		"--0000000000004f3b2a05e1c0ffee\r\nContent-Type: text/plain; charset=\"UTF-8\"\r\n\r\n%s\r\n\r\n"+
		"--0000000000004f3b2a05e1c0ffee\r\nContent-Type: text/html; charset=\"UTF-8\"\r\n\r\n<div dir=\"ltr\">%s</div>\r\n\r\n"+
		"--0000000000004f3b2a05e1c0ffee--\r\n",
		hdr(subject), hdr(name), from, to, body,
		strings.ReplaceAll(strings.ReplaceAll(body, "<", "&lt;"), "\r\n", "<br>\r\n"))
	return []byte(b.String())
}

// OutlookReply is a reply written in Outlook (desktop, Italian): the
// answer on top, the signature (no "-- "), a line of underscores and the
// original's header block in Italian, then the original unquoted;
// quoted-printable, with Outlook's own header fields.
func OutlookReply(t testing.TB, orig []byte, from, name, id, text, sig string) (to string, raw []byte) {
	t.Helper()
	m := Parse(t, orig)
	to = m.ReplyTo[0].Addr
	var body strings.Builder
	body.WriteString(crlf(text) + "\r\n\r\n" + crlf(sig) + "\r\n\r\n________________________________\r\n")
	fmt.Fprintf(&body, "Da: %s <%s>\r\nInviato: %s\r\nA: %s <%s>\r\nOggetto: %s\r\n\r\n",
		m.From.Name, m.From.Addr, m.Date.Format("02/01/2006 15:04"), name, from, m.Subject)
	for _, l := range strings.Split(strings.TrimRight(m.Text, "\n"), "\n") {
		body.WriteString(l + "\r\n")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s <%s>\r\nTo: Referee <%s>\r\nSubject: R: %s\r\nThread-Topic: %s\r\n"+
		"Thread-Index: AQHbXq0wN2xkZXJpdGE=\r\nDate: %s\r\nMessage-ID: <%s@outlook.example.test>\r\n"+
		"References: %s\r\nIn-Reply-To: %s\r\nAccept-Language: it-IT, en-US\r\nContent-Language: it-IT\r\n"+
		"X-MS-Has-Attach:\r\nX-MS-TNEF-Correlator:\r\nMIME-Version: 1.0\r\n"+
		"Content-Type: text/plain; charset=\"utf-8\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n%s",
		hdr(name), from, to, hdr(m.Subject), hdr(m.Subject), now(), id,
		m.MessageID, m.MessageID, qp(t, body.String()))
	return to, []byte(b.String())
}

func qp(t testing.TB, s string) string {
	var out bytes.Buffer
	w := quotedprintable.NewWriter(&out)
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// AppleMailReply is a reply as Apple Mail (German) writes it: the answer
// on top, the signature under "-- ", then "Am <date> um <time> schrieb
// <sender>:" over the original quoted with "> ", format=flowed.
func AppleMailReply(t testing.TB, orig []byte, from, name, id, text, sig string) (to string, raw []byte) {
	t.Helper()
	m := Parse(t, orig)
	to = m.ReplyTo[0].Addr
	var b strings.Builder
	fmt.Fprintf(&b, "Content-Type: text/plain;\r\n\tcharset=utf-8;\r\n\tformat=flowed\r\nContent-Transfer-Encoding: 8bit\r\n"+
		"Mime-Version: 1.0 (Mac OS X Mail 16.0 \\(3774.600.62\\))\r\nSubject: Re: %s\r\nFrom: %s <%s>\r\n"+
		"In-Reply-To: %s\r\nDate: %s\r\nReferences: %s\r\nTo: Referee <%s>\r\nMessage-Id: <%s@apple.example.test>\r\n"+
		"X-Mailer: Apple Mail (2.3774.600.62)\r\n\r\n",
		hdr(m.Subject), hdr(name), from, m.MessageID, now(), m.MessageID, to, id)
	b.WriteString(crlf(text) + "\r\n")
	b.WriteString("\r\n-- \r\n" + crlf(sig) + "\r\n\r\n")
	fmt.Fprintf(&b, "> Am %s um %s schrieb %s <%s>:\r\n> \r\n", m.Date.Format("02.01.2006"), m.Date.Format("15:04"), m.From.Name, m.From.Addr)
	for _, l := range strings.Split(strings.TrimRight(m.Text, "\n"), "\n") {
		// format=flowed: a quoted line keeps its trailing space when it
		// flows into the next.
		b.WriteString(strings.TrimRight("> "+l, " ") + "\r\n")
	}
	return to, []byte(b.String())
}

// ThunderbirdReply is a reply as Thunderbird writes it by default:
// format=flowed, "On <date>, Referee wrote:" over the quoted original, the
// answer below it (bottom-posting), then the player's "-- " signature.
// With no name the From is the bare address.
func ThunderbirdReply(t testing.TB, orig []byte, from, name, id, text, sig string) (to string, raw []byte) {
	t.Helper()
	m := Parse(t, orig)
	to = m.ReplyTo[0].Addr
	if name != "" {
		from = hdr(name) + " <" + from + ">"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Message-ID: <%s@thunderbird.example.test>\r\nDate: %s\r\nMIME-Version: 1.0\r\n"+
		"User-Agent: Mozilla Thunderbird\r\nSubject: Re: %s\r\nTo: Referee <%s>\r\nReferences: %s\r\nIn-Reply-To: %s\r\n"+
		"From: %s\r\nContent-Type: text/plain; charset=UTF-8; format=flowed\r\nContent-Transfer-Encoding: 8bit\r\n\r\n",
		id, now(), hdr(m.Subject), to, m.MessageID, m.MessageID, from)
	b.WriteString("On " + m.Date.Format("1/2/06 3:04 PM") + ", Referee wrote:\r\n")
	for _, l := range strings.Split(strings.TrimRight(m.Text, "\n"), "\n") {
		b.WriteString(">" + strings.TrimRight(" "+l, " ") + "\r\n")
	}
	b.WriteString("\r\n" + crlf(text) + "\r\n")
	b.WriteString("\r\n-- \r\n" + crlf(sig) + "\r\n")
	return to, []byte(b.String())
}

// PhoneHTMLReply is a reply from a phone's mail app that sends HTML only
// (no text/plain part): the answer in <div>s, the signature, then the
// original in a <blockquote> under "On <date>, <sender> wrote:";
// quoted-printable (non-ASCII is encoded).
func PhoneHTMLReply(t testing.TB, orig []byte, from, name, id, text, sig string) (to string, raw []byte) {
	t.Helper()
	m := Parse(t, orig)
	to = m.ReplyTo[0].Addr
	var body strings.Builder
	body.WriteString("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=utf-8\"></head><body>")
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if l == "" {
			body.WriteString("<div dir=\"auto\"><br></div>")
		} else {
			body.WriteString("<div dir=\"auto\">" + html.EscapeString(l) + "</div>")
		}
	}
	body.WriteString("<div dir=\"auto\"><br></div><div dir=\"auto\">" +
		strings.ReplaceAll(html.EscapeString(strings.ReplaceAll(sig, "\r\n", "\n")), "\n", "<br>") + "</div>")
	fmt.Fprintf(&body, "<div><br><div class=\"gmail_quote\">On %s, %s &lt;%s&gt; wrote:<br>"+
		"<blockquote class=\"gmail_quote\" style=\"margin:0 0 0 .8ex;border-left:1px #ccc solid;padding-left:1ex\">",
		m.Date.Format("Mon, Jan 2, 2006, 15:04"), html.EscapeString(m.From.Name), m.From.Addr)
	for _, l := range strings.Split(strings.TrimRight(m.Text, "\n"), "\n") {
		body.WriteString(html.EscapeString(l) + "<br>\r\n")
	}
	body.WriteString("</blockquote></div></div></body></html>\r\n")
	var b strings.Builder
	fmt.Fprintf(&b, "MIME-Version: 1.0\r\nFrom: %s <%s>\r\nTo: Referee <%s>\r\nSubject: Re: %s\r\nDate: %s\r\n"+
		"Message-ID: <%s@phone.example.test>\r\nIn-Reply-To: %s\r\nReferences: %s\r\n"+
		"Content-Type: text/html; charset=\"UTF-8\"\r\nContent-Transfer-Encoding: quoted-printable\r\n"+
		"X-Mailer: PhoneMail 7.2\r\n\r\n%s",
		hdr(name), from, to, hdr(m.Subject), now(), id, m.MessageID, m.MessageID, qp(t, body.String()))
	return to, []byte(b.String())
}

// Greetings and sign-offs people write around their commands, per
// language (en, it, fr, nl); and signatures, with non-ASCII letters (so
// that quoted-printable and 8bit carry them).
var (
	Greetings = map[string][]string{"en": {"Hi,", "Hello!", "Hi referee,"}, "it": {"Ciao!", "Salve,"},
		"fr": {"Bonjour,", "Salut !"}, "nl": {"Hallo,", "Hoi!"}}
	SignOffs = map[string][]string{"en": {"Thanks", "Cheers"}, "it": {"Grazie", "Saluti"},
		"fr": {"Merci", "Bonne journée"}, "nl": {"Bedankt", "Groetjes"}}
	Signatures = []string{"Zoë Müller\nBrauerei Straße, Zürich", "Renée Faßbender — Dice Club", "Sent from my phone",
		SignatureWithNumber, "Jan de Vries\nTel. +31 20 123 4567"}
	// SignatureWithNumber is a signature whose line holds a number, under
	// no "-- " in Outlook: the reader once took "Brauerei Straße 5,
	// Zürich" for a command and refused the whole reply (found by the
	// people tests; mailfmt.IsProse's rule since: a line whose first word
	// can be no command is prose, digits or not).
	SignatureWithNumber = "Zoë Müller\nBrauerei Straße 5, Zürich"
)

// Writer is a person who writes their replies in a layout drawn per mail
// (seeded: the same seed, user and mail number give the same layout): a
// client of Clients, a greeting and a sign-off (each or both sometimes
// left out) in their language, a signature.
type Writer struct {
	User, Name, Lang string
	Seed             string
	n                uint64
}

// Layout is a drawn layout: the client, the greeting and sign-off ("" for
// none) and the signature.
type Layout struct {
	Client        Client
	Greeting, Bye string
	Signature     string
}

// Draw draws the layout of the writer's next mail.
func (w *Writer) Draw() Layout {
	w.n++
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%s", w.Seed, w.User)
	r := rand.New(rand.NewPCG(h.Sum64(), w.n))
	lang := w.Lang
	if Greetings[lang] == nil {
		lang = "en"
	}
	l := Layout{Client: Clients[r.IntN(len(Clients))], Signature: Signatures[r.IntN(len(Signatures))]}
	if r.IntN(4) != 0 {
		l.Greeting = Greetings[lang][r.IntN(len(Greetings[lang]))]
	}
	if r.IntN(4) != 0 {
		l.Bye = SignOffs[lang][r.IntN(len(SignOffs[lang]))]
	}
	return l
}

// Text is the typed text of a layout around the command lines.
func (l Layout) Text(commands string) string {
	var parts []string
	if l.Greeting != "" {
		parts = append(parts, l.Greeting)
	}
	parts = append(parts, strings.ReplaceAll(commands, "\r\n", "\n"))
	if l.Bye != "" {
		parts = append(parts, l.Bye)
	}
	return strings.Join(parts, "\n")
}

// Reply writes the person's reply to orig with the command lines in a
// freshly drawn layout under Message-ID <id@client's domain>; it returns
// the address to write to, the raw mail and the client's name.
func (w *Writer) Reply(t testing.TB, orig []byte, from, id, commands string) (to string, raw []byte, client string) {
	t.Helper()
	l := w.Draw()
	to, raw = l.Client.Reply(t, orig, from, w.Name, id, l.Text(commands), l.Signature)
	return to, raw, l.Client.Name
}

// WithoutReplyLine is a referee's mail text without its first line's
// "##- ... -##" frame line (found by its frame, not its words: the words
// are the reader's language's).
func WithoutReplyLine(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if l := strings.TrimSpace(l); strings.HasPrefix(l, "##-") && strings.HasSuffix(l, "-##") {
			return strings.Join(append(lines[:i:i], lines[i+1:]...), "\n")
		}
	}
	return text
}

// CheckPersonMail fails the test when a referee's mail text to a person
// reading lang is not fit to read: a line over 80 columns, a paragraph
// twice, a template key or Go's own text, or (it/fr/nl) English words
// (CheckWords, the reply line's frame taken out; values are the reader's
// own words that may appear as they are).
func CheckPersonMail(t testing.TB, lang, what, subject, text string, values ...string) {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if w := len([]rune(l)); w > 80 {
			t.Errorf("%s: a line of %d columns: %s", what, w, l)
		}
	}
	seen := map[string]bool{}
	for _, para := range strings.Split(text, "\n\n") {
		if para = strings.TrimSpace(para); para != "" && seen[para] {
			t.Errorf("%s: a paragraph twice:\n%s", what, text)
			break
		}
		seen[para] = true
	}
	for _, key := range []string{"error.", "err.", "mail.", "menu.", "tell."} {
		for _, f := range strings.Fields(text) {
			if strings.HasPrefix(f, key) && len(f) > len(key) && !strings.Contains(f, "@") {
				t.Errorf("%s: a template key %q:\n%s", what, f, text)
			}
		}
	}
	CheckWords(t, lang, what, subject+"\n"+WithoutReplyLine(text), values...)
}

// OwnLines are the lines a person wrote in their reply to orig (their
// greeting, commands, sign-off, signature, their client's attribution
// line), as the referee reads the reply's text: not the lines quoted from
// orig, none shorter than 3 letters. An answer may quote them back (the
// lines it ignored): they are the person's words, not the referee's, so a
// check of the referee's words takes them out (CheckWords' values).
func OwnLines(t testing.TB, reply, orig []byte) []string {
	t.Helper()
	m, err := mailmsg.Parse(reply, mailmsg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o, err := mailmsg.Parse(orig, mailmsg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	quoted := map[string]bool{}
	for _, l := range strings.Split(o.Text, "\n") {
		quoted[strings.TrimSpace(l)] = true
	}
	var out []string
	for _, l := range strings.Split(m.Text, "\n") {
		l = strings.TrimSpace(l)
		if len([]rune(l)) >= 3 && !strings.HasPrefix(l, ">") && !quoted[l] {
			out = append(out, l)
		}
	}
	return out
}
