package mailfmt

import (
	"bufio"
	"bytes"
	"regexp"
	"slices"
	"strings"

	"github.com/emersion/go-message/textproto"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// Class is the kind of an inbound message, as far as answering it goes.
type Class uint8

// The classes. The referee answers only Normal mail; AutoReply goes to its
// absence logic, Bounce to its delivery-failure logic; List and Self are
// dropped.
const (
	Normal Class = iota
	AutoReply
	Bounce
	List
	Self
)

var classNames = [...]string{"normal", "auto-reply", "bounce", "list", "self"}

// String returns "normal", "auto-reply", "bounce", "list" or "self".
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "class?"
}

// Classification is the result of Classify.
type Classification struct {
	Class Class
	// Reason says which rule decided, e.g. "Auto-Submitted: auto-replied" or
	// "delivery status notification".
	Reason string
	// OutOfOffice is true for an auto-reply that announces an absence (an
	// out-of-office subject, X-Autoreply, Precedence auto_reply, or words
	// such as "away", "vacation", "assente", "absent", "afwezig",
	// "abwesend" in the responder's own text), as opposed to a read receipt
	// or a ticket acknowledgement.
	OutOfOffice bool
	// Return is the absence's end as written in an out-of-office reply
	// ("back on 12 May", "fino al 20 dicembre"), best effort; zero if none.
	Return Date
	// ReturnText is the phrase Return was read from.
	ReturnText string
	// Bounce describes a bounce (nil for other classes).
	Bounce *BounceInfo
}

// BounceInfo describes a delivery failure report.
type BounceInfo struct {
	// DSN is true for an RFC 3464 delivery status notification; false for a
	// classic, free-text bounce.
	DSN bool
	// Recipients are the recipients the report is about.
	Recipients []FailedRecipient
	// Permanent is true when at least one recipient failed permanently
	// (Action failed or a 5.x.x status); false for delays (4.x.x) only.
	Permanent bool
	// OriginalMessageID is the Message-ID of the returned message, when the
	// report includes it.
	OriginalMessageID string
	// Original is the referee reference parsed from OriginalMessageID, when
	// it is one of the referee's.
	Original *mailmsg.MessageRef
	// VERP is the bounce tag the report was addressed to
	// ("referee+bounce.<id>@..."), Kind TagNone when none.
	VERP mailmsg.Tag
}

// FailedRecipient is one recipient of a bounce.
type FailedRecipient struct {
	Addr       string
	Action     string // failed, delayed, delivered, relayed, expanded (DSN); "failed" for classic bounces
	Status     string // enhanced status code, e.g. "5.1.1"
	Diagnostic string // the remote server's words, when given
}

var (
	bounceFromRe    = regexp.MustCompile(`(?i)^(?:mailer-daemon|postmaster|mail-daemon|mailerdaemon|mail\.delivery\.system|maildelivery|bounce|bounces|mdaemon)(?:[+.-][^@]*)?@`)
	bounceSubjectRe = regexp.MustCompile(`(?i)undeliver|undelivered|delivery\s(?:status\snotification|failure|has\sfailed|failed|problem)|mail\sdelivery\s(?:failed|failure|subsystem)|returned\smail|failure\snotice|delivery\snotification|non\s?remis|non\sconsegnat|impossibile\srecapitare|mancato\srecapito|onbestelbaar|unzustellbar|nicht\szustellbar|niet\safgeleverd|could\snot\sbe\sdelivered`)
	oofSubjectRe    = regexp.MustCompile(`(?i)out\sof\s(?:the\s)?office|automatic\sreply|auto[-\s]?reply|autoreply|auto\sresponse|autoresponse|away\sfrom|on\svacation|on\sholiday|absence|absent|abwesen|abwesend|automatische\santwort|au[ßs]er\s(?:haus|b[üu]ro)|risposta\sautomatica|fuori\sufficio|assente|assenza|r[ée]ponse\sautomatique|absent\sdu\sbureau|en\scong[ée]s|automatisch\santwoord|afwezig|niet\saanwezig|vakantie|respuesta\sautom[áa]tica|fuera\sde\sla\soficina|resposta\sautom[áa]tica`)
	statusCodeRe    = regexp.MustCompile(`\b([245])\.(\d{1,3})\.(\d{1,3})\b`)
	bracketAddrRe   = regexp.MustCompile(`<([^<>\s@]+@[^<>\s@]+)>`)
	bodyMsgIDRe     = regexp.MustCompile(`(?im)^\s*message-id:\s*(<[^<>\s]+>)`)
	smtpErrorRe     = regexp.MustCompile(`\b5\d\d\b|\b5\.\d`)
)

