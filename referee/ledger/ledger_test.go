package ledger

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/records"
	"github.com/pbem-referee/referee/store"
)

// TestLedgerOnItsOwn: on an empty store every game status is counted
// (zero), the echo's reply is queued once with its envelope sender under
// MetaFrom and its input marked applied, and a replay token is fresh
// once. The Referee's use of them is TestQueries (referee/query_test.go).
func TestLedgerOnItsOwn(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "r.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q := Queries{DB: db}
	c, err := q.Counts(OutboxQueue, HooksQueue)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{records.StatusForming, records.StatusRunning, records.StatusPaused, records.StatusOver, records.StatusAborted} {
		if n, ok := c.Games[s]; !ok || n != 0 {
			t.Errorf("games %s: %d %v, want a zero", s, n, ok)
		}
	}
	if c.Queues[OutboxQueue] != 0 || len(c.Queues) != 2 {
		t.Errorf("queues %v", c.Queues)
	}
	now := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	m := RawReply{Keys: []string{"msgid:<in@x>"}, Source: "imap", From: "a@x", MessageID: "<out@x>", Kind: "echo",
		To: "a@x", Sender: "bounce@x", Payload: []byte("hello"), Created: now,
		Also: []RawReply{{MessageID: "<out2@x>", Kind: "echo copy", To: "b@x", Sender: "bounce@x", Payload: []byte("hi"), Created: now}}}
	for i, want := range []bool{true, false} {
		fresh, err := q.QueueReply(m)
		if err != nil || fresh != want {
			t.Fatalf("reply %d: fresh %v %v, want %v", i, fresh, err, want)
		}
	}
	if n, size, err := q.QueueSize(OutboxQueue); n != 2 || size != 7 || err != nil {
		t.Errorf("outbox %d items of %d bytes (%v), want 2 of 7", n, size, err)
	}
	var from []string
	if err := db.View(func(tx *store.Tx) error {
		return tx.Items(OutboxQueue, func(it store.Item) error { from = append(from, it.Meta[MetaFrom]); return nil })
	}); err != nil || len(from) != 2 || from[0] != "bounce@x" || from[1] != "bounce@x" {
		t.Errorf("envelope senders %v %v", from, err)
	}
	if _, err := q.QueueReply(RawReply{}); err == nil {
		t.Error("a reply without keys was queued")
	}
	if prev, fresh, err := q.UseReplayToken("t", "<a@x>", now, now.Add(time.Minute), false); !fresh || prev != "" || err != nil {
		t.Errorf("first use %q %v %v", prev, fresh, err)
	}
	if prev, fresh, err := q.UseReplayToken("t", "<b@x>", now, now.Add(time.Minute), true); fresh || prev != "<a@x>" || err != nil {
		t.Errorf("second use %q %v %v", prev, fresh, err)
	}
}
