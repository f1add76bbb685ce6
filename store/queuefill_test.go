package store

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// TestQueueLeavesSplitFull_Issue25 (queueFill, queue.go): items are
// enqueued in id order, a few a commit as moves queue their mails, so a
// queue's leaves are split full, not in halves: the live bucket's leaves
// hold 62% of their pages' bytes at least on average (68% with queueFill
// 0.95; 48% with bbolt's default split in halves, each leaf split once
// more by the next commits). With pages of 1 KiB a leaf holds whole items
// only, so the fill depends on the items' size: the variation is of items
// of which two or more fit a page (payloads of 50 to 450 bytes, raw or
// compressed), one to four items a commit, with and without deliveries
// retiring the items older than the last forty between commits.
func TestQueueLeavesSplitFull_Issue25(t *testing.T) {
	const letters = "abcdefghij klmnopqrstuvwxyz\r\n0123456789"
	var sum float64
	cases := []struct {
		size, per int
		retire    bool
	}{{100, 1, false}, {150, 2, true}, {150, 4, false}, {200, 1, true}, {300, 2, false}, {300, 4, true}}
	for _, c := range cases {
		db := open(t)
		rng := rand.New(rand.NewPCG(uint64(c.size), uint64(c.per)))
		now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
		var ids []uint64
		for range 300 {
			if err := db.Update(func(tx *Tx) error {
				for range c.per {
					p := make([]byte, c.size/2+rng.IntN(c.size))
					for i := range p {
						p[i] = letters[rng.IntN(len(letters))]
					}
					id, err := tx.Enqueue("outbox", Item{Key: fmt.Sprint("<m", len(ids), "@x>"), To: "ann@example.test", Payload: p, Created: now})
					if err != nil {
						return err
					}
					ids = append(ids, id)
				}
				if c.retire && len(ids) > 40 {
					if _, err := tx.Finish("outbox", ids[len(ids)-41], Sent, now, now.Add(time.Hour), ""); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			now = now.Add(time.Second)
		}
		if err := db.View(func(tx *Tx) error {
			live, _, err := tx.queue("outbox")
			if err != nil {
				return err
			}
			st := live.Stats()
			fill := float64(st.LeafInuse) / float64(st.LeafAlloc)
			t.Logf("%+v: %d leaves, %d of %d bytes in use (%.2f)", c, st.LeafPageN, st.LeafInuse, st.LeafAlloc, fill)
			if st.LeafPageN < 20 {
				t.Fatalf("%+v: %d leaves: the test fills too little to tell", c, st.LeafPageN)
			}
			sum += fill
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if mean := sum / float64(len(cases)); mean < 0.62 {
		t.Errorf("the queue's leaves are %.2f full on average, want 0.62 at least: split in halves?", mean)
	}
}
