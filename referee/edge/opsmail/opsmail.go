package opsmail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/store"
	"github.com/pbem-referee/referee/templates"
)

// DefaultPerDay is the default daily budget of operator mails.
const DefaultPerDay = 20

// Options configure a Notifier.
type Options struct {
	// Store holds the outbox and the daily count. Required.
	Store *store.DB
	// Queue is the outbox queue (referee.OutboxQueue when empty).
	Queue string
	// From is the referee's address (the mail's From and envelope
	// sender). Required.
	From mailmsg.Address
	// To is the operator's address. Required.
	To string
	// PerDay is the daily budget (DefaultPerDay when 0).
	PerDay int
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Kick, if set, is called after a mail is queued (the sender's Kick).
	Kick   func()
	Logger *slog.Logger
}

// Notifier queues the operator's mails. It is safe for concurrent use.
type Notifier struct {
	o Options
}

// New returns a Notifier.
func New(o Options) (*Notifier, error) {
	if o.Store == nil || o.To == "" || o.From.Addr == "" {
		return nil, errors.New("opsmail: a store, a From and an operator address are required")
	}
	if o.Queue == "" {
		o.Queue = referee.OutboxQueue
	}
	if o.PerDay <= 0 {
		o.PerDay = DefaultPerDay
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Notifier{o: o}, nil
}

// dayKey is the store key of a day's count.
func dayKey(t time.Time) string { return "opsmail:" + t.UTC().Format("2006-01-02") }

// SetAside queues the mail about one message set aside, within the daily
// budget. It reports whether a mail was queued.
func (n *Notifier) SetAside(_ context.Context, note referee.QuarantineNotice) (bool, error) {
	now := n.o.Now()
	queued := false
	err := n.o.Store.Update(func(tx *store.Tx) error {
		queued = false
		// Yesterday's count is no longer needed.
		if err := tx.EndAttempt(dayKey(now.Add(-24 * time.Hour))); err != nil {
			return err
		}
		count, err := tx.BeginAttempt(dayKey(now))
		if err != nil {
			return err
		}
		if count > n.o.PerDay+1 {
			return nil
		}
		subject, body := n.text(note, now, count)
		domain := n.o.From.Domain()
		id := fmt.Sprintf("<operator.%s.%d.%d@%s>", now.UTC().Format("20060102"), count, now.UnixNano(), domain)
		raw, err := mailmsg.Compose(mailmsg.Out{From: n.o.From, To: mailmsg.Address{Addr: n.o.To}, Subject: subject,
			MessageID: id, Date: now, Language: "en", Text: body, ReplyLine: "-"})
		if err != nil {
			return err
		}
		if _, err := tx.Enqueue(n.o.Queue, store.Item{Key: id, Kind: "operator", To: n.o.To, Payload: raw,
			Meta: map[string]string{referee.MetaFrom: n.o.From.Addr}, Created: now}); err != nil {
			return err
		}
		queued = true
		return nil
	})
	if err != nil {
		return false, err
	}
	if queued {
		if n.o.Kick != nil {
			n.o.Kick()
		}
	} else {
		n.o.Logger.Warn("operator mail budget spent for today; message set aside without a mail",
			slog.String("reason", note.Reason), slog.String("source", note.Source))
	}
	return queued, nil
}

// maxValue bounds each value quoted from a message.
const maxValue = 200

// clean makes a value from a message safe to show: one line, without
// control, format (bidi, zero-width) or private-use characters, valid
// UTF-8, at most maxValue characters.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Co, r):
			return -1
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > maxValue {
		s = string(r[:maxValue]) + "..."
	}
	if s == "" {
		return "(none)"
	}
	return s
}

// width is the longest line of the mail.
const width = 80

// wrap folds text at spaces to width columns, and cuts what is still
// longer (a long token) into pieces of width characters.
func wrap(text string) string {
	var out []string
	for _, l := range strings.Split(templates.Fold(text), "\n") {
		r := []rune(l)
		for len(r) > width {
			out = append(out, string(r[:width]))
			r = r[width:]
		}
		out = append(out, string(r))
	}
	return strings.Join(out, "\n")
}

// why explains each reason of a set-aside.
func why(reason string) string {
	switch reason {
	case "failed":
		return "its handling failed too many times"
	case "crashed":
		return "its handling stopped the referee too many times"
	case "too_large":
		return "it is larger than the configured limit"
	case "replayed":
		return "its provider token came earlier with another message"
	}
	return "it could not be handled"
}

// text is the mail's subject and body (English, for the operator).
func (n *Notifier) text(note referee.QuarantineNotice, now time.Time, count int) (string, string) {
	if count > n.o.PerDay {
		return "Referee: operator mail budget reached",
			wrap(fmt.Sprintf("More messages were set aside today (%s). This is the last "+
				"mail about them today (operator.mails_per_day = %d); the rest are recorded in the "+
				"store's quarantine and in the log only.\n", now.UTC().Format("2006-01-02"), n.o.PerDay))
	}
	where := "Kept: in the referee's store (its quarantine records), whole."
	if note.Raw == nil {
		where = "Kept: in the mailbox's quarantine folder; the store records it."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "A message was set aside: %s. Its sender, when a registered "+
		"player, has been told. It was not applied; look at it and hand it over "+
		"again if it is genuine.\n\n", why(note.Reason))
	fields := []struct{ k, v string }{
		{"Reason", note.Reason},
		{"Detail", note.Detail},
		{"Received by", note.Source},
		{"From", note.From},
		{"Message-ID", note.MessageID},
		{"Size", fmt.Sprintf("%d bytes", note.Size)},
		{"At", now.UTC().Format(time.RFC3339)},
	}
	for _, f := range fields {
		fmt.Fprintf(&b, "%s: %s\n", f.k, clean(f.v))
	}
	b.WriteString("\n" + where + "\n")
	fmt.Fprintf(&b, "\nMail %d of at most %d today about messages set aside.\n", count, n.o.PerDay)
	return "Referee: a message was set aside (" + clean(note.Reason) + ")", wrap(b.String())
}
