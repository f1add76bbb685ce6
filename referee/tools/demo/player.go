package demo

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	gomessage "github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// Brain decides what a mail player writes. The Player does the mail: it
// reads the mailbox over IMAP and sends over SMTP; the Brain only reads
// parsed mail and returns command text.
type Brain interface {
	// Start returns a first mail to send before anything arrived (to ""
	// for none).
	Start() (to, subject, text string)
	// Answer reads one new mail and returns the command text to reply
	// with ("" for no reply) and whether the player is done (the Player
	// stops after this mail).
	Answer(ctx context.Context, in *Incoming) (text string, done bool, err error)
}

// jsonless is a Brain that decides without the mail's JSON part
// (ScriptBrain): the Player leaves Incoming.JSON nil.
type jsonless interface{ WithoutJSON() bool }

// Incoming is one mail as the player's client sees it.
type Incoming struct {
	UID uint32
	Raw []byte
	// Msg is mailfmt's reading of the mail (headers, text).
	Msg *mailmsg.Message
	// JSON is the first application/json part (nil if none) and JSONName
	// its file name.
	JSON     []byte
	JSONName string
}

// Player is a bot that plays by mail exactly as a person with a mail
// client would: it watches its INBOX (IMAP IDLE), reads each new mail, and
// answers by replying to it (To the Reply-To, In-Reply-To and References
// set, its commands above a quoted copy of the mail) over SMTP.
type Player struct {
	Account Account
	Brain   Brain
	Logger  *slog.Logger
	// Resync is the safety re-sync interval while idling (default 10 s).
	Resync time.Duration
	// Observe, if set, is told of every mail sent (once the SMTP server
	// accepted it) and read (once fetched), for measurements. It runs on
	// the player's goroutine.
	Observe func(MailEvent)

	received, sent atomic.Int64
	lastUID        uint32
}

// MailEvent is one mail a Player sent or read.
type MailEvent struct {
	Sent bool
	// MessageID and InReplyTo are with angle brackets ("" when absent).
	MessageID, InReplyTo string
	At                   time.Time
}

// Received and Sent count the mails read and sent.
func (p *Player) Received() int64 { return p.received.Load() }

// Sent counts the mails sent.
func (p *Player) Sent() int64 { return p.sent.Load() }

// Run plays until the Brain says it is done (nil) or ctx ends (nil), and
// returns an error when the mail servers stay unreachable or the Brain
// fails. It reconnects after a lost connection.
func (p *Player) Run(ctx context.Context) (err error) {
	defer func() {
		if r := recover(); r != nil {
			p.log().Error("player panicked", slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
			err = fmt.Errorf("demo: player %s panicked: %v", p.Account.Addr, r)
		}
	}()
	if to, subject, text := p.Brain.Start(); to != "" {
		if err := p.send(ctx, to, subject, text, nil); err != nil {
			return err
		}
	}
	failures := 0
	for ctx.Err() == nil {
		done, healthy, err := p.session(ctx)
		if done || ctx.Err() != nil {
			return nil
		}
		var be *brainError
		if errors.As(err, &be) {
			return be.err
		}
		if healthy {
			failures = 0
		}
		failures++
		if failures > 5 {
			return fmt.Errorf("demo: player %s: %w", p.Account.Addr, err)
		}
		p.log().Warn("player reconnecting", slog.Any("err", err))
		select {
		case <-ctx.Done():
		case <-time.After(time.Duration(failures) * 200 * time.Millisecond):
		}
	}
	return nil
}

func (p *Player) log() *slog.Logger {
	if p.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return p.Logger
}

type brainError struct{ err error }

func (e *brainError) Error() string { return e.err.Error() }

// session is one IMAP connection: read what is new, answer, idle, repeat.
func (p *Player) session(ctx context.Context) (done, healthy bool, err error) {
	kick := make(chan struct{}, 1)
	c, err := dialIMAP(ctx, p.Account, &imapclient.Options{
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			// On the client's reader goroutine: only kick.
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					select {
					case kick <- struct{}{}:
					default:
					}
				}
			},
		},
	})
	if err != nil {
		return false, false, err
	}
	defer func() { _ = c.Close() }()
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	defer stop()
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		return false, false, fmt.Errorf("select INBOX: %w", err)
	}
	resync := p.Resync
	if resync <= 0 {
		resync = 10 * time.Second
	}
	for {
		select {
		case <-kick:
		default:
		}
		done, err := p.readNew(ctx, c)
		if err != nil || done {
			return done, healthy, err
		}
		healthy = true
		idle, err := c.Idle()
		if err != nil {
			return false, healthy, fmt.Errorf("idle: %w", err)
		}
		t := time.NewTimer(resync)
		select {
		case <-kick:
		case <-t.C:
		case <-ctx.Done():
		case <-c.Closed():
		}
		t.Stop()
		if ctx.Err() != nil {
			return false, healthy, ctx.Err()
		}
		if err := idle.Close(); err != nil {
			return false, healthy, fmt.Errorf("end idle: %w", err)
		}
		if err := idle.Wait(); err != nil {
			return false, healthy, fmt.Errorf("idle: %w", err)
		}
	}
}

