package demo

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// tracker counts the mails of each game and remembers when each message
// reached each mailbox, from the mail server's deliveries.
type tracker struct {
	referee string // the referee's address, set once the site runs

	mu    sync.Mutex
	games map[string]int
	at    map[string]time.Time // account + " " + Message-ID
}

func newTracker() *tracker {
	return &tracker{games: map[string]int{}, at: map[string]time.Time{}}
}

func (t *tracker) deliver(d Delivery) {
	game := gameOfDelivery(d)
	t.mu.Lock()
	defer t.mu.Unlock()
	if game != "" {
		t.games[game]++
	}
	t.at[strings.ToLower(d.Account)+" "+d.MessageID] = d.At
}

// gameOfDelivery is the game a mail belongs to: from the seat tag of the
// recipient (a player writing to the referee) or from the referee's
// Message-ID (<rf.<game>.<seat>...>).
func gameOfDelivery(d Delivery) string {
	if _, detail, _ := mailmsg.SplitPlus(d.Rcpt); detail != "" {
		if t, err := mailmsg.ParseTag(detail); err == nil && t.Game != "" {
			return t.Game
		}
	}
	id := strings.Trim(d.MessageID, "<> ")
	if rest, ok := strings.CutPrefix(id, "rf."); ok {
		if g, _, ok := strings.Cut(rest, "."); ok && g != "x" {
			return g
		}
	}
	return ""
}

func (t *tracker) game(id string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.games[id]
}

func (t *tracker) when(account, msgID string) (time.Time, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	at, ok := t.at[strings.ToLower(account)+" "+msgID]
	return at, ok
}

// transcriptEntry is one mail of a transcript.
type transcriptEntry struct {
	at   time.Time
	seq  int
	in   bool
	msg  *mailmsg.Message
	size int
}

// writeTranscript writes a player's mailbox, with the player's own mails
// (read from the referee's mailbox) in between, in delivery order, as
// readable text.
func writeTranscript(ctx context.Context, path string, acc Account, sentBy map[string][]StoredMessage, tr *tracker) error {
	inbox, err := FetchAll(ctx, acc, "INBOX")
	if err != nil {
		return err
	}
	var es []transcriptEntry
	add := func(m StoredMessage, account string, in bool) {
		pm, err := mailmsg.Parse(m.Raw, mailmsg.Options{})
		if err != nil {
			return
		}
		at, ok := tr.when(account, pm.MessageID)
		if !ok {
			at = m.Date
		}
		es = append(es, transcriptEntry{at: at, seq: len(es), in: in, msg: pm, size: len(m.Raw)})
	}
	for _, m := range inbox {
		add(m, acc.Addr, true)
	}
	for _, m := range sentBy[strings.ToLower(acc.Addr)] {
		add(m, tr.referee, false)
	}
	sort.SliceStable(es, func(i, j int) bool {
		if !es[i].at.Equal(es[j].at) {
			return es[i].at.Before(es[j].at)
		}
		return es[i].seq < es[j].seq
	})
	var b strings.Builder
	fmt.Fprintf(&b, "Mailbox of %s: %d mails received, %d sent, in delivery order.\n", acc.Addr, len(inbox), len(es)-len(inbox))
	for i, e := range es {
		dir := "received"
		if !e.in {
			dir = "sent"
		}
		m := e.msg
		fmt.Fprintf(&b, "\n======== %d. %s %s ========\n", i+1, dir, e.at.Format("15:04:05.000"))
		fmt.Fprintf(&b, "From: %s\n", m.From.String())
		for _, to := range m.To {
			fmt.Fprintf(&b, "To: %s\n", to.String())
		}
		for _, rt := range m.ReplyTo {
			fmt.Fprintf(&b, "Reply-To: %s\n", rt.String())
		}
		fmt.Fprintf(&b, "Subject: %s\nMessage-ID: %s\n", m.Subject, m.MessageID)
		if len(m.InReplyTo) > 0 {
			fmt.Fprintf(&b, "In-Reply-To: %s\n", strings.Join(m.InReplyTo, " "))
		}
		b.WriteString("\n")
		b.WriteString(strings.TrimRight(m.Text, "\n"))
		b.WriteString("\n")
		for _, a := range m.Attachments {
			fmt.Fprintf(&b, "[attachment %s, %s]\n", a.Filename, a.ContentType)
		}
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
