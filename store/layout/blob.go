package layout

import (
	"bytes"

	bolt "go.etcd.io/bbolt"
)

// Blobs (schema 7, issue 25). bbolt never splits a leaf of four entries
// or fewer: a bucket of large values (queued mails of 30 KB, game
// snapshots) kept up to four of them in one leaf, and writing one value
// rewrote its neighbours too (two to four times its size on disk). A
// value of BlobMin bytes or more is therefore kept alone: in a nested
// bucket under its key, as the only entry (blobKey), so that writing it
// writes it and the small leaf of bucket headers above. Reads take either
// form (a store of schema 6 holds plain values until migrated).

// BlobMin is the size from which a value is kept alone.
const BlobMin = 1024

var blobKey = []byte{0}

// GetValue reads a plain value or a blob.
func GetValue(b *bolt.Bucket, k []byte) []byte {
	if v := b.Get(k); v != nil {
		return v
	}
	if sb := b.Bucket(k); sb != nil {
		return sb.Get(blobKey)
	}
	return nil
}

// PutValue writes a value, alone when it is large.
func PutValue(b *bolt.Bucket, k, v []byte) error {
	sb := b.Bucket(k)
	if len(v) < BlobMin {
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

// DeleteValue deletes a plain value or a blob.
func DeleteValue(b *bolt.Bucket, k []byte) error {
	if b.Bucket(k) != nil {
		return b.DeleteBucket(k)
	}
	return b.Delete(k)
}

// Blobs: 6 -> 7. The large values of the snapshot and body buckets
// become blobs.
func Blobs(tx *bolt.Tx) error {
	names := [][]byte{GameSnap}
	for _, q := range Queues {
		names = append(names, BodyBucket(q))
	}
	for _, name := range names {
		b := tx.Bucket(name)
		if b == nil {
			continue
		}
		type kv struct{ k, v []byte }
		var large []kv
		err := b.ForEach(func(k, v []byte) error {
			if len(v) >= BlobMin {
				large = append(large, kv{bytes.Clone(k), bytes.Clone(v)})
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, e := range large {
			if err := PutValue(b, e.k, e.v); err != nil {
				return err
			}
		}
	}
	return nil
}
