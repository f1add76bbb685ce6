package ledger

import (
	"errors"
	"time"

	"github.com/pbem-referee/referee/referee/outcome"
	"github.com/pbem-referee/referee/referee/records"
	"github.com/pbem-referee/referee/store"
)

// The outbox contract between the referee, which writes mails into the
// store's "outbox" queue in the transaction of the change that caused them,
// and the SMTP sender, which delivers them after commit:
//
//	store.Item.Key          the Message-ID, with angle brackets (stable across retries)
//	store.Item.To           the one recipient (envelope RCPT TO)
//	store.Item.Meta["from"] the envelope sender (MAIL FROM; a VERP bounce address)
//	store.Item.Payload      the complete message (mailmsg.Compose output)
//	store.Item.Game, Kind   for operators and metrics
const (
	// OutboxQueue is the store queue of outgoing mail.
	OutboxQueue = "outbox"
	// HooksQueue is the store queue of outgoing webhook calls.
	HooksQueue = "hooks"
	// MetaFrom is the Item.Meta key of the envelope sender.
	MetaFrom = "from"
)

// Queries answers from the store's books, each in one transaction.
type Queries struct {
	DB *store.DB
}

// Counts are the sizes the metrics export.
type Counts struct {
	// Queues are the pending items of each queue asked for.
	Queues map[string]int
	// Games are the games by status; every known status is present, zero
	// included.
	Games map[string]int
}

// Counts reads the pending items of the given queues and the games by
// status, in one read transaction: the games from the store's counts by
// status (store/gameindex.go), kept as games are saved, so that a metrics
// scrape reads no game (issue 25: 5 s and 600 MB at 100,000 games).
func (q Queries) Counts(queues ...string) (Counts, error) {
	c := Counts{Queues: map[string]int{}, Games: map[string]int{}}
	err := q.DB.View(func(tx *store.Tx) error {
		for _, name := range queues {
			c.Queues[name] = tx.QueueLen(name)
		}
		c.Games = tx.GameCounts()
		return nil
	})
	if err != nil {
		return Counts{}, err
	}
	for _, s := range []string{records.StatusForming, records.StatusRunning, records.StatusPaused, records.StatusOver, records.StatusAborted} {
		c.Games[s] += 0
	}
	return c, nil
}

// QueueSize returns the number of items in a queue and their payloads'
// total size.
func (q Queries) QueueSize(queue string) (items int, bytes int64, err error) {
	err = q.DB.View(func(tx *store.Tx) error {
		return tx.Items(queue, func(it store.Item) error {
			items++
			bytes += int64(len(it.Payload))
			return nil
		})
	})
	return items, bytes, err
}

// UseReplayToken records that a provider's one-time token came with the
// message msgid, until expires (the webhook's replay guard, kept across
// restarts). fresh is true the first time; otherwise prev is the message it
// first came with. With prune, expired tokens are deleted in the same
// transaction.
func (q Queries) UseReplayToken(token, msgid string, now, expires time.Time, prune bool) (prev string, fresh bool, err error) {
	err = q.DB.Update(func(tx *store.Tx) error {
		if prune {
			if _, err := tx.PruneReplay(now); err != nil {
				return err
			}
		}
		var err error
		prev, fresh, err = tx.UseReplayToken(token, msgid, expires)
		return err
	})
	return prev, fresh, err
}

// RawReply is a mail composed outside the referee that answers one input:
// the benchmark's pass-through "echo" referee.
type RawReply struct {
	// Keys are the input's de-duplication keys; Source its transport;
	// From its sender.
	Keys   []string
	Source string
	From   string
	// MessageID (with angle brackets), Kind, To, Sender (the envelope
	// sender) and Payload (the whole mail) make the outbox item.
	MessageID string
	Kind      string
	To        string
	Sender    string
	Payload   []byte
	Created   time.Time
	// Also are further mails queued in the same transaction (their
	// MessageID, Kind, To, Sender, Payload and Created are used): the
	// bench's echo sends as many mails per input as the referee does.
	Also []RawReply
}

// QueueReply records the input as applied and queues the reply in the
// outbox, in one transaction, as the referee does with its own answers. It
// returns false, and queues nothing, when the input was already processed.
func (q Queries) QueueReply(m RawReply) (bool, error) {
	if len(m.Keys) == 0 {
		return false, errors.New("referee: reply without de-duplication keys")
	}
	fresh := false
	err := q.DB.Update(func(tx *store.Tx) error {
		if _, seen, err := tx.Seen(m.Keys...); err != nil || seen {
			return err
		}
		for _, o := range append([]RawReply{m}, m.Also...) {
			if _, err := tx.Enqueue(OutboxQueue, store.Item{Key: o.MessageID, Kind: o.Kind, To: o.To, Payload: o.Payload,
				Meta: map[string]string{MetaFrom: o.Sender}, Created: o.Created}); err != nil {
				return err
			}
		}
		fresh = true
		return tx.MarkInbound(store.InboundRecord{Keys: m.Keys, Received: m.Created, Source: m.Source,
			From: m.From, Seat: -1, Outcome: string(outcome.Applied), Messages: []string{m.MessageID}})
	})
	return fresh, err
}
