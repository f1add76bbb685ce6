package store

import (
	"fmt"
	"testing"
)

// BenchmarkRoundOutbox_Issue24 measures what a tournament round's
// opening writes of each of its mails to the outbox, 1,000 mails a
// transaction (an op) as the core's persistOutbox does (referee/outgoing.go):
// the payloads packed on every core first (PackBodies, mails of ~1.1 KB,
// the round opening's), then each row with its one Meta key
// (EnqueueBody). Its bytes and allocations are exact (b.ReportAllocs).
func BenchmarkRoundOutbox_Issue24(b *testing.B) {
	db := open(b)
	payloads := make([][]byte, 1000)
	for i := range payloads {
		var p []byte
		for len(p) < 1100 {
			p = fmt.Appendf(p, "Round 1 of big, game T%05d: you play %d against p%d@example.org.\r\n", i, len(p), i*7919%100000)
		}
		payloads[i] = p
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		err := db.Update(func(tx *Tx) error {
			bodies := PackBodies(len(payloads), func(j int) []byte { return payloads[j] })
			for j := range payloads {
				key := fmt.Sprintf("<rf.T%05d-%03d.0.0.1@example.org>", i, j)
				_, err := tx.EnqueueBody("outbox", Item{Key: key, Game: key[4:15], Kind: "prompt", To: fmt.Sprintf("p%d@example.org", j),
					Meta: map[string]string{"from": "referee+bounce.0123456789abcdef@example.org"}, Created: t0}, bodies[j])
				if err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
