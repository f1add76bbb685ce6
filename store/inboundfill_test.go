package store

import (
	"fmt"
	"testing"
)

// TestInboundBranchesHoldManyChildren_Issue25 (inboundFill): inbound's
// keys are digests, so its records arrive at random places; its nodes
// split in halves, its branches hold 14 children or more on average
// (18.6-19.9; 9.1-9.2 when a node split full, 0.95: a tree of twice the
// branches, a level deeper sooner). Variation: one to four inputs a commit, with and without VERP
// ids of the mails they queued beside them.
func TestInboundBranchesHoldManyChildren_Issue25(t *testing.T) {
	for _, c := range []struct{ per, verps int }{{1, 0}, {1, 2}, {3, 1}, {4, 0}} {
		db := open(t)
		n := 0
		for range 2400 / c.per {
			if err := db.Update(func(tx *Tx) error {
				for range c.per {
					n++
					key := fmt.Sprintf("msgid:<%d.%d@mail.example.test>", n, n*7919)
					if err := tx.MarkInbound(InboundRecord{Keys: []string{key, fmt.Sprintf("imap:a/INBOX/1/%d", n)}, From: "ann@example.test", Game: "g1", Outcome: "applied"}); err != nil {
						return err
					}
					for v := range c.verps {
						id := fmt.Sprintf("%s%016x", InputCluster(key), uint64(n*31+v)*0x9e3779b97f4a7c15)
						if err := tx.PutVERP(id, VERPRecord{To: "bob@example.test", Key: key, Game: "g1"}); err != nil {
							return err
						}
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.View(func(tx *Tx) error {
			st := tx.b(bInbound).Stats()
			fan := float64(st.LeafPageN+st.BranchPageN-1) / float64(max(1, st.BranchPageN))
			t.Logf("%+v: %d keys, %d leaves, %d branches, depth %d: %.1f children a branch", c, st.KeyN, st.LeafPageN, st.BranchPageN, st.Depth, fan)
			if fan < 14 {
				t.Errorf("%+v: inbound's branches hold %.1f children on average, want 14 at least (split full?)", c, fan)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
}
