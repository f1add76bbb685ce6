package mailmsg

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// DefaultReplyLine is the first body line Compose writes when the caller
// gives none (Out.ReplyLine empty): the English words, for callers that
// have no reader's language (tools, tests). The package holds no other
// language: the referee's mails to people carry the line of the reader's
// language, which the caller passes (templates/referee/<lang>/replyline.tmpl,
// through referee/tell's Composer). Commands treats a line of the form
// "##- ... -##", quoted or not and in any words, as the start of a quoted
// referee mail, so that a reply whose quote header was not recognised (an
// unknown client or language) still never yields the referee's own text,
// whatever the language of the mail it quotes.
const DefaultReplyLine = "##- Please write your reply above this line -##"

// Out is an outgoing referee mail.
type Out struct {
	// From is the referee: display name and base address (no plus part).
	From Address
	// To is the one recipient.
	To Address
	// Tag is the recipient's tag. For seat, player and organiser tags the
	// Reply-To is From's plus address with the tag ("referee+g42.1.<secret>.57@...")
	// and the subject starts with the subject tag. A TagGame only gives the
	// subject tag "[g42 #57]"; TagNone gives neither.
	Tag Tag
	// HideSecret writes the subject tag without the secret ("[g42 #57]").
	HideSecret bool
	// Subject is the subject text after the tag (any language).
	Subject string
	// Reply marks an answer to a player's mail ("Auto-Submitted:
	// auto-replied"); otherwise the mail is "auto-generated" (reminders,
	// notifications), per RFC 3834.
	Reply bool
	// MessageID is the id assigned in the outbox (see NewMessageID), with or
	// without angle brackets. Required.
	MessageID string
	// InReplyTo and References thread the mail (ids with or without angle
	// brackets); References is written space-separated.
	InReplyTo  []string
	References []string
	// Date is the Date field. Required (the package reads no clock).
	Date time.Time
	// Language is the Content-Language ("en", "it", ...), optional.
	Language string
	// Text is the body, UTF-8.
	Text string
	// ReplyLine is the first body line, in the reader's language
	// (DefaultReplyLine when empty; "-" for none). It must have the form
	// "##- ... -##" and fit one line (see doc.go: the frame is the reader's
	// rule, the words are the caller's).
	ReplyLine string
	// JSON, when not nil, is attached as an application/json part (for
	// players who asked FORMAT json), named JSONName ("referee.json" when
	// empty): 7bit lines of the same JSON value (jsonLines; base64 of the
	// bytes as they are when they are not JSON or a string is too long).
	JSON     []byte
	JSONName string
	// JSONValid says JSON is known to be JSON (encoding/json's output):
	// Compose does not check it again (issue 25). Bytes said so wrongly
	// still go as 7bit lines, or in base64 as they are.
	JSONValid bool
	// AllowOOF asks Exchange to still send out-of-office replies
	// ("X-Auto-Response-Suppress: DR, RN, NRN, AutoReply" instead of "All"),
	// for the referee's absence detection.
	AllowOOF bool
}

// Compose renders an outgoing mail with go-mail, byte-for-byte
// deterministically (fixed multipart boundary derived from the Message-ID,
// Date as given, no User-Agent or X-Mailer), so the outbox can store the
// bytes and send them unchanged on every retry. The message carries From,
// To, Reply-To (the tag's plus address), Subject (with tag; non-ASCII
// encoded), Message-ID, In-Reply-To and References (space-separated),
// Date, Auto-Submitted, X-Auto-Response-Suppress and X-Loop (the referee's
// base address, which Classify recognises), and a text/plain UTF-8
// quoted-printable body, plus the JSON part when given.
func Compose(o Out) ([]byte, error) { return compose(o, false) }