// readNew fetches and answers the messages above the last UID seen.
func (p *Player) readNew(ctx context.Context, c *imapclient.Client) (bool, error) {
	var set imap.UIDSet
	set.AddRange(imap.UID(p.lastUID+1), 0)
	data, err := c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{set}}, nil).Wait()
	if err != nil {
		return false, fmt.Errorf("uid search: %w", err)
	}
	// "UID n:*" also matches the highest UID when it is below n.
	uids := slices.DeleteFunc(data.AllUIDs(), func(u imap.UID) bool { return uint32(u) <= p.lastUID })
	slices.Sort(uids)
	for len(uids) > 0 {
		n := min(len(uids), 50)
		var chunk imap.UIDSet
		for _, u := range uids[:n] {
			chunk.AddNum(u)
		}
		uids = uids[n:]
		section := &imap.FetchItemBodySection{}
		msgs, err := c.Fetch(chunk, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil {
			return false, fmt.Errorf("fetch: %w", err)
		}
		slices.SortFunc(msgs, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.UID) - int(b.UID) })
		for _, m := range msgs {
			if uint32(m.UID) <= p.lastUID {
				continue
			}
			p.lastUID = uint32(m.UID)
			done, err := p.handle(ctx, uint32(m.UID), m.FindBodySection(section))
			if err != nil || done {
				return done, err
			}
		}
	}
	return false, nil
}

// handle reads one mail and sends the Brain's answer.
func (p *Player) handle(ctx context.Context, uid uint32, raw []byte) (bool, error) {
	p.received.Add(1)
	m, err := mailmsg.Parse(raw, mailmsg.Options{})
	if err != nil {
		p.log().Warn("unreadable mail", slog.Uint64("uid", uint64(uid)), slog.Any("err", err))
		return false, nil
	}
	if p.Observe != nil {
		ev := MailEvent{MessageID: m.MessageID, At: time.Now()}
		if len(m.InReplyTo) > 0 {
			ev.InReplyTo = m.InReplyTo[0]
		}
		p.Observe(ev)
	}
	in := &Incoming{UID: uid, Raw: raw, Msg: m}
	if jb, ok := p.Brain.(jsonless); !ok || !jb.WithoutJSON() {
		in.JSON, in.JSONName = jsonPart(raw)
	}
	text, done, err := p.Brain.Answer(ctx, in)
	if err != nil {
		return false, &brainError{err: fmt.Errorf("demo: player %s: %w", p.Account.Addr, err)}
	}
	if text != "" {
		to := m.From.Addr
		if len(m.ReplyTo) > 0 && m.ReplyTo[0].Addr != "" {
			to = m.ReplyTo[0].Addr
		}
		if err := p.send(ctx, to, replySubject(m.Subject), text, m); err != nil {
			return false, err
		}
	}
	return done, nil
}