// Classify sorts an inbound message (RFC 3834): mail from the referee
// itself (From one of self, or an X-Loop field naming one of self), bounces
// (multipart/report delivery status, or a classic bounce from
// MAILER-DAEMON/postmaster, or any message with a null Return-Path that is
// not an auto-reply), auto-replies (Auto-Submitted other than "no",
// X-Autoreply, X-Autorespond, Precedence auto_reply, disposition
// notifications, or an out-of-office subject in en, it, fr, nl, de, es),
// mailing-list mail (List-Id, Precedence bulk/list/junk) and Normal mail.
// self are the referee's own addresses (base addresses: their plus addresses
// count too).
func Classify(m *mailmsg.Message, self []string) Classification {
	isSelf := func(a string) bool {
		for _, s := range self {
			if mailmsg.SameMailbox(a, s) {
				return true
			}
		}
		return false
	}
	if m.From.Addr != "" && isSelf(m.From.Addr) {
		return Classification{Class: Self, Reason: "From is the referee"}
	}
	for _, v := range m.XLoop {
		for _, a := range append(mailmsg.ScanAddresses(v, 8), strings.TrimSpace(v)) {
			if isSelf(a) {
				return Classification{Class: Self, Reason: "X-Loop: " + clip(strings.TrimSpace(v))}
			}
		}
	}

	// Bounces first: DSNs also carry Auto-Submitted.
	if m.Report != nil && (m.Report.Type == "delivery-status" || len(m.Report.Status) > 0 && m.Report.Type != "disposition-notification") {
		b := dsnInfo(m)
		b.VERP = verpTag(m, self)
		return Classification{Class: Bounce, Reason: "delivery status notification", Bounce: b}
	}
	fromDaemon := bounceFromRe.MatchString(m.From.Addr)
	if fromDaemon || (m.NullReturnPath && bounceSubjectRe.MatchString(m.Subject)) {
		b := classicBounce(m, self)
		b.VERP = verpTag(m, self)
		reason := "bounce from " + m.From.Addr
		if !fromDaemon {
			reason = "bounce subject with null Return-Path"
		}
		return Classification{Class: Bounce, Reason: reason, Bounce: b}
	}

	// Auto-replies.
	c := Classification{Class: AutoReply}
	as := strings.ToLower(strings.TrimSpace(m.AutoSubmitted))
	if i := strings.IndexAny(as, "; ("); i >= 0 {
		as = as[:i]
	}
	prec := strings.ToLower(strings.TrimSpace(m.Precedence))
	switch {
	case m.Report != nil && m.Report.Type == "disposition-notification":
		c.Reason = "disposition notification (read receipt)"
		return c
	case as != "" && as != "no":
		c.Reason = "Auto-Submitted: " + as
	case len(m.Header("X-Autoreply")) > 0 || len(m.Header("X-Autorespond")) > 0:
		c.Reason = "X-Autoreply"
	case prec == "auto_reply":
		c.Reason = "Precedence: auto_reply"
	case oofSubjectRe.MatchString(m.Subject):
		c.Reason = "out-of-office subject"
	}
	if c.Reason != "" {
		// An absence is announced by the subject, by the headers of vacation
		// programs, or by the responder's own words (not by a quoted copy of
		// the referee's mail, which may well mention VACATION).
		away := awayText(m.Text)
		c.OutOfOffice = oofSubjectRe.MatchString(m.Subject) || len(m.Header("X-Autoreply")) > 0 ||
			prec == "auto_reply" || looksAbsent(away)
		if c.OutOfOffice {
			c.Return, c.ReturnText = ReturnDate(away, m.Date)
		}
		return c
	}

	switch {
	case m.ListID != "":
		return Classification{Class: List, Reason: "List-Id"}
	case prec == "bulk" || prec == "list" || prec == "junk":
		return Classification{Class: List, Reason: "Precedence: " + prec}
	case len(m.XLoop) > 0:
		// Another robot's loop marker (ours is Self, above): never
		// acted on (issue 23).
		return Classification{Class: List, Reason: "X-Loop"}
	case m.NullReturnPath:
		return Classification{Class: Bounce, Reason: "null Return-Path", Bounce: &BounceInfo{VERP: verpTag(m, self)}}
	}
	return Classification{Class: Normal}
}

