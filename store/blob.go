package store

import (
	"bytes"

	bolt "go.etcd.io/bbolt"
)

// Blobs (schema 7, issue 25). bbolt never splits a leaf of four entries
// or fewer: a bucket of large values (queued mails of 30 KB, game
// snapshots) kept up to four of them in one leaf, and writing one value
// rewrote its neighbours too (two to four times its size on disk). A
// value of blobMin bytes or more is therefore kept alone: in a nested
// bucket under its key, as the only entry (blobKey), so that writing it
// writes it and the small leaf of bucket headers above. Reads take either
// form (a store of schema 6 holds plain values until migrated).

// blobMin is the size from which a value is kept alone.
const blobMin = 1024

var blobKey = []byte{0}

// getValue reads a plain value or a blob.
func getValue(b *bolt.Bucket, k []byte) []byte {
	if v := b.Get(k); v != nil {
		return v
	}
	if sb := b.Bucket(k); sb != nil {
		return sb.Get(blobKey)
	}
	return nil
}

// putValue writes a value, alone when it is large.
func putValue(b *bolt.Bucket, k, v []byte) error {
	sb := b.Bucket(k)
	if len(v) < blobMin {
		if sb != nil {
			if err := b.DeleteBucket(k); err != nil {
				return err
			}
		}
		return b.Put(k, v)
	}
	if sb == nil {
		if b.Get(k) != nil {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		var err error
		if sb, err = b.CreateBucket(bytes.Clone(k)); err != nil {
			return err
		}
	}
	return sb.Put(blobKey, v)
}

// deleteValue deletes a plain value or a blob.
func deleteValue(b *bolt.Bucket, k []byte) error {
	if b.Bucket(k) != nil {
		return b.DeleteBucket(k)
	}
	return b.Delete(k)
}

// migrateBlobs: 6 -> 7. The large values of the snapshot and body buckets
// become blobs.
func migrateBlobs(tx *bolt.Tx) error {
	names := [][]byte{bGameSnap}
	for _, q := range Queues {
		names = append(names, bodyBucket(q))
	}
	for _, name := range names {
		b := tx.Bucket(name)
		if b == nil {
			continue
		}
		type kv struct{ k, v []byte }
		var large []kv
		err := b.ForEach(func(k, v []byte) error {
			if len(v) >= blobMin {
				large = append(large, kv{bytes.Clone(k), bytes.Clone(v)})
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, e := range large {
			if err := putValue(b, e.k, e.v); err != nil {
				return err
			}
		}
	}
	return nil
}
