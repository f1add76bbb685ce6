// Package mailin is the mail-in edge: it turns one raw mail (RFC 5322
// bytes, from the IMAP watcher or the webhook front door) into what the
// core takes. It parses the mail (mailmsg.Parse, with the size limit),
// classifies it (mailfmt.Classify: the referee's own mail, a list's, a
// bounce, an auto-reply), finds the referee's tag, checks the sender
// (DKIM alignment or a trusted Authentication-Results, per AuthPolicy) and
// reads the player's own command text (quotes, signatures and prose left
// out); then it hands the core a referee.Request (Process), a bounce
// (Bounced), an auto-reply (AutoReplied: absences) or a mail set aside
// (SetAside: ignored, too large, unparseable, a list's).
//
// Trust only what can be checked (issue 23): an Authentication-Results
// header counts only with the configured authserv-id; a From domain that
// publishes an enforcing DMARC policy must be proven (AuthPolicy.
// DMARCDomains) even without RequireDKIM; a secret found in the Subject
// alone is dropped; untagged mail carries Request.Authenticated, which
// decides whether a REGISTER is answered at all. Mail from a list or
// another robot (List-Id, Precedence bulk/list/junk, another's X-Loop) is
// never applied, and a registered player is told why once a day. Bytes a
// transport cannot vouch for (Inbound.Unbound: a Mailgun forward() post,
// whose signature does not cover the message) prove their sender only by
// a DKIM signature verified here, never by a header written in them.
//
// A message a transport sets aside (NotifyQuarantined) is recorded by the
// referee, its sender told, and the operator told by mail
// (Options.Operator, referee/edge/opsmail) within a daily budget.
//
// One reading (issue 25): a raw mail is parsed once (Parse: the message
// and the referee's tag in its headers) and its own text read once, by
// the request's one reading (referee/reading): a transport that reads the
// headers before it hands the mail over parses with Parse and hands the
// same Parsed to HandleParsed (Reader; imapin's lanes take their keys from
// that reading, Parsed.LaneKeys: the From address and every game its tag
// candidates name); a subject-only auto-reply's text read for a command
// (Referee.HasCommand) is read through the request later given to
// Process. TestEveryMailReadOnce, here and in imapin (through the IMAP
// Watcher's lanes), fails when one mail is parsed twice or its text read
// twice, over whole games by mail.
//
// It owns the reading of one raw mail into what the core takes: parsing
// and size, classification, the tag, the sender's proof, the player's own
// command text. It must not touch the store, a mailbox (its caller,
// imapin or webhook, fetches and files the message) or the network but
// through the DNS lookups it is given (AuthPolicy.LookupTXT), nor decide
// a move or word an answer (the core does, through referee.Request).
package mailin

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"

	"github.com/pbem-referee/referee/referee"
)

// Inbound is one raw message handed over by a transport (the IMAP watcher,
// the webhook front door, a test).
type Inbound struct {
	// Raw is the message exactly as received (RFC 5322 bytes).
	Raw []byte
	// Source names the transport: "imap", "webhook:raw", "webhook:mailgun",
	// "webhook:sendgrid", "webhook:postmark", "test".
	Source string
	// Keys are de-duplication keys the transport knows besides the
	// Message-ID, for example "imap:<account>/<mailbox>/<uidvalidity>/<uid>".
	// The referee records them, with the Message-ID, in the same
	// transaction as the effects of the message.
	Keys []string
	// Received is when the transport received the message.
	Received time.Time
	// Unbound marks bytes that the transport's own authentication does
	// not cover: a Mailgun forward() post, whose signature covers a
	// timestamp and a token but not the message, so that whoever captured
	// one signature could post any body with it (issue 23). Such a mail
	// proves its sender only by a DKIM signature verified here and aligned
	// with its From domain, whatever AuthPolicy says: an
	// Authentication-Results header is never believed (a forger writes
	// one as easily as the body), and without the proof the mail acts for
	// no seat, player or organiser, and an untagged REGISTER is not
	// answered. The forger can then only replay a genuine signed mail,
	// which de-duplication by Message-ID answers as a duplicate.
	Unbound bool
}

// Handler processes raw inbound mail. Intake implements it; the
// transports call it.
//
// HandleMail processes one message in exactly one store transaction: the
// de-duplication record, the game changes, the log entries and the outbox
// rows are committed together. It returns only after that commit, so a
// transport may then acknowledge the message (move it to the processed
// folder, answer 200 to a webhook). A *referee.PermanentError means the
// message can never be processed (the transport quarantines it); any other
// error is transient (the transport retries later, and de-duplication
// makes the retry safe).
type Handler interface {
	HandleMail(ctx context.Context, in Inbound) (referee.Outcome, error)
}

