package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A store of schema 7 (a bucket per game's log) opens as schema 8 with
// every entry in the flat log, read back in order, and appends continue
// each game's sequence. Variation: game ids that are prefixes of one
// another, empty and long logs, small and large entries, a speculation
// appending after the migration.
func TestMigrationToFlatLog(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for round := 0; round < 4; round++ {
		db, path := openAtSchema(t, 7)
		ids := []string{"g", "g1", "g10", "g1x", "h", fmt.Sprintf("t%d-long-id-%d", round, rng.IntN(1000))}
		want := map[string][][]byte{}
		verps := 0
		err := db.bolt.Update(func(btx *bolt.Tx) error {
			logs, err := btx.CreateBucketIfNotExists(bLog)
			if err != nil {
				return err
			}
			for _, id := range ids {
				n := rng.IntN(40)
				if id == "h" {
					n = 0
				}
				b, err := logs.CreateBucketIfNotExists([]byte(id))
				if err != nil {
					return err
				}
				for i := 0; i < n; i++ {
					e := bytes.Repeat([]byte{byte('a' + i%26)}, 1+rng.IntN(3000))
					seq, _ := b.NextSequence()
					if err := b.Put(u64(seq), e); err != nil {
						return err
					}
					want[id] = append(want[id], e)
				}
			}
			verp, err := btx.CreateBucketIfNotExists(bVERP)
			if err != nil {
				return err
			}
			for i := 0; i < 1+round*3; i++ {
				rec := fmt.Sprintf(`{"to":"p%d@x","key":"<m%d@x>","sent":"2026-01-0%dT00:00:00Z"}`, i, i, 1+i%2)
				if err := verp.Put([]byte(fmt.Sprintf("%016x", rng.Uint64())), []byte(rec)); err != nil {
					return err
				}
				verps++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// Queued items as schema 7 kept them: the due index apart.
		items := 1 + round*5
		db.Update(func(tx *Tx) error {
			for i := 0; i < items; i++ {
				due := t0.Add(time.Duration(rng.IntN(100)) * time.Minute)
				if _, err := tx.Enqueue("outbox", Item{Key: fmt.Sprint("<q", i, "@x>"), Payload: []byte("p"), Created: t0, Due: due}); err != nil {
					return err
				}
			}
			return nil
		})
		db.bolt.Update(func(btx *bolt.Tx) error {
			live, idx := bucketOf(btx, []byte("queue.outbox")), bucketOf(btx, []byte("due.outbox"))
			var ks [][]byte
			live.ForEach(func(k, _ []byte) error {
				if len(k) == 17 {
					ks = append(ks, bytes.Clone(k))
				}
				return nil
			})
			for _, k := range ks {
				live.Delete(k)
				// dueLatest's key as schema 7 wrote it (dueKey).
				due, id := int64(^binary.BigEndian.Uint64(k[1:9])), ^binary.BigEndian.Uint64(k[9:])
				idx.Put(dueKey(time.Unix(0, due), id), nil)
			}
			return nil
		})
		db.Close()
		if db, err = Open(path, &Options{NoSync: true}); err != nil {
			t.Fatal(err)
		}
		if v, _ := db.SchemaVersion(); v != SchemaVersion || SchemaVersion != 14 {
			t.Fatalf("schema %d", v)
		}
		check := func(when string) {
			db.View(func(tx *Tx) error {
				if tx.bucket(bLog) != nil {
					t.Errorf("%s: the old log bucket is still there", when)
				}
				for _, id := range ids {
					if got := tx.LogLen(id); got != uint64(len(want[id])) {
						t.Errorf("%s: %s: LogLen %d, want %d", when, id, got, len(want[id]))
					}
					var got [][]byte
					tx.Log(id, 1, func(seq uint64, e []byte) error {
						if seq != uint64(len(got)+1) {
							t.Errorf("%s: %s: seq %d after %d entries", when, id, seq, len(got))
						}
						got = append(got, e)
						return nil
					})
					if len(got) != len(want[id]) {
						t.Fatalf("%s: %s: %d entries, want %d", when, id, len(got), len(want[id]))
					}
					for i := range got {
						if !bytes.Equal(got[i], want[id][i]) {
							t.Errorf("%s: %s: entry %d differs", when, id, i+1)
						}
					}
					if from := uint64(len(want[id])); from > 1 {
						n := 0
						tx.Log(id, from, func(uint64, []byte) error { n++; return nil })
						if n != 1 {
							t.Errorf("%s: %s: %d entries from the last", when, id, n)
						}
					}
				}
				return nil
			})
		}
		check("migrated")
		db.Update(func(tx *Tx) error {
			if tx.bucket([]byte("due.outbox")) != nil {
				t.Errorf("the old due index is still there")
			}
			due, _ := tx.Due("outbox", t0.Add(1000*time.Hour), 0)
			n := 0
			tx.Items("outbox", func(Item) error { n++; return nil })
			if len(due) != items || tx.QueueLen("outbox") != items || n != items {
				t.Fatalf("%d due, %d live, %d items; want %d", len(due), tx.QueueLen("outbox"), n, items)
			}
			for i := 1; i < len(due); i++ {
				if due[i].Due.Before(due[i-1].Due) {
					t.Errorf("due order: %v before %v", due[i-1].Due, due[i].Due)
				}
			}
			// An attempt moves an item to the end, a finish takes it out.
			tx.Attempt("outbox", due[0].ID, t0, t0.Add(2000*time.Hour))
			if _, err := tx.Finish("outbox", due[len(due)-1].ID, Sent, t0, t0, ""); err != nil && len(due) > 1 {
				t.Fatal(err)
			}
			after, _ := tx.Due("outbox", t0.Add(1000*time.Hour), 0)
			if want := max(0, items-2); len(after) != want {
				t.Errorf("%d due after an attempt and a finish, want %d", len(after), want)
			}
			if next, ok, _ := tx.NextDue("outbox"); ok != (items > 1) || (items > 2 && !next.Equal(after[0].Due)) {
				t.Errorf("next due %v %v", next, ok)
			}
			return nil
		})
		// Appends continue each sequence, in a transaction and in a
		// speculation.
		for _, id := range ids {
			e := []byte(fmt.Sprintf(`{"after":%q}`, id))
			var seq uint64
			if err := db.Update(func(tx *Tx) error { seq, err = tx.AppendLog(id, e); return err }); err != nil {
				t.Fatal(err)
			}
			want[id] = append(want[id], e)
			if seq != uint64(len(want[id])) {
				t.Errorf("%s: appended as %d, want %d", id, seq, len(want[id]))
			}
			s, err := db.Speculate(func(tx *Tx) error { _, err := tx.AppendLog(id, e); return err })
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Commit(s, nil); err != nil {
				t.Fatal(err)
			}
			want[id] = append(want[id], e)
		}
		check("appended")
		// The VERP ids moved to inbound: read there, kept by PruneInbound,
		// pruned by PruneVERP only.
		db.Update(func(tx *Tx) error {
			if tx.bucket(bVERP) != nil {
				t.Errorf("the old verp bucket is still there")
			}
			if err := tx.MarkInbound(InboundRecord{Keys: []string{"msgid:<old@x>"}, Received: t0.Add(-1000 * time.Hour)}); err != nil {
				t.Fatal(err)
			}
			if err := tx.MarkInbound(InboundRecord{Keys: []string{"\x00v:x"}, Received: t0}); err == nil {
				t.Errorf("an inbound key with the VERP prefix was taken")
			}
			if n, _ := tx.PruneInbound(t0); n != 1 {
				t.Errorf("PruneInbound deleted %d, want 1", n)
			}
			if n, _ := tx.PruneVERP(time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)); n != (verps+1)/2 {
				t.Errorf("PruneVERP deleted %d of %d, want %d", n, verps, (verps+1)/2)
			}
			tx.PutVERP("abc", VERPRecord{To: "Ann@X", Key: "<k@x>", Sent: t0})
			if rec, ok, _ := tx.VERP("abc"); !ok || rec.To != "ann@x" {
				t.Errorf("VERP read back: %v %+v", ok, rec)
			}
			if n, _ := tx.PruneVERP(t0.Add(time.Hour)); n != verps-(verps+1)/2+1 {
				t.Errorf("PruneVERP of the rest deleted %d", n)
			}
			return nil
		})
		if err := db.Check(); err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
}
