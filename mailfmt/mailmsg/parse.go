package mailmsg

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"mime"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // installs message.CharsetReader for bodies and encoded words
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
	"github.com/jordan-wright/email"
)

// Default limits of Options.
const (
	DefaultMaxBytes = 1 << 20 // 1 MiB
	DefaultMaxParts = 100
	DefaultMaxDepth = 10
	maxHeaderBytes  = 256 << 10
	maxReportBytes  = 64 << 10
)

// DigestDomain is the domain of the synthetic Message-ID Parse gives a
// message that has none: "<digest.<hex>@mailfmt.invalid>".
const DigestDomain = "mailfmt.invalid"

// Options are the limits of Parse. The zero value means the defaults.
type Options struct {
	// MaxBytes is the largest raw message accepted (DefaultMaxBytes when 0).
	MaxBytes int
	// MaxParts caps the MIME parts visited (DefaultMaxParts when 0).
	MaxParts int
	// MaxDepth caps multipart nesting (DefaultMaxDepth when 0).
	MaxDepth int
}

func (o Options) withDefaults() Options {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxParts <= 0 {
		o.MaxParts = DefaultMaxParts
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	return o
}

// Message is a parsed inbound mail. All Message-IDs are written with their
// angle brackets ("<id@host>"), as stored in the outbox and dedup records.
type Message struct {
	// Raw is the message as received (not copied: do not modify the slice
	// passed to Parse).
	Raw []byte
	// MessageID is the Message-ID; when the message has none, a digest of the
	// message ("<digest.<hex>@mailfmt.invalid>") and MessageIDDigest is true.
	MessageID       string
	MessageIDDigest bool
	// InReplyTo and References are the message ids of the threading headers,
	// in header order.
	InReplyTo  []string
	References []string

	// From is the first author; Sender the Sender field (often empty).
	From    Address
	Sender  Address
	ReplyTo []Address
	To      []Address
	Cc      []Address
	// DeliveredTo, XOriginalTo and EnvelopeTo are the addr-specs of those
	// trace fields, top-most first (set by the receiving servers: the
	// envelope recipient, plus part included).
	DeliveredTo []string
	XOriginalTo []string
	EnvelopeTo  []string
	// ReturnPath is the envelope sender from the Return-Path field, without
	// angle brackets; NullReturnPath is true for "<>" (a bounce or other
	// automatic mail).
	ReturnPath     string
	NullReturnPath bool

	// Subject is the decoded, normalised subject.
	Subject string
	// Date is the Date field; zero when missing or unparseable.
	Date time.Time

	// The raw values of the fields that mark automatic and list mail.
	ListID                string
	ListUnsubscribe       string
	Precedence            string
	AutoSubmitted         string
	XAutoResponseSuppress string
	XLoop                 []string
	// AuthenticationResults are the Authentication-Results field values,
	// top-most (most recently added) first.
	AuthenticationResults []string

	// ContentType is the media type of the whole message, lower-cased.
	ContentType string
	// Text is the chosen body: the text/plain parts (preferred) or else the
	// HTML parts converted to text, decoded to UTF-8 and normalised.
	Text string
	// FromHTML says Text was converted from HTML.
	FromHTML bool
	// Attachments lists the attachments (parts with Content-Disposition
	// attachment, or inline with a file name).
	Attachments []Attachment
	// Report holds the machine-readable parts of a multipart/report (a
	// delivery status notification or a disposition notification); nil
	// otherwise. Classify interprets it.
	Report *Report
	// Warnings lists what was odd but survivable (unknown charset, broken
	// base64, part limit reached, ...).
	Warnings []string

	header textproto.Header
}

// Attachment describes an attachment (ignored for commands).
type Attachment struct {
	Filename    string
	ContentType string
}

// Report holds the parts of a multipart/report.
type Report struct {
	// Type is the report-type parameter ("delivery-status",
	// "disposition-notification", ...), lower-cased.
	Type string
	// Status is the body of the message/delivery-status (or
	// message/disposition-notification) part.
	Status []byte
	// Returned is the header section of the returned message
	// (message/rfc822 or text/rfc822-headers part), at most 64 KiB.
	Returned []byte
}

// Header returns the values of a top-level header field, top-most first.
func (m *Message) Header(key string) []string {
	return m.header.Values(key)
}

// Parse parses a raw RFC 5322 message. It fails only on an empty input, a
// message over Options.MaxBytes (ErrTooLarge, as a *TooLargeError: the
// returned Message then still has the header fields, so the sender can be
// told) and an unparseable header section (ErrMalformed). Anything odd in
// the body is survived and noted in Message.Warnings.
func Parse(raw []byte, opt Options) (*Message, error) {
	opt = opt.withDefaults()
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, ErrEmpty
	}
	m := &Message{Raw: raw}
	src := skipMboxLine(raw)
	if len(raw) > opt.MaxBytes {
		hdr := src[:min(len(src), maxHeaderBytes)]
		if h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(hdr))); err == nil || len(h.Map()) > 0 {
			m.header = h
			m.fillHeaders()
		}
		return m, &TooLargeError{Size: len(raw), Limit: opt.MaxBytes}
	}
	// A small buffer: header lines longer than it are joined by the reader.
	br := bufio.NewReaderSize(bytes.NewReader(src), 1024)
	h, err := textproto.ReadHeader(br)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	m.header = h
	m.fillHeaders()
	if m.MessageID == "" {
		m.MessageID = digestID(h, src)
		m.MessageIDDigest = true
	}

	w := walker{opt: opt, m: m}
	top := h
	if mt, params := w.contentType(h); strings.HasPrefix(mt, "multipart/") && params["boundary"] != "" &&
		!bytes.Contains(src, []byte("--"+params["boundary"])) {
		// A multipart whose boundary never occurs is mislabelled text.
		m.warn("multipart boundary absent: body read as text")
		top = h.Copy()
		ct := "text/plain"
		if cs := params["charset"]; charsetNameRe.MatchString(cs) {
			ct += "; charset=" + cs
		}
		top.Set("Content-Type", ct)
	}
	c := w.walk(top, br, 0, "")
	// The text/plain part, when present and not empty, is used as is: the
	// HTML alternative is converted only when it is the only text (issue
	// 10: the conversion was the main parse cost of large Outlook mails).
	plain := strings.Join(c.plain, "\n")
	switch {
	case strings.TrimSpace(plain) != "" || len(c.html) == 0 && len(c.plain) > 0:
		m.Text = normalizeText(plain)
	case len(c.html) > 0:
		conv := make([]string, len(c.html))
		for i, h := range c.html {
			conv[i] = HTMLToText(h)
		}
		m.Text = normalizeText(strings.Join(conv, "\n"))
		m.FromHTML = true
	}
	if w.ignored > 0 && !w.tooDeep {
		m.Attachments = attachmentsOf(src)
	}
	return m, nil
}

