package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store/layout"
)

// A large value is written alone (store/layout/blob.go): queuing a mail, or a game's
// new snapshot, writes about its own size, whatever the values already
// beside it (bbolt keeps up to four in a leaf it never splits). Varied:
// the sizes of the values, how many are already there.
func TestLargeValueWrittenAlone(t *testing.T) {
	for _, size := range []int{layout.BlobMin, 8 << 10, 33 << 10, 200 << 10} {
		for _, before := range []int{1, 3, 7} {
			t.Run(fmt.Sprintf("%d-after-%d", size, before), func(t *testing.T) {
				db, err := Open(filepath.Join(t.TempDir(), "b.db"), &Options{NoSync: true})
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				rng := rand.New(rand.NewPCG(uint64(size), uint64(before)))
				payload := func() []byte {
					p := make([]byte, size)
					for i := range p {
						p[i] = byte('a' + rng.IntN(26))
					}
					return p
				}
				for range before {
					db.Update(func(tx *Tx) error {
						_, err := tx.Enqueue("outbox", Item{Key: "k", To: "x@y", Payload: payload(), Created: t0})
						return err
					})
				}
				ws := db.WriteStats()
				p := payload()
				var id uint64
				if err := db.Update(func(tx *Tx) error {
					var err error
					id, err = tx.Enqueue("outbox", Item{Key: "k", To: "x@y", Payload: p, Created: t0})
					return err
				}); err != nil {
					t.Fatal(err)
				}
				d := db.WriteStats().Sub(ws)
				// The payload's pages, plus a few pages of rows, index and
				// bucket headers (4 KiB each).
				if limit := int64(size) + 10*4096; d.DiskBytes > limit {
					t.Errorf("queuing %d bytes after %d wrote %d bytes (limit %d)", size, before, d.DiskBytes, limit)
				}
				db.View(func(tx *Tx) error {
					it, err := tx.QueueItem("outbox", id)
					if err != nil || !bytes.Equal(it.Payload, p) {
						t.Errorf("read back: %v, %d bytes", err, len(it.Payload))
					}
					return nil
				})
			})
		}
	}
}

// Schema 6 -> 7: the payloads and snapshots stored as plain values are
// read as they are before the migration and after it, when they are blobs;
// small ones stay plain, and a blob can shrink back to a plain value.
func TestMigrationToBlobs(t *testing.T) {
	db, path := openAtSchema(t, 6)
	rng := rand.New(rand.NewPCG(6, 7))
	rec := record(rng, 20000)
	want := map[uint64][]byte{}
	err := db.Update(func(tx *Tx) error {
		if err := tx.bucket(bGames).Put([]byte("g"), []byte{gameSnap, 0, 0, 0, 0, 0, 0, 0, 1}); err != nil {
			return err
		}
		if err := tx.bucket(bGameSnap).Put([]byte("g"), rec); err != nil {
			return err
		}
		for i, size := range []int{10, layout.BlobMin - 1, layout.BlobMin, 40000} {
			id := uint64(i + 1)
			want[id] = bytes.Repeat([]byte{byte('a' + i)}, size)
			raw := fmt.Appendf(nil, `{"id":%d,"key":"k%d","to":"x@y","state":"pending","created":%q,"due":%q}`, id, id,
				t0.Format(time.RFC3339), t0.Format(time.RFC3339))
			if err := tx.bucket([]byte("queue.outbox")).Put(u64(id), raw); err != nil {
				return err
			}
			if err := tx.bucket([]byte("due.outbox")).Put(dueKey(t0, id), nil); err != nil {
				return err
			}
			if err := tx.bucket(bodyBucket("outbox")).Put(u64(id), want[id]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string, db *DB) {
		db.View(func(tx *Tx) error {
			if got, err := tx.Game("g"); err != nil || !bytes.Equal(got, rec) {
				t.Errorf("%s: game record %v", when, err)
			}
			for id, p := range want {
				it, err := tx.QueueItem("outbox", id)
				if when == "before" {
					// Schema 6 to 8 kept them in "body.outbox" (store/layout/schema9.go).
					it.Payload = getValue(tx.bucket(bodyBucket("outbox")), u64(id))
				}
				if err != nil || !bytes.Equal(it.Payload, p) {
					t.Errorf("%s: item %d: %v, %d bytes", when, id, err, len(it.Payload))
				}
				blob := tx.bucket([]byte("queue.outbox")).Bucket(bodyKey(id)) != nil
				if when == "after" && blob != (len(p) >= layout.BlobMin) {
					t.Errorf("%s: item %d of %d bytes: blob %v", when, id, len(p), blob)
				}
			}
			return nil
		})
	}
	check("before", db)
	db = reopenCurrent(t, db, path)
	check("after", db)
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
	// A blob that shrinks becomes a plain value again, and back.
	for _, n := range []int{10, 5000, 20} {
		v := bytes.Repeat([]byte("z"), n)
		db.Update(func(tx *Tx) error { return putValue(tx.bucket(bGameSnap), []byte("g"), v) })
		db.View(func(tx *Tx) error {
			if got := getValue(tx.bucket(bGameSnap), []byte("g")); !bytes.Equal(got, v) {
				t.Errorf("value of %d bytes read back as %d", n, len(got))
			}
			return nil
		})
	}
}
