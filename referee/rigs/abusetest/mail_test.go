package abusetest

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/rigs/mailstack"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
)

// mail is a message the referee sent to one of the test's users.
type mail struct {
	raw []byte
	m   *mailmsg.Message
	js  *view // the JSON view (FORMAT json), nil if none
}

// view is the part of the referee's JSON view the suite reads.
type view struct {
	Game   string          `json:"game"`
	Seat   int             `json:"seat"`
	Token  int             `json:"token"`
	Prompt *engine.Prompt  `json:"prompt"`
	Legal  []engine.Option `json:"legal"`
}

// text is the mail's plain text with its lines joined, so that a check
// does not depend on where the 80-column layout broke a line.
func (m *mail) text() string { return strings.Join(strings.Fields(m.m.Text), " ") }

// answers reports whether the mail answers the message with this id.
func (m *mail) answers(id string) bool {
	for _, r := range m.m.InReplyTo {
		if r == id {
			return true
		}
	}
	return false
}

// mailbox reads one user's INBOX as it fills.
type mailbox struct {
	t      *testing.T
	ms     *mailstack.Stack
	user   string
	last   imap.UID
	unread []*mail
	latest *mail // the newest mail with a JSON view
}

func (b *mailbox) poll() {
	b.t.Helper()
	for _, m := range b.ms.MessagesAfter(b.t, b.user, "INBOX", b.last) {
		b.last = m.UID
		pm, err := mailmsg.Parse(m.Raw, mailmsg.Options{MaxBytes: 8 << 20})
		if err != nil {
			b.t.Fatalf("%s got a mail that does not parse: %v", b.user, err)
		}
		ml := &mail{raw: m.Raw, m: pm}
		if js := testkit.JSONPart(m.Raw); js != nil {
			var v view
			if json.Unmarshal(js, &v) == nil && v.Game != "" {
				ml.js = &v
				if b.latest == nil || v.Token >= b.latest.js.Token {
					b.latest = ml
				}
			}
		}
		b.unread = append(b.unread, ml)
	}
}

// next waits for the first unread mail that matches and takes it (and
// nothing else) off the unread list.
func (b *mailbox) next(what string, timeout time.Duration, match func(*mail) bool) *mail {
	b.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		b.poll()
		for i, m := range b.unread {
			if match(m) {
				b.unread = append(b.unread[:i:i], b.unread[i+1:]...)
				return m
			}
		}
		if time.Now().After(deadline) {
			var subj []string
			for _, m := range b.unread {
				subj = append(subj, m.m.Subject)
			}
			b.t.Fatalf("%s: no mail %s within %v (unread: %q)", b.user, what, timeout, subj)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// settle waits until nothing new arrived for quiet, then returns and
// clears the unread mails.
func (b *mailbox) settle(quiet time.Duration) []*mail {
	b.t.Helper()
	n := -1
	for {
		b.poll()
		if len(b.unread) == n {
			out := b.unread
			b.unread = nil
			return out
		}
		n = len(b.unread)
		time.Sleep(quiet)
	}
}

var msgSeq atomic.Int64

// newID returns a fresh Message-ID of a test user.
func newID(user string) string {
	return fmt.Sprintf("<abuse.%s.%d.%d@players.example.test>", user, msgSeq.Add(1), time.Now().UnixNano())
}

// compose builds a plain-text message. headers are complete header lines.
func compose(from, to, subject, id string, headers []string, body string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: %s\r\nDate: %s\r\nMIME-Version: 1.0\r\n",
		from, to, subject, id, time.Now().Format(time.RFC1123Z))
	for _, h := range headers {
		b.WriteString(h + "\r\n")
	}
	b.WriteString("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n")
	b.WriteString(strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\n", "\r\n"))
	return []byte(b.String())
}

// replyTo builds a player's reply to a referee mail, as a mail client
// would: to the Reply-To, threaded, "Re:" subject unless another is given.
func replyTo(user, addr string, orig *mail, subject, id, body string, headers ...string) []byte {
	if subject == "" {
		subject = "Re: " + orig.m.Subject
	}
	hs := append([]string{"In-Reply-To: " + orig.m.MessageID, "References: " + orig.m.MessageID}, headers...)
	return compose(user+" <"+addr+">", orig.m.ReplyTo[0].Addr, subject, id, hs, body)
}