// skipMboxLine drops a leading mbox "From " separator line.
func skipMboxLine(raw []byte) []byte {
	if bytes.HasPrefix(raw, []byte("From ")) {
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			return raw[i+1:]
		}
	}
	return raw
}

// traceFields are prepended by the servers on the way; the digest of a
// message without Message-ID skips them so that the same message delivered
// twice (or to two mailboxes) gets the same id.
var traceFields = map[string]bool{
	"Received": true, "Return-Path": true, "Delivered-To": true, "X-Original-To": true,
	"Envelope-To": true, "Authentication-Results": true, "Received-Spf": true,
	"Arc-Seal": true, "Arc-Message-Signature": true, "Arc-Authentication-Results": true,
	"X-Spam-Status": true, "X-Spam-Score": true, "X-Spam-Flag": true, "X-Spam-Level": true,
	"X-Spam-Checker-Version": true, "X-Virus-Scanned": true, "X-Gm-Message-State": true,
	"X-Google-Smtp-Source": true, "X-Received": true, "X-Forwarded-To": true,
	"X-Forwarded-For": true, "X-Delivered-To": true,
}

// digestID returns "<digest.<hex>@mailfmt.invalid>" over the non-trace
// header fields (sorted, so header reordering does not matter) and the body.
func digestID(h textproto.Header, src []byte) string {
	hash := sha256.New()
	var fields []string
	f := h.Fields()
	for f.Next() {
		if traceFields[f.Key()] {
			continue
		}
		fields = append(fields, strings.ToLower(f.Key())+":"+strings.Join(strings.Fields(f.Value()), " "))
	}
	slices.Sort(fields)
	for _, s := range fields {
		hash.Write([]byte(s))
		hash.Write([]byte{'\n'})
	}
	if i := bytes.Index(src, []byte("\n\n")); i >= 0 {
		hash.Write(bytes.ReplaceAll(src[i+2:], []byte("\r\n"), []byte("\n")))
	} else if i := bytes.Index(src, []byte("\r\n\r\n")); i >= 0 {
		hash.Write(bytes.ReplaceAll(src[i+4:], []byte("\r\n"), []byte("\n")))
	}
	return "<digest." + hex.EncodeToString(hash.Sum(nil)[:16]) + "@" + DigestDomain + ">"
}