// awayText is the part of an auto-reply written by the responder, without
// a quoted copy of the original.
func awayText(text string) string {
	lines := strings.Split(text, "\n")
	kinds := make([]lineKind, len(lines))
	var info CommandInfo
	cut := classifyLines(newScan(lines, nil), kinds, &info)
	return strings.Join(ownLines(lines[:cut], kinds[:cut]), "\n")
}

var absentRe = regexp.MustCompile(`(?i)out\sof\s(?:the\s)?office|away|vacation|holiday|absent|assente|ferie|vacanz|absen|cong[ée]|afwezig|vakantie|abwesend|urlaub|nicht\sim\sb[üu]ro`)

func looksAbsent(text string) bool {
	if len(text) > 4000 {
		text = text[:4000]
	}
	return absentRe.MatchString(text)
}

func verpTag(m *mailmsg.Message, self []string) mailmsg.Tag {
	var list []string
	list = append(list, m.DeliveredTo...)
	list = append(list, m.XOriginalTo...)
	list = append(list, m.EnvelopeTo...)
	list = append(list, mailmsg.Addrs(m.To)...)
	for _, a := range list {
		for _, s := range self {
			if t, ok := mailmsg.TagFromAddress(a, s); ok && t.Kind == mailmsg.TagBounce {
				return t
			}
		}
	}
	return mailmsg.Tag{}
}

// dsnInfo reads an RFC 3464 delivery-status body: a per-message block, then
// one block per recipient, all in header syntax (read with go-message's
// textproto).
func dsnInfo(m *mailmsg.Message) *BounceInfo {
	b := &BounceInfo{DSN: true}
	br := bufio.NewReader(bytes.NewReader(m.Report.Status))
	for block := 0; block < 64; block++ {
		h, err := textproto.ReadHeader(br)
		if fr := h.Get("Final-Recipient"); fr != "" || h.Get("Original-Recipient") != "" {
			if fr == "" {
				fr = h.Get("Original-Recipient")
			}
			r := FailedRecipient{
				Addr:       dsnAddr(fr),
				Action:     strings.ToLower(strings.TrimSpace(h.Get("Action"))),
				Status:     firstStatus(h.Get("Status")),
				Diagnostic: clip(mailmsg.NormalizeHeader(dsnValue(h.Get("Diagnostic-Code")))),
			}
			b.Recipients = append(b.Recipients, r)
			if r.Action == "failed" || strings.HasPrefix(r.Status, "5.") {
				b.Permanent = true
			}
		}
		if err != nil {
			break
		}
		if _, err := br.Peek(1); err != nil {
			break
		}
	}
	b.OriginalMessageID = returnedMessageID(m.Report.Returned)
	if b.OriginalMessageID == "" {
		// Some reporters (Gmail) name it in the per-message fields.
		h, _ := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(m.Report.Status)))
		b.OriginalMessageID = mailmsg.ScanMessageID(h.Get("X-Original-Message-Id"))
	}
	b.setOriginal()
	return b
}

