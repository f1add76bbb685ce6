package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/centrifugal/fdelta"
)

// payloads makes queued payloads of the sizes and kinds a queue holds:
// mail-like text (compressible), random bytes (not), and empty.
func payloads(rng *rand.Rand) map[string][]byte {
	out := map[string][]byte{"empty": nil}
	for _, n := range []int{1, 300, 1023, 1024, 1500, 4000, 40000} {
		var b bytes.Buffer
		for b.Len() < n {
			fmt.Fprintf(&b, "Subject: move %d\r\nYour turn, seat %d: %x\r\n", rng.IntN(100), rng.IntN(4), rng.Uint64())
		}
		out[fmt.Sprintf("text%d", n)] = b.Bytes()[:n]
		r := make([]byte, n)
		for i := range r {
			r[i] = byte(rng.Uint32())
		}
		out[fmt.Sprintf("random%d", n)] = r
	}
	return out
}

// TestPayloadsCompressedAndOld (store/codec): every payload reads back as
// it was queued, whether written compressed, raw because compressing did
// not pay, or raw by an older store (bodyKey), live and retired; a
// compressible payload of a KB or more is stored in fewer bytes; pruning
// forgets either form.
func TestPayloadsCompressedAndOld(t *testing.T) {
	db := open(t)
	rng := rand.New(rand.NewPCG(3, 25))
	t0 := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	want := map[uint64][]byte{}
	for name, p := range payloads(rng) {
		for _, old := range []bool{false, true} {
			err := db.Update(func(tx *Tx) error {
				id, err := tx.Enqueue("outbox", Item{Key: name, To: "a@x", Payload: p, Created: t0})
				if err != nil {
					return err
				}
				b := tx.bucket([]byte("queue.outbox"))
				z, raw := getValue(b, zbodyKey(id)), getValue(b, bodyKey(id))
				if z != nil && raw != nil {
					t.Errorf("%s: both forms written", name)
				}
				if len(p) >= 1024 && bytes.HasPrefix(p, []byte("Subject")) && (z == nil || len(z) >= len(p)) {
					t.Errorf("%s: stored in %d bytes compressed, %d raw", name, len(z), len(raw))
				}
				if old && len(p) > 0 {
					// As a store before store/codec wrote it.
					if err := deleteValue(b, zbodyKey(id)); err != nil {
						return err
					}
					if err := putValue(b, bodyKey(id), p); err != nil {
						return err
					}
				}
				want[id] = p
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	check := func(when string) {
		t.Helper()
		db.View(func(tx *Tx) error {
			for id, p := range want {
				it, err := tx.QueueItem("outbox", id)
				if err != nil || !bytes.Equal(it.Payload, p) {
					t.Errorf("%s: item %d (%s): payload of %d bytes read as %d (%v)", when, id, it.Key, len(p), len(it.Payload), err)
				}
			}
			return nil
		})
	}
	check("queued")
	db.Update(func(tx *Tx) error {
		for id := range want {
			if _, err := tx.Finish("outbox", id, Sent, t0, t0.Add(time.Hour), ""); err != nil {
				t.Fatal(err)
			}
		}
		return nil
	})
	check("retired")
	db.Update(func(tx *Tx) error {
		n, err := tx.PruneRetired("outbox", t0.Add(2*time.Hour))
		if err != nil || n != len(want) {
			t.Fatalf("pruned %d of %d (%v)", n, len(want), err)
		}
		c := tx.bucket([]byte("queue.outbox")).Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			t.Errorf("left after the prune: %x", k)
		}
		return nil
	})
}

// TestGameFormsOldAndCompressed (writepath.go, store/codec): a game
// stored in any form an older store wrote (a whole record; a version and
// a raw delta against a whole snapshot; a version alone) reads as its
// record, and so does the next put, of every size, compressible or not.
func TestGameFormsOldAndCompressed(t *testing.T) {
	db := open(t)
	rng := rand.New(rand.NewPCG(4, 25))
	for _, size := range []int{10, 900, 1100, 5000, 40000} {
		for _, form := range []string{"record", "delta", "snap"} {
			for _, random := range []bool{false, true} {
				id := fmt.Sprintf("g%d-%s-%v", size, form, random)
				snap := record(rng, size)
				if random {
					// Incompressible (an old store's records are JSON:
					// '{' first).
					snap = []byte{'{'}
					for len(snap) < max(size, 64) {
						snap = append(snap, byte(rng.Uint32()))
					}
				}
				rec := mutate(rng, snap)
				err := db.Update(func(tx *Tx) error {
					g := tx.bucket(bGames)
					s, err := tx.tx.CreateBucketIfNotExists(bGameSnap)
					if err != nil {
						return err
					}
					head := make([]byte, 9)
					binary.BigEndian.PutUint64(head[1:], 7)
					switch form {
					case "record":
						if random {
							return nil // records of old stores are JSON
						}
						return g.Put([]byte(id), rec)
					case "delta":
						head[0] = gameDelta
						if err := putValue(s, []byte(id), snap); err != nil {
							return err
						}
						return g.Put([]byte(id), append(head, fdelta.Create(snap, rec)...))
					default:
						head[0] = gameSnap
						rec = snap
						if err := putValue(s, []byte(id), snap); err != nil {
							return err
						}
						return g.Put([]byte(id), head)
					}
				})
				if err != nil {
					t.Fatal(err)
				}
				if form == "record" && random {
					continue
				}
				for step := range 3 {
					db.View(func(tx *Tx) error {
						if got, err := tx.Game(id); err != nil || !bytes.Equal(got, rec) {
							t.Errorf("%s step %d: read differs (%v)", id, step, err)
						}
						return nil
					})
					rec = mutate(rng, rec)
					if err := db.Update(func(tx *Tx) error { return tx.PutGame(id, rec) }); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}

// TestSnapshotNotJSON: a record that is not JSON and does not compress,
// first byte that of a compressed snapshot, is kept so that it reads
// back (encodeSnap).
func TestSnapshotNotJSON(t *testing.T) {
	db := open(t)
	rng := rand.New(rand.NewPCG(6, 25))
	for _, first := range []byte{snapZ, gameDelta, gameSnap, 0, 'x'} {
		rec := []byte{first}
		for len(rec) < 3000 {
			rec = append(rec, byte(rng.Uint32()))
		}
		id := fmt.Sprintf("g%d", first)
		for step := range 3 {
			if err := db.Update(func(tx *Tx) error { return tx.PutGame(id, rec) }); err != nil {
				t.Fatal(err)
			}
			db.View(func(tx *Tx) error {
				if got, err := tx.Game(id); err != nil || !bytes.Equal(got, rec) {
					t.Errorf("%s step %d: read differs (%v)", id, step, err)
				}
				return nil
			})
			rec = append(rec, byte(step))
		}
	}
}