func (m *Message) fillHeaders() {
	mh := gomail.Header{Header: message.Header{Header: m.header}}
	if id := msgIDs(mh, "Message-Id"); len(id) > 0 {
		m.MessageID = id[0]
	}
	m.InReplyTo = msgIDs(mh, "In-Reply-To")
	m.References = msgIDs(mh, "References")
	if l := m.addresses(mh, "From"); len(l) > 0 {
		m.From = l[0]
	}
	if l := m.addresses(mh, "Sender"); len(l) > 0 {
		m.Sender = l[0]
	}
	m.ReplyTo = m.addresses(mh, "Reply-To")
	m.To = m.addresses(mh, "To")
	m.Cc = m.addresses(mh, "Cc")
	m.DeliveredTo = traceAddrs(mh.Values("Delivered-To"))
	m.XOriginalTo = traceAddrs(mh.Values("X-Original-To"))
	m.EnvelopeTo = traceAddrs(mh.Values("Envelope-To"))
	if rp := mh.Values("Return-Path"); len(rp) > 0 {
		v := strings.TrimSpace(rp[0])
		if strings.ReplaceAll(v, " ", "") == "<>" {
			m.NullReturnPath = true
		} else if a := traceAddrs(rp[:1]); len(a) > 0 {
			m.ReturnPath = a[0]
		}
	}
	subj, err := mh.Subject()
	if err != nil {
		m.warn("subject: " + err.Error())
	}
	m.Subject = normalizeHeader(subj)
	if d, err := time.Parse("Mon, 2 Jan 2006 15:04:05 -0700", strings.TrimSpace(mh.Get("Date"))); err == nil {
		// The common RFC 5322 form first: net/mail tries its layouts in
		// an order that allocates an error for each miss.
		m.Date = d
	} else if d, err := mh.Date(); err == nil {
		m.Date = d
	} else {
		m.warn("date: unparseable")
	}
	get := func(k string) string { return strings.TrimSpace(mh.Get(k)) }
	m.ListID = get("List-Id")
	m.ListUnsubscribe = get("List-Unsubscribe")
	m.Precedence = get("Precedence")
	m.AutoSubmitted = get("Auto-Submitted")
	m.XAutoResponseSuppress = get("X-Auto-Response-Suppress")
	m.XLoop = mh.Values("X-Loop")
	m.AuthenticationResults = mh.Values("Authentication-Results")
	m.ContentType, _ = (&walker{m: m}).contentType(m.header)
}

func (m *Message) warn(s string) {
	if len(m.Warnings) < 32 {
		m.Warnings = append(m.Warnings, s)
	}
}

var msgIDScanRe = regexp.MustCompile(`<[^<>\s]{1,250}>`)

// msgIDs parses a list of message ids with go-message, falling back to
// picking "<...>" tokens when the field does not follow RFC 5322 (which is
// common in the wild: ids without '@', comments, commas).
func msgIDs(mh gomail.Header, key string) []string {
	v := mh.Get(key)
	if strings.TrimSpace(v) == "" {
		return nil
	}
	l, err := mh.MsgIDList(key)
	if err == nil && len(l) > 0 {
		out := make([]string, len(l))
		for i, id := range l {
			out[i] = "<" + id + ">"
		}
		return out
	}
	out := msgIDScanRe.FindAllString(v, 64)
	if len(out) == 0 {
		if f := strings.Fields(v); len(f) == 1 && len(f[0]) <= 250 && strings.Contains(f[0], "@") {
			out = []string{"<" + f[0] + ">"}
		}
	}
	return out
}

var addrScanRe = regexp.MustCompile(`[^\s<>,;:"()\[\]]+@[^\s<>,;:"()\[\]]+`)

// addresses parses an address-list field with go-message (which decodes
// encoded words in any charset and handles quoted display names with commas);
// on a malformed field it falls back to picking addr-specs out of the
// decoded text, without names.
func (m *Message) addresses(mh gomail.Header, key string) []Address {
	if strings.TrimSpace(mh.Get(key)) == "" {
		return nil
	}
	l, err := mh.AddressList(key)
	if err == nil {
		out := make([]Address, 0, len(l))
		for _, a := range l {
			ad := fromMailAddress(a)
			ad.Name = normalizeHeader(ad.Name)
			out = append(out, ad)
		}
		return out
	}
	m.warn(strings.ToLower(key) + ": malformed address list")
	text, _ := mh.Text(key)
	var out []Address
	for _, s := range addrScanRe.FindAllString(text, 32) {
		out = append(out, Address{Addr: lowerDomain(s)})
	}
	return out
}