func (b *BounceInfo) setOriginal() {
	if b.OriginalMessageID == "" {
		return
	}
	if ref, err := mailmsg.ParseMessageID(b.OriginalMessageID); err == nil {
		b.Original = &ref
	}
}

// dsnAddr reads "rfc822; anna@example.org" (address-type; address).
func dsnAddr(v string) string {
	if i := strings.IndexByte(v, ';'); i >= 0 {
		v = v[i+1:]
	}
	v = strings.Trim(strings.TrimSpace(v), "<>")
	return mailmsg.LowerDomain(v)
}

func dsnValue(v string) string {
	if i := strings.IndexByte(v, ';'); i >= 0 && i < 16 {
		v = v[i+1:]
	}
	return strings.TrimSpace(v)
}

func firstStatus(v string) string {
	if m := statusCodeRe.FindString(v); m != "" {
		return m
	}
	return strings.TrimSpace(v)
}

func returnedMessageID(hdr []byte) string {
	if len(hdr) == 0 {
		return ""
	}
	h, _ := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(append(bytes.TrimLeft(hdr, "\r\n"), '\n', '\n'))))
	if v := h.Get("Message-Id"); v != "" {
		if id := mailmsg.ScanMessageID(v); id != "" {
			return id
		}
	}
	if m := bodyMsgIDRe.FindSubmatch(hdr); m != nil {
		return string(m[1])
	}
	return ""
}

// classicBounce reads a free-text bounce (qmail, Exchange, old Sendmail):
// recipients are the addresses in angle brackets or on lines with an SMTP
// error code, the status is the first enhanced status code, the original
// Message-ID a "Message-ID:" line of the returned headers.
func classicBounce(m *mailmsg.Message, self []string) *BounceInfo {
	b := &BounceInfo{}
	text := m.Text
	if len(text) > 64<<10 {
		text = text[:64<<10]
	}
	// The returned message starts at its headers; recipients are listed
	// before that.
	head := text
	if loc := bodyMsgIDRe.FindStringIndex(text); loc != nil {
		head = text[:loc[0]]
		if i := strings.LastIndex(head, "\n\n"); i >= 0 && strings.Count(head[i:], ":") > 2 {
			head = head[:i]
		}
	}
	status := ""
	if s := statusCodeRe.FindString(head); s != "" {
		status = s
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(head, "\n") {
		cands := bracketAddrRe.FindAllStringSubmatch(line, 4)
		var addrs []string
		for _, c := range cands {
			addrs = append(addrs, c[1])
		}
		if len(addrs) == 0 {
			t := strings.TrimRight(strings.TrimSpace(line), ":")
			if smtpErrorRe.MatchString(line) || slices.Equal(mailmsg.ScanAddresses(t, 1), []string{t}) {
				addrs = mailmsg.ScanAddresses(line, 2)
			}
		}
		for _, a := range addrs {
			a = mailmsg.LowerDomain(strings.Trim(a, ".:;,"))
			if seen[a] || bounceFromRe.MatchString(a) || mailmsg.SameMailbox(a, m.From.Addr) || isOneOf(a, self) {
				continue
			}
			seen[a] = true
			b.Recipients = append(b.Recipients, FailedRecipient{Addr: a, Action: "failed", Status: status})
		}
	}
	b.Permanent = len(b.Recipients) > 0 && !strings.HasPrefix(status, "4.")
	if mm := bodyMsgIDRe.FindStringSubmatch(text); mm != nil {
		b.OriginalMessageID = mm[1]
	}
	if b.OriginalMessageID == "" && m.Report != nil {
		b.OriginalMessageID = returnedMessageID(m.Report.Returned)
	}
	b.setOriginal()
	return b
}

func isOneOf(a string, list []string) bool {
	for _, s := range list {
		if mailmsg.SameMailbox(a, s) {
			return true
		}
	}
	return false
}
