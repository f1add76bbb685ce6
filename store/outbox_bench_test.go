package store

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkOutboxDelivery: the store's part of queueing and delivering a
// mail, as the referee and its delivery loop (referee/edge/dispatch) do
// it: a unit of work queues a batch of mails in one transaction; then,
// per round of the loop, the due rows are read with the payloads of the
// items started, their attempts recorded in one commit, and each outcome
// in one (doc.go, "Compression": only the started items' payloads are
// read and inflated, once each). cpu-us/mail is the process's CPU per
// mail, the figure to compare (the machine is shared).
func BenchmarkOutboxDelivery(b *testing.B) {
	p, err := os.ReadFile("../referee/testdata/golden/groupmenus.fromage.en.txt")
	if err != nil {
		b.Skip(err)
	}
	p = p[:min(len(p), 5000)]
	const batch, workers = 64, 4
	t0 := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	db, err := Open(filepath.Join(b.TempDir(), "b.db"), &Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	b.ReportAllocs()
	var spent time.Duration
	mails := 0
	for i := 0; b.Loop(); i++ {
		cpu := cpuNow()
		err := db.Update(func(tx *Tx) error {
			for j := range batch {
				m := append([]byte(fmt.Sprintf("Message-ID: <%d.%d@r>\r\n", i, j)), p...)
				if _, err := tx.Enqueue("outbox", Item{Key: fmt.Sprint(i, j), To: "a@x", Payload: m, Created: t0}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		for left := batch; left > 0; {
			var start []Item
			if err := db.View(func(tx *Tx) error {
				due, err := tx.DueRows("outbox", t0, 2*workers)
				for _, it := range due[:min(len(due), workers)] {
					it.Payload = tx.Payload("outbox", it.ID)
					start = append(start, it)
				}
				return err
			}); err != nil {
				b.Fatal(err)
			}
			if err := db.Group(func(tx *Tx) error {
				for _, it := range start {
					if _, err := tx.Attempt("outbox", it.ID, t0, t0.Add(-time.Second)); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				b.Fatal(err)
			}
			for _, it := range start {
				if len(it.Payload) < len(p) {
					b.Fatalf("item %d: payload of %d bytes", it.ID, len(it.Payload))
				}
				if err := db.Group(func(tx *Tx) error {
					_, err := tx.Finish("outbox", it.ID, Sent, t0, t0.Add(time.Hour), "")
					return err
				}); err != nil {
					b.Fatal(err)
				}
			}
			left -= len(start)
			mails += len(start)
		}
		spent += cpuNow() - cpu
	}
	b.ReportMetric(float64(spent.Nanoseconds())/1e3/float64(mails), "cpu-us/mail")
}