// traceAddrs extracts the addr-specs of trace fields (Delivered-To,
// X-Original-To, Envelope-To, Return-Path).
func traceAddrs(vals []string) []string {
	var out []string
	for _, v := range vals {
		if s := addrScanRe.FindString(v); s != "" {
			out = append(out, lowerDomain(s))
		}
	}
	return out
}

// content is the text found under a MIME entity.
type content struct {
	plain []string
	html  []string // raw HTML, converted by Parse only when used
}

func (c *content) add(o content) {
	c.plain = append(c.plain, o.plain...)
	c.html = append(c.html, o.html...)
}

type walker struct {
	opt     Options
	m       *Message
	parts   int
	ignored int // parts skipped
	tooDeep bool
}

// walk visits an entity with go-message's textproto (headers and multipart
// framing); transfer encodings and charsets are decoded per leaf part.
func (w *walker) walk(h textproto.Header, body io.Reader, depth int, parent string) content {
	var c content
	mh := message.Header{Header: h}
	mt, params := w.contentType(h)
	if strings.HasPrefix(mt, "multipart/") {
		boundary := params["boundary"]
		if boundary == "" {
			w.m.warn("multipart without boundary read as text")
			mt, params = "text/plain", nil
		} else {
			if depth >= w.opt.MaxDepth {
				w.m.warn("multipart nesting too deep")
				w.tooDeep = true
				return c
			}
			return w.multipart(mt, params, body, boundary, depth)
		}
	}
	disp, dparams, _ := mh.ContentDisposition()
	disp = strings.ToLower(disp)
	if disp == "attachment" || (disp == "inline" && dparams["filename"] != "") {
		w.skip(body)
		return c
	}
	switch mt {
	case "text/plain", "text/html":
		b := w.decode(h, body, w.opt.MaxBytes*2)
		s, warning := toUTF8(b, params["charset"])
		if warning != "" {
			w.m.warn(warning)
		}
		if mt == "text/html" {
			c.html = append(c.html, s) // converted only if used
			return c
		}
		if strings.EqualFold(params["format"], "flowed") {
			s = unflow(s, strings.EqualFold(params["delsp"], "yes"))
		}
		c.plain = append(c.plain, s)
	case "message/delivery-status", "message/global-delivery-status", "message/disposition-notification":
		if parent == "multipart/report" {
			w.report().Status = w.decode(h, body, maxReportBytes)
		} else {
			w.skip(body)
		}
	case "message/rfc822", "message/global", "text/rfc822-headers", "message/global-headers":
		if parent == "multipart/report" {
			b := w.decode(h, body, maxReportBytes)
			if i := headerEnd(b); i >= 0 {
				b = b[:i]
			}
			w.report().Returned = b
		} else {
			w.skip(body)
		}
	default:
		w.skip(body)
	}
	return c
}

var charsetNameRe = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,40}$`)

var ctParamRe = regexp.MustCompile(`(?i)\b(charset|boundary|format|delsp|report-type|name)\s*=\s*("[^"]*"|[^;\s"]+)`)

// contentType returns the lower-cased media type and parameters of an
// entity: text/plain when the field is missing (RFC 2045) or has no
// type/subtype; parameters picked leniently when go-message cannot parse
// them (it then returns the whole raw value as the type).
func (w *walker) contentType(h textproto.Header) (string, map[string]string) {
	raw := strings.TrimSpace(h.Get("Content-Type"))
	if raw == "" {
		return "text/plain", map[string]string{}
	}
	mh := message.Header{Header: h}
	mt, params, err := mh.ContentType()
	if err == nil && strings.Contains(mt, "/") {
		return strings.ToLower(mt), params
	}
	w.m.warn("content-type: unparseable, read leniently")
	mt = strings.ToLower(strings.TrimSpace(strings.SplitN(raw, ";", 2)[0]))
	if !strings.Contains(mt, "/") || strings.ContainsAny(mt, " \t\"") {
		mt = "text/plain"
	}
	params = map[string]string{}
	for _, p := range ctParamRe.FindAllStringSubmatch(raw, 8) {
		params[strings.ToLower(p[1])] = strings.Trim(p[2], `"`)
	}
	return mt, params
}

func (w *walker) report() *Report {
	if w.m.Report == nil {
		w.m.Report = &Report{}
	}
	return w.m.Report
}

func headerEnd(b []byte) int {
	i := bytes.Index(b, []byte("\n\n"))
	j := bytes.Index(b, []byte("\r\n\r\n"))
	switch {
	case i < 0:
		return j
	case j < 0:
		return i
	}
	return min(i, j)
}

