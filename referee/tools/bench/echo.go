package bench

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/textproto"
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

	handled atomic.Int64
}

// HandleMail implements mailin.Handler.
func (e *Echo) HandleMail(_ context.Context, in mailin.Inbound) (referee.Outcome, error) {
	end := bytes.Index(in.Raw, []byte("\r\n\r\n"))
	if end < 0 {
		end = len(in.Raw)
	}
	hdr, err := textproto.NewReader(bufio.NewReader(bytes.NewReader(in.Raw[:end]))).ReadMIMEHeader()
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
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: Echo <%s>\r\nTo: <%s>\r\nSubject: echo\r\nMessage-ID: %s\r\n", e.From, to, id)
	if msgID != "" {
		fmt.Fprintf(&b, "In-Reply-To: %s\r\n", msgID)
	}
	fmt.Fprintf(&b, "Date: %s\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\necho\r\n",
		now.Format(time.RFC1123Z))
	out := referee.Outcome{Status: referee.OutcomeApplied, Seat: -1, Replies: []string{id}}
	fresh, err := e.Referee.QueueReply(referee.RawReply{Keys: keys, Source: in.Source, From: to,
		MessageID: id, Kind: "echo", To: to, Sender: e.From, Payload: b.Bytes(), Created: now})
	if err != nil {
		return referee.Outcome{}, err
	}
	if !fresh {
		out = referee.Outcome{Status: referee.OutcomeDuplicate, Seat: -1}
	}
	if out.Status == referee.OutcomeApplied {
		e.handled.Add(1)
		if e.Kick != nil {
			e.Kick()
		}
	}
	return out, nil
}

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
