package bench

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/tools/demo"
)

// Echo is the benchmark's pass-through referee: a mailin.Handler that
// parses nothing and applies nothing. For each mail it reads only the
// header block (the Return-Path the delivering server added, and the
// Message-ID) and asks the referee to record the input for de-duplication
// and queue one reply to the sender in the outbox, in one store
// transaction (referee.Referee.QueueReply), with a
// Message-ID derived from the input's (stable across retries). It is the
// cost of the mail loop itself: the IMAP watcher, the store, the SMTP
// sender and the servers, without the referee's work.
type Echo struct {
	// Referee records the inputs and queues the replies.
	Referee *referee.Referee
	Domain  string
	// From is the echo's address (the envelope and header sender).
	From string
	// Kick wakes the outbox sender after a commit.
	Kick func()
	// Like with like (issue 13.5): the referee answers a move with a mail
	// to every seat, the echo the sender only, and the referee's mails are
	// larger. Copies is the number of further mails per input (a fraction
	// spreads them evenly over the inputs), each a copy of the echo to
	// CopyTo(sender) with the subject "echo copy" (which the echo players
	// ignore); Size pads every echo to about that many bytes. The bench
	// sets both from the referee run, so that both runs deliver the same
	// mails per input, of the same mean size.
	Copies float64
	CopyTo func(to string) string
	Size   int

	handled  atomic.Int64
	copies   atomic.Int64
	numbered atomic.Int64 // the calls taken, for copiesFor
}

// copiesFor returns how many copies the n-th input (from 1) gets: the
// running total is the floor of n * Copies.
func (e *Echo) copiesFor(n int64) int {
	if e.Copies <= 0 || e.CopyTo == nil {
		return 0
	}
	return int(float64(n)*e.Copies) - int(float64(n-1)*e.Copies)
}

// pad fills the body of an echo up to the size wanted, in lines of 76
// characters.
func (e *Echo) pad(b *bytes.Buffer) {
	line := strings.Repeat("x", 76) + "\r\n"
	for b.Len()+len(line) <= e.Size {
		b.WriteString(line)
	}
}

// HandleMail implements mailin.Handler.
func (e *Echo) HandleMail(_ context.Context, in mailin.Inbound) (referee.Outcome, error) {
	hdr, err := headerOf(in.Raw)
	if err != nil && len(hdr) == 0 {
		return referee.Outcome{}, referee.Permanent("echo: unreadable header: %v", err)
	}
	to := strings.Trim(strings.TrimSpace(hdr.Get("Return-Path")), "<>")
	if to == "" {
		return referee.Outcome{}, referee.Permanent("echo: no Return-Path")
	}
	msgID := strings.TrimSpace(hdr.Get("Message-Id"))
	keys := append([]string(nil), in.Keys...)
	if msgID != "" {
		keys = append(keys, "msgid:"+msgID)
	}
	if len(keys) == 0 {
		return referee.Outcome{}, errors.New("echo: no de-duplication key")
	}
	sum := sha256.Sum256([]byte(keys[len(keys)-1]))
	id := "<echo." + hex.EncodeToString(sum[:12]) + "@" + e.Domain + ">"
	now := time.Now()
	mail := func(id, to, subject string) []byte {
		var b bytes.Buffer
		fmt.Fprintf(&b, "From: Echo <%s>\r\nTo: <%s>\r\nSubject: %s\r\nMessage-ID: %s\r\n", e.From, to, subject, id)
		if msgID != "" {
			fmt.Fprintf(&b, "In-Reply-To: %s\r\n", msgID)
		}
		fmt.Fprintf(&b, "Date: %s\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\necho\r\n",
			now.Format(time.RFC1123Z))
		e.pad(&b)
		return b.Bytes()
	}
	out := referee.Outcome{Status: referee.OutcomeApplied, Seat: -1, Replies: []string{id}}
	rr := referee.RawReply{Keys: keys, Source: in.Source, From: to,
		MessageID: id, Kind: "echo", To: to, Sender: e.From, Payload: mail(id, to, "echo"), Created: now}
	// The copies are numbered by the inputs taken so far, each call its
	// own number (concurrent hand-overs no longer share one: with the
	// intake's hand-overs presumed ahead, issue 25, two of them often read
	// the same count of inputs answered and the copies fell short of
	// Copies); a retried input gets another number, which changes the
	// load, not the result.
	for k := range e.copiesFor(e.numbered.Add(1)) {
		cid := "<echo." + hex.EncodeToString(sum[:12]) + fmt.Sprintf(".c%d@", k+1) + e.Domain + ">"
		cto := e.CopyTo(to)
		rr.Also = append(rr.Also, referee.RawReply{MessageID: cid, Kind: "echo copy", To: cto, Sender: e.From,
			Payload: mail(cid, cto, "echo copy"), Created: now})
		// Queued for the input, as the referee's mails to the other
		// seats are (the bench's reaction latency takes the first).
		out.Replies = append(out.Replies, cid)
	}
	fresh, err := e.Referee.QueueReply(rr)
	if err != nil {
		return referee.Outcome{}, err
	}
	if !fresh {
		out = referee.Outcome{Status: referee.OutcomeDuplicate, Seat: -1}
	}
	if out.Status == referee.OutcomeApplied {
		e.handled.Add(1)
		e.copies.Add(int64(len(rr.Also)))
		if e.Kick != nil {
			e.Kick()
		}
	}
	return out, nil
}

// CopiesQueued counts the copies queued.
func (e *Echo) CopiesQueued() int64 { return e.copies.Load() }

// Handled counts the mails answered.
func (e *Echo) Handled() int64 { return e.handled.Load() }

// echoBrain pings the echo referee: it writes first, then answers each
// echo until it sent Rounds mails and read the last echo.
type echoBrain struct {
	to     string
	rounds int
	sent   int
}

func (b *echoBrain) Start() (string, string, string) {
	b.sent = 1
	return b.to, "ping", "PING 1"
}

func (b *echoBrain) Answer(_ context.Context, in *demo.Incoming) (string, bool, error) {
	if !strings.EqualFold(in.Msg.Subject, "echo") {
		return "", false, nil
	}
	if b.sent >= b.rounds {
		return "", true, nil
	}
	b.sent++
	return fmt.Sprintf("PING %d", b.sent), false, nil
}