// AuthPolicy is how the intake checks that a mail really comes from its
// From address, on top of the seat's secret token (always required).
type AuthPolicy struct {
	// RequireDKIM requires an aligned DKIM signature (the signing domain
	// matches the From domain, relaxed alignment).
	RequireDKIM bool
	// AuthservID, if set, trusts the Authentication-Results field of the
	// receiving server with this authserv-id instead of verifying DKIM
	// here (a DKIM pass aligned with From, or a DMARC pass).
	AuthservID string
	// LookupTXT resolves DKIM keys and DMARC records (net.LookupTXT in
	// production, a fake in tests).
	LookupTXT func(domain string) ([]string, error)
	// DMARCDomains requires the same proof as RequireDKIM, without it,
	// from the domains that publish an enforcing DMARC policy
	// (p=quarantine or reject): they sign their mail, so an unsigned one
	// claiming them is forged (issue 23).
	DMARCDomains bool
}

// Options configure an Intake.
type Options struct {
	// MaxMessageBytes limits a mail (0: mailfmt's default).
	MaxMessageBytes int
	// Auth is the sender-authentication policy.
	Auth AuthPolicy
	// Operator, if set, is told of every message a transport sets aside
	// (NotifyQuarantined), after the referee recorded it and told its
	// sender (issue 23: the operator by mail, see referee/edge/opsmail).
	Operator Operator
	Logger   *slog.Logger
}

// Operator is told when a message is set aside (opsmail.Notifier).
type Operator interface {
	SetAside(ctx context.Context, n referee.QuarantineNotice) (bool, error)
}

// Intake reads raw mail for a referee. It is safe for concurrent use.
type Intake struct {
	r     *referee.Referee
	opt   Options
	log   *slog.Logger
	dmarc *dmarcCache
}

// New returns the intake of a referee.
func New(r *referee.Referee, opt Options) *Intake {
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Intake{r: r, opt: opt, log: log, dmarc: &dmarcCache{now: time.Now, seen: map[string]dmarcEntry{}}}
}

// subjectOnlyOOF is mailfmt.Classify's reason for an auto-reply recognised
// by its Subject alone.
const subjectOnlyOOF = "out-of-office subject"

// Parsed is one raw mail as the intake read it, once: the message parsed
// (with the size limit) and the referee's tag found in its headers
// (mailmsg.FindTag, every candidate listed). A transport that needs the
// headers before it hands the mail over (imapin's lanes: the sender and
// the games a mail names) reads them with Parse and hands the same Parsed
// to HandleParsed, which parses nothing again (issue 25: a mail is read
// once, in one place).
type Parsed struct {
	In Inbound
	// Msg is the parsed message: nil when it could not be parsed (Err),
	// the headers only when it is too large (Err is mailmsg.ErrTooLarge).
	Msg *mailmsg.Message
	Err error
	// Tag is the referee's tag in Msg's headers (zero when Msg is nil).
	Tag mailmsg.TagResult
}

// ParseHook, set by tests only, is told of every parse of a raw mail
// (ParseMail, Intake.Parse): TestEveryMailReadOnce, here and through
// imapin's Watcher, fails when one mail is parsed twice.
var ParseHook func(in Inbound)

// Reader is a Handler that reads a raw mail once, in two steps, for a
// transport that needs the mail's headers before it hands it over
// (imapin's lanes: LaneKeys): Parse, then HandleParsed with the same
// Parsed, parses nothing again. Intake is one. A wrapper around a
// handler that is not a Reader returns nil from Parse: the transport
// then hands the raw mail over (HandleMail).
type Reader interface {
	Handler
	Parse(in Inbound) *Parsed
	HandleParsed(ctx context.Context, p *Parsed) (referee.Outcome, error)
}

var _ Reader = (*Intake)(nil)

// Parse reads a raw mail once: the message and its tag (see Parsed).
func (i *Intake) Parse(in Inbound) *Parsed {
	return ParseMail(in, i.opt.MaxMessageBytes, i.r.Address())
}

// ParseMail reads a raw mail once, as Intake.Parse does, with the size
// limit maxBytes (0: mailfmt's default) and the tag of the referee whose
// base address is address ("": the tags of the subject and the
// referee's Message-IDs only). Tests read a mail's lane keys with it.
func ParseMail(in Inbound, maxBytes int, address string) *Parsed {
	if ParseHook != nil {
		ParseHook(in)
	}
	m, err := mailmsg.Parse(in.Raw, mailmsg.Options{MaxBytes: maxBytes})
	p := &Parsed{In: in, Msg: m, Err: err}
	if m != nil {
		p.Tag = mailmsg.FindTag(m, mailmsg.Address{Addr: address})
	}
	return p
}