// send composes a plain-text mail (a reply to orig when given: threading
// headers and a quoted copy below the text) and sends it, retrying a few
// times.
func (p *Player) send(ctx context.Context, to, subject, text string, orig *mailmsg.Message) error {
	raw, id, err := p.compose(to, subject, text, orig)
	if err != nil {
		return err
	}
	for attempt := 1; ; attempt++ {
		err = Send(ctx, p.Account, []string{to}, raw)
		if err == nil {
			p.sent.Add(1)
			if p.Observe != nil {
				ev := MailEvent{Sent: true, MessageID: "<" + id + ">", At: time.Now()}
				if orig != nil {
					ev.InReplyTo = orig.MessageID
				}
				p.Observe(ev)
			}
			return nil
		}
		if attempt >= 5 || ctx.Err() != nil {
			return err
		}
		p.log().Warn("send failed; retrying", slog.Any("err", err))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(attempt) * 100 * time.Millisecond):
		}
	}
}

func (p *Player) compose(to, subject, text string, orig *mailmsg.Message) ([]byte, string, error) {
	var h gomail.Header
	now := time.Now()
	h.SetDate(now)
	h.SetAddressList("From", []*gomail.Address{{Name: p.Account.Name, Address: p.Account.Addr}})
	h.SetAddressList("To", []*gomail.Address{{Address: to}})
	h.SetSubject(subject)
	id, err := newMessageID(p.Account.Addr)
	if err != nil {
		return nil, "", err
	}
	h.SetMessageID(id)
	body := strings.TrimRight(text, "\n") + "\n"
	if orig != nil {
		parent := strings.Trim(orig.MessageID, "<>")
		var refs []string
		for _, r := range orig.References {
			refs = append(refs, strings.Trim(r, "<>"))
		}
		if parent != "" {
			h.SetMsgIDList("In-Reply-To", []string{parent})
			refs = append(refs, parent)
		}
		if len(refs) > 0 {
			h.SetMsgIDList("References", refs)
		}
		body += "\n" + quote(orig)
	}
	h.SetContentType("text/plain", map[string]string{"charset": "utf-8"})
	h.Set("Content-Transfer-Encoding", "quoted-printable")
	var buf bytes.Buffer
	w, err := gomail.CreateSingleInlineWriter(&buf, h)
	if err != nil {
		return nil, "", err
	}
	if _, err := io.WriteString(w, strings.ReplaceAll(body, "\n", "\r\n")); err != nil {
		return nil, "", err
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), id, nil
}

// quote is the attribution line and the original text, each line
// prefixed with "> ", as mail clients quote below a reply.
func quote(m *mailmsg.Message) string {
	var b strings.Builder
	who := m.From.Addr
	if m.From.Name != "" {
		who = m.From.Name + " <" + m.From.Addr + ">"
	}
	date := "an earlier date"
	if !m.Date.IsZero() {
		date = m.Date.Format("Mon, 2 Jan 2006 at 15:04")
	}
	fmt.Fprintf(&b, "On %s, %s wrote:\n", date, who)
	for _, l := range strings.Split(strings.TrimRight(m.Text, "\n"), "\n") {
		if l == "" {
			b.WriteString(">\n")
		} else {
			b.WriteString("> " + l + "\n")
		}
	}
	return b.String()
}

func replySubject(s string) string {
	if len(s) >= 3 && strings.EqualFold(s[:3], "re:") {
		return s
	}
	return "Re: " + s
}

func newMessageID(addr string) (string, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	_, _, domain := mailmsg.SplitPlus(addr)
	if domain == "" {
		domain = "localhost"
	}
	return hex.EncodeToString(b[:]) + "@" + domain, nil
}

// jsonPart returns the first application/json part of a mail and its
// file name.
func jsonPart(raw []byte) ([]byte, string) {
	mr, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil && !gomessage.IsUnknownCharset(err) {
		return nil, ""
	}
	if mr == nil {
		return nil, ""
	}
	defer func() { _ = mr.Close() }()
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil, ""
		}
		if err != nil && !gomessage.IsUnknownCharset(err) {
			return nil, ""
		}
		if part == nil {
			continue
		}
		ct := part.Header.Get("Content-Type")
		mt, params, _ := mime.ParseMediaType(ct)
		if mt != "application/json" {
			continue
		}
		data, err := io.ReadAll(part.Body)
		if err != nil {
			return nil, ""
		}
		name := params["name"]
		if _, dp, err := mime.ParseMediaType(part.Header.Get("Content-Disposition")); err == nil && dp["filename"] != "" {
			name = dp["filename"]
		}
		return data, name
	}
}
