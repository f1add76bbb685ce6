package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestGet1IsGet_Issue24: get1, a Get through one cursor a bucket and
// write transaction, reads what bbolt's Get reads, on generated buckets
// of random keys (nested buckets among them) changed by puts and deletes
// between the reads, the bucket deleted and made again, and in a read
// transaction; and a write transaction's reads of a bucket make one
// cursor (issue 24), where Get made one each.
func TestGet1IsGet_Issue24(t *testing.T) {
	db := open(t)
	rng := rand.New(rand.NewPCG(24, 1))
	name := []byte("get1.test")
	key := func() []byte { return fmt.Appendf(nil, "k%d", rng.IntN(300)) }
	check := func(tx *Tx, b *bolt.Bucket, k []byte) {
		if got, want := tx.get1(b, k), b.Get(k); !bytes.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("get1(%q) = %q, Get %q", k, got, want)
		}
	}
	for round := range 6 {
		err := db.Update(func(tx *Tx) error {
			b, err := tx.tx.CreateBucketIfNotExists(name)
			if err != nil {
				return err
			}
			for range 400 {
				k := key()
				switch rng.IntN(5) {
				case 0:
					if b.Bucket(k) != nil {
						err = b.DeleteBucket(k)
					} else {
						err = b.Delete(k)
					}
				case 1:
					if b.Get(k) == nil {
						_, err = b.CreateBucketIfNotExists(k)
					}
				case 2:
					if b.Bucket(k) == nil {
						err = b.Put(k, fmt.Appendf(nil, "v%d", rng.Int()))
					}
				}
				if err != nil {
					return err
				}
				check(tx, b, k)
				check(tx, b, key())
				check(tx, b, []byte{0})
				check(tx, b, []byte{0xFF, 0xFF})
			}
			if round%3 == 2 {
				return tx.tx.DeleteBucket(name)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	db.View(func(tx *Tx) error {
		if b := tx.tx.Bucket(name); b != nil {
			for range 300 {
				check(tx, b, key())
			}
		}
		return nil
	})
	count := func() int64 { st := db.bolt.Stats(); return st.TxStats.GetCursorCount() }
	cursors := func(n int) int64 {
		c0 := count()
		db.Update(func(tx *Tx) error {
			for i := range n {
				tx.HasGame(fmt.Sprintf("g%d", i))
			}
			return nil
		})
		return count() - c0
	}
	if one, many := cursors(1), cursors(100); many != one {
		t.Errorf("100 reads of games made %d cursors, one read %d: want as many", many, one)
	}
}