// LaneKeys are what ties a mail to others that must keep their order
// (imapin's lanes): its sender ("from:" and the From address, lower
// case) and every game its tag names, wherever the tag was found
// ("game:" and the game of each of Tag.Candidates: the referee's plus
// address in Delivered-To, To, Cc and the like, the subject's tag, the
// referee's Message-IDs in In-Reply-To and References). Two seats' mails
// about one game, or one person writing from two addresses about one
// game, so share a key. A mail too large keeps the keys of its headers;
// an unparseable one has none.
func (p *Parsed) LaneKeys() []string {
	if p.Msg == nil {
		return nil
	}
	var keys []string
	add := func(k string) {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	if a := p.Msg.From.Addr; a != "" {
		add("from:" + strings.ToLower(a))
	}
	for _, c := range p.Tag.Candidates {
		if c.Tag.Game != "" {
			add("game:" + strings.ToLower(c.Tag.Game))
		}
	}
	return keys
}

// HandleMail implements Handler: it parses a raw mail (Parse) and handles
// it (HandleParsed).
func (i *Intake) HandleMail(ctx context.Context, in Inbound) (referee.Outcome, error) {
	return i.HandleParsed(ctx, i.Parse(in))
}

// HandleParsed handles a mail Parse read, with HandleMail's contract: it
// sets aside what must never be answered (auto-replies go to the absence
// logic, bounces mark the address as failing), identifies the game and
// seat from the tag, checks the sender, extracts the player's own
// commands and has the referee process them in one transaction.
func (i *Intake) HandleParsed(ctx context.Context, p *Parsed) (referee.Outcome, error) {
	r, in, m, err := i.r, p.In, p.Msg, p.Err
	if err != nil {
		if errors.Is(err, mailmsg.ErrTooLarge) && m != nil {
			return r.SetAside(ctx, referee.SetAside{Reason: referee.AsideTooLarge, Keys: append([]string{"msgid:" + m.MessageID}, in.Keys...),
				Source: in.Source, From: m.From.Addr, MessageID: m.MessageID, Max: i.opt.MaxMessageBytes})
		}
		// Kept for the operator: a webhook has no quarantine folder.
		return r.SetAside(ctx, referee.SetAside{Reason: referee.AsideUnparseable, Detail: "unparseable message: " + err.Error(),
			Source: in.Source, Raw: in.Raw})
	}
	keys := append([]string{"msgid:" + m.MessageID}, in.Keys...)
	cls := mailfmt.Classify(m, []string{r.Address()})
	text, info := r.Keywords().MailCommands(m)
	// The request holds the one reading of the text (issue 25): a
	// subject-only auto-reply's text read for a command (HasCommand) is
	// not read again when the same request goes to Process.
	req := referee.Request{
		From: m.From.Addr, FromName: mailmsg.CleanName(m.From.Name), Token: -1, Text: text, MessageID: m.MessageID,
		Keys: keys, Source: in.Source, Received: in.Received, Seat: -1,
		Read: &referee.ReadInfo{Lines: info.Lines, Markers: info.Markers, Unclosed: info.Unclosed, Outside: info.Outside,
			Quote: info.Quote, QuoteHeader: info.QuoteHeader, Signature: info.Signature, SignatureLine: info.SignatureLine,
			Forwarded: info.Forwarded, Greeting: info.Greeting, SignOff: info.SignOff},
	}
	switch cls.Class {
	case mailfmt.Self:
		return r.SetAside(ctx, referee.SetAside{Reason: referee.AsideIgnored, Detail: cls.Class.String() + ": " + cls.Reason,
			Keys: keys, Source: in.Source, From: m.From.Addr, MessageID: m.MessageID})
	case mailfmt.List:
		// Not applied; a registered player is told why (issue 23).
		return r.SetAside(ctx, referee.SetAside{Reason: referee.AsideList, Detail: cls.Reason,
			Keys: keys, Source: in.Source, From: m.From.Addr, MessageID: m.MessageID})
	case mailfmt.Bounce:
		return r.Bounced(ctx, referee.Bounce{Keys: keys, Source: in.Source, Info: cls.Bounce})
	case mailfmt.AutoReply:
		// The Subject alone decides only when the body holds no command:
		// "On vacation next week" over a VACATION line is a player's mail
		// (issue 11, item 5).
		if cls.Reason != subjectOnlyOOF || !r.HasCommand(&req) {
			return r.AutoReplied(ctx, referee.AutoReply{Keys: keys, Source: in.Source, From: m.From.Addr, Tag: p.Tag.Tag, Class: cls})
		}
	}
	if m.From.Addr == "" {
		// No sender address (no From, an empty or unparseable one, a
		// group): nobody can be answered or authenticated, so nothing is
		// processed. Set aside as ignored, a permanent outcome: before
		// (found by FuzzWholeMail), a REGISTER without one failed in the
		// store and was retried as transient (issue 23, rule 2).
		return r.SetAside(ctx, referee.SetAside{Reason: referee.AsideIgnored, Detail: "no sender address",
			Keys: keys, Source: in.Source, MessageID: m.MessageID})
	}
	tr := p.Tag
	t := tr.Tag
	if tr.SecretFrom == mailmsg.SourceSubject {
		// Issue 23: a secret found in the Subject alone is no
		// authentication (subjects are seen in previews, forwards and
		// screenshots); only the address the mail was sent to counts.
		t.Secret = ""
	}
	switch t.Kind {
	case mailmsg.TagSeat:
		req.Kind, req.Game, req.Seat, req.Secret = referee.KindSeat, t.Game, t.Seat, t.Secret
	case mailmsg.TagPlayer:
		req.Kind, req.Secret = referee.KindPlayer, t.Secret
	case mailmsg.TagOrg:
		req.Kind, req.Secret = referee.KindOrg, t.Secret
	}
	if t.Token >= 0 {
		req.Token = int(t.Token)
	}
	if tr.Conflict {
		// Harmless when older mails in References carry a seat number from
		// before the seat order was drawn; the secret decides.
		i.log.Debug("tag sources disagree", slog.String("msgid", m.MessageID), slog.String("kind", t.Kind.String()))
	}
	req.SenderVerified = i.senderVerified(m, in.Raw)
	if req.Kind == "" {
		// Untagged mail (REGISTER): is the From proven, whatever the
		// policy? Only then is it answered (issue 23, no backscatter).
		req.Authenticated = i.authenticated(m, in.Raw)
	}
	if in.Unbound {
		// Bytes no transport vouches for: only our own DKIM check counts
		// (issue 23, a captured Mailgun signature).
		proven := i.dkimAligned(m, in.Raw)
		req.SenderVerified = proven
		if req.Kind == "" {
			req.Authenticated = proven
		}
	}
	return r.Process(ctx, req)
}

// NotifyQuarantined implements referee.QuarantineNotifier: a transport's
// quarantine notice goes to the referee as it is, then to the Operator.
// The operator is told once per message: not when the referee answers
// duplicate (a transport telling the same set-aside again). A failure to
// tell the operator is logged, never the transport's failure: the message
// is recorded and its sender told.
func (i *Intake) NotifyQuarantined(ctx context.Context, n referee.QuarantineNotice) (referee.Outcome, error) {
	out, err := i.r.NotifyQuarantined(ctx, n)
	if err != nil || out.Status == referee.OutcomeDuplicate || i.opt.Operator == nil {
		return out, err
	}
	if _, oerr := i.opt.Operator.SetAside(ctx, n); oerr != nil {
		i.log.Error("could not queue the operator's mail about a message set aside", slog.String("reason", n.Reason),
			slog.Any("err", oerr))
	}
	return out, nil
}

// senderVerified applies the AuthPolicy.
func (i *Intake) senderVerified(m *mailmsg.Message, raw []byte) bool {
	p := i.opt.Auth
	if p.RequireDKIM || p.DMARCDomains && i.dmarc.enforces(m.From.Domain(), p.LookupTXT) {
		return i.authenticated(m, raw)
	}
	return true
}

// authenticated reports whether the From address is proven: by the
// Authentication-Results of our own configured authserv-id (never another
// one's, issue 23), or else by a DKIM signature verified here and aligned
// with the From domain.
func (i *Intake) authenticated(m *mailmsg.Message, raw []byte) bool {
	p := i.opt.Auth
	dom := m.From.Domain()
	if p.AuthservID != "" {
		ar, err := mailmsg.AuthResults(m, p.AuthservID)
		if err != nil || !ar.Found {
			return false
		}
		return ar.DKIMAligned(dom, false) || (strings.EqualFold(ar.DMARC, "pass") && strings.EqualFold(ar.DMARCFrom, dom))
	}
	return i.dkimAligned(m, raw)
}

// dkimAligned reports whether raw carries a DKIM signature verified here
// and aligned (relaxed) with the From domain.
func (i *Intake) dkimAligned(m *mailmsg.Message, raw []byte) bool {
	if i.opt.Auth.LookupTXT == nil {
		return false
	}
	res, err := mailmsg.VerifyDKIM(raw, i.opt.Auth.LookupTXT)
	if err != nil {
		return false
	}
	return mailmsg.DKIMAligned(res, m.From.Domain(), false)
}