func (w *walker) multipart(mt string, params map[string]string, body io.Reader, boundary string, depth int) content {
	var c content
	if mt == "multipart/report" {
		w.report().Type = strings.ToLower(params["report-type"])
	}
	mr := textproto.NewMultipartReader(body, boundary)
	var kids []content
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			w.m.warn("multipart: " + err.Error())
			break
		}
		w.parts++
		if w.parts > w.opt.MaxParts {
			w.m.warn("too many parts")
			break
		}
		if mt == "multipart/alternative" && hasPlain(kids) {
			// The text/plain alternative is read: the others (HTML)
			// would be dropped, so they are not decoded.
			continue
		}
		kids = append(kids, w.walk(p.Header, p, depth+1, mt))
		if mt == "multipart/signed" || mt == "multipart/encrypted" {
			break // the first part is the content; the rest is crypto
		}
	}
	if mt == "multipart/alternative" {
		for _, k := range kids {
			if len(k.plain) > 0 && strings.TrimSpace(strings.Join(k.plain, "")) != "" {
				return content{plain: k.plain}
			}
		}
		for _, k := range kids {
			if len(k.html) > 0 {
				return content{html: k.html}
			}
		}
		return c
	}
	for _, k := range kids {
		c.add(k)
	}
	return c
}

// decode reads a leaf body, undoing its transfer encoding (any case of the
// label) with go-message. Broken encodings keep what could be decoded.
func (w *walker) decode(h textproto.Header, body io.Reader, limit int) []byte {
	var th textproto.Header
	th.Set("Content-Type", "application/octet-stream")
	if cte := strings.TrimSpace(h.Get("Content-Transfer-Encoding")); cte != "" {
		th.Set("Content-Transfer-Encoding", cte)
	}
	e, err := message.New(message.Header{Header: th}, body)
	if err != nil {
		w.m.warn("transfer encoding: " + err.Error())
		if e == nil {
			return nil
		}
	}
	b, err := io.ReadAll(io.LimitReader(e.Body, int64(limit)))
	if err != nil {
		w.m.warn("body: " + err.Error())
	}
	return b
}

// hasPlain reports whether one of kids holds non-blank plain text.
func hasPlain(kids []content) bool {
	for _, k := range kids {
		if len(k.plain) > 0 && strings.TrimSpace(strings.Join(k.plain, "")) != "" {
			return true
		}
	}
	return false
}

// skip reads past a part that carries no commands (attachment, image,
// signature, forwarded message).
func (w *walker) skip(body io.Reader) {
	w.ignored++
	_, _ = io.Copy(io.Discard, body)
}

// attachmentsOf lists the attachments with jordan-wright/email, whose rule
// (Content-Disposition attachment, or inline with a file name) is the one
// the walk applies. It runs only when the walk met ignored parts and found
// the nesting depth bounded (jordan-wright recurses without limit), and only
// names and types are taken from it: it leaves a body encoded when the
// label is not exactly "base64", so its sizes are not reliable. Its text,
// address and subject fields are never used (see the package
// documentation); a walk over the same malformed samples showed that it
// recovers no text that go-message cannot.
func attachmentsOf(src []byte) []Attachment {
	e, _ := email.NewEmailFromReader(bytes.NewReader(src)) // a partial list is still useful
	if e == nil {
		return nil
	}
	var out []Attachment
	for _, a := range e.Attachments {
		ct := a.ContentType
		if t, _, err := mime.ParseMediaType(ct); err == nil {
			ct = t
		}
		out = append(out, Attachment{Filename: normalizeHeader(a.Filename), ContentType: strings.ToLower(ct)})
	}
	return out
}

// ScanAddresses returns at most n address-shaped tokens of s (local@domain,
// without brackets or quotes), for fields and report lines that do not
// follow RFC 5322 (X-Loop, a bounce's text); n < 0 means all.
func ScanAddresses(s string, n int) []string { return addrScanRe.FindAllString(s, n) }

// ScanMessageID returns the first "<...>" token of s, "" when none.
func ScanMessageID(s string) string { return msgIDScanRe.FindString(s) }

// NormalizeHeader normalises a decoded header value as Parse does: the
// text normalised and folded onto one line, runs of spaces collapsed.
func NormalizeHeader(s string) string { return normalizeHeader(s) }

// LowerDomain returns an address with its domain lower-cased (the local
// part kept as written); a string that is no address comes back trimmed.
func LowerDomain(addr string) string { return lowerDomain(addr) }

// Addrs returns the bare addresses of a list.
func Addrs(l []Address) []string { return addrList(l) }