// compose is Compose; alwaysBoundary derives the boundary of a mail
// without the JSON part too (its tests: the boundary of a single-part mail
// is written nowhere, so deriving it is wasted work on every mail).
func compose(o Out, alwaysBoundary bool) ([]byte, error) {
	bad := func(format string, a ...any) error {
		return composeError{fmt.Errorf("%w: %s", ErrCompose, fmt.Sprintf(format, a...))}
	}
	id, err := bareMsgID(o.MessageID)
	if err != nil {
		return nil, bad("message id %q", o.MessageID)
	}
	if o.Date.IsZero() {
		return nil, bad("no date")
	}
	if _, err := ParseAddress(o.From.Addr); err != nil || o.From.Local() == "" {
		return nil, bad("from %q", o.From.Addr)
	}
	if _, err := ParseAddress(o.To.Addr); err != nil || o.To.Local() == "" {
		return nil, bad("to %q", o.To.Addr)
	}
	refs := make([]string, 0, len(o.References))
	for _, r := range o.References {
		b, err := bareMsgID(r)
		if err != nil {
			return nil, bad("reference %q", r)
		}
		refs = append(refs, "<"+b+">")
	}
	inReplyTo := make([]string, 0, len(o.InReplyTo))
	for _, r := range o.InReplyTo {
		b, err := bareMsgID(r)
		if err != nil {
			return nil, bad("in-reply-to %q", r)
		}
		inReplyTo = append(inReplyTo, "<"+b+">")
	}
	replyLine := o.ReplyLine
	switch replyLine {
	case "":
		replyLine = DefaultReplyLine
	case "-":
		replyLine = ""
	default:
		if !IsReplyLine(replyLine) {
			return nil, bad("reply line %q is not of the form ##- ... -##", replyLine)
		}
	}

	var body strings.Builder
	if replyLine != "" {
		body.WriteString(replyLine)
		body.WriteString("\n\n")
	}
	text := strings.ReplaceAll(o.Text, "\r\n", "\n")
	body.WriteString(strings.TrimRight(text, "\n"))
	body.WriteString("\n")
	bodyText := strings.ReplaceAll(body.String(), "\n", "\r\n")
	opts := []gomail.MsgOption{gomail.WithNoDefaultUserAgent(), gomail.WithCharset(gomail.CharsetUTF8),
		gomail.WithEncoding(gomail.EncodingQP)}
	// The JSON part goes as 7bit lines when it can (jsonLines), else in
	// base64 as it is.
	jsonBody, json7bit := o.JSON, false
	if o.JSON != nil {
		if lines, ok := jsonLines(o.JSON, o.JSONValid); ok {
			jsonBody, json7bit = lines, true
		}
	}
	boundary := ""
	if o.JSON != nil || alwaysBoundary {
		boundary = fixedBoundary(id, bodyText, jsonBody)
		opts = append(opts, gomail.WithBoundary(boundary))
	}
	msg := gomail.NewMsg(opts...)
	// Display names come from registrations and from strangers' From
	// fields: CleanName makes any of them safe, and go-mail writes them
	// with net/mail's formatting (never a hand-built "name" <addr>, which
	// an unbalanced quote or a trailing backslash breaks: issue 23).
	msg.FromMailAddress(o.From.mailAddress())
	msg.AddToMailAddress(o.To.mailAddress())
	subject := strings.Join(strings.Fields(o.Subject), " ")
	switch o.Tag.Kind {
	case TagNone:
	case TagGame:
		if st := SubjectTag(o.Tag, false); st != "" {
			subject = st + " " + subject
		}
	default:
		plus, err := PlusAddress(o.From.Addr, o.Tag)
		if err != nil {
			return nil, bad("tag: %v", err)
		}
		msg.ReplyToMailAddress(Address{Name: o.From.Name, Addr: plus}.mailAddress())
		if o.Tag.Kind != TagBounce {
			if st := SubjectTag(o.Tag, !o.HideSecret); st != "" {
				subject = st + " " + subject
			}
		}
	}
	msg.Subject(strings.TrimSpace(subject))
	msg.SetMessageIDWithValue(id)
	msg.SetDateWithValue(o.Date)
	if len(inReplyTo) > 0 {
		// One space-joined value: go-mail joins several values with ", ".
		msg.SetGenHeader(gomail.HeaderInReplyTo, strings.Join(inReplyTo, " "))
	}
	if len(refs) > 0 {
		msg.SetGenHeader(gomail.HeaderReferences, strings.Join(refs, " "))
	}
	auto := "auto-generated"
	if o.Reply {
		auto = "auto-replied"
	}
	msg.SetGenHeader(gomail.Header("Auto-Submitted"), auto)
	suppress := "All"
	if o.AllowOOF {
		suppress = "DR, RN, NRN, AutoReply"
	}
	msg.SetGenHeader(gomail.HeaderXAutoResponseSuppress, suppress)
	base, _, domain := SplitPlus(o.From.Addr)
	msg.SetGenHeader(gomail.Header("X-Loop"), base+"@"+domain)
	if o.Language != "" {
		msg.SetGenHeader(gomail.HeaderContentLang, o.Language)
	}

	msg.SetBodyString(gomail.TypeTextPlain, bodyText)
	if o.JSON != nil {
		name := o.JSONName
		if name == "" {
			name = "referee.json"
		}
		enc := gomail.EncodingB64
		if json7bit {
			enc = gomail.NoEncoding // relabelled 7bit below
		}
		// A ReadSeeker: go-mail reads it where it writes the part, not
		// into a copy first (AttachReader does; issue 25).
		msg.AttachReadSeeker(name, bytes.NewReader(jsonBody), gomail.WithFileContentType("application/json"),
			gomail.WithFileEncoding(enc))
	}
	// The mail in one buffer of about its size (issue 25: grown from
	// empty, a mail of 30 KB was copied through ten buffers).
	var buf bytes.Buffer
	buf.Grow(composeRoom(bodyText, jsonBody, o.JSON != nil && !json7bit))
	if _, err := msg.WriteTo(&buf); err != nil {
		return nil, composeError{fmt.Errorf("%w: %v", ErrCompose, err)}
	}
	raw := buf.Bytes()
	if json7bit && !relabel7bit(raw, boundary) {
		return nil, bad("json: no 8bit part to relabel")
	}
	return raw, nil
}

// composeError is a Compose failure. It is permanent (issue 23, rule 2):
// the same Out fails the same way on every retry, so the transports set
// the message that caused it aside instead of retrying it for ever. Its
// Transient method is the referee's Transienter.
type composeError struct{ err error }

func (e composeError) Error() string   { return e.err.Error() }
func (e composeError) Unwrap() error   { return e.err }
func (e composeError) Transient() bool { return false }

// bareMsgID validates a message id and returns it without angle brackets.
func bareMsgID(s string) (string, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(strings.TrimPrefix(s, "<"), ">")
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 || len(s) > 250 || strings.ContainsAny(s, "<> \t\r\n\"(),;:\\[]") {
		return "", ErrInvalidMessageID
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return "", ErrInvalidMessageID
		}
	}
	return s, nil
}

// fixedBoundary derives the multipart boundary from the Message-ID, so the
// same mail always renders to the same bytes. go-mail writes the boundary
// parameter unquoted, so it uses token characters only; the (practically
// impossible) case of a body containing it is resolved deterministically.
func fixedBoundary(id, text string, json []byte) string {
	for i := 0; ; i++ {
		sum := sha256.Sum256([]byte(id + "\x00" + strconv.Itoa(i)))
		b := "rf_" + hex.EncodeToString(sum[:12])
		if !strings.Contains(text, b) && !bytes.Contains(json, []byte(b)) {
			return b
		}
	}
}

// composeRoom is about the size of a composed mail: its header fields
// and part headers (1 KB but for long names and references), the text in
// quoted-printable (a non-ASCII byte takes three, a soft break three a
// line), the JSON part as it is or, in base64, four bytes for three and a
// line end every 76.
func composeRoom(text string, json []byte, base64 bool) int {
	n := 1536 + len(text) + len(text)/16
	for i := 0; i < len(text); i++ {
		if text[i] >= 0x80 {
			n += 2
		}
	}
	if base64 {
		return n + len(json)*4/3 + len(json)/38 + 4
	}
	return n + len(json)
}

// replyLineRe is the shape of the line the referee writes at the top of its
// mails (see Compose).
var replyLineRe = regexp.MustCompile(`^##-.{0,200}-##$`)

// IsReplyLine reports whether s has the shape of the line the referee
// writes at the top of its mails (the reply reader never takes it, or what
// stands under it, for the player's own text).
func IsReplyLine(s string) bool { return replyLineRe.MatchString(s) }
