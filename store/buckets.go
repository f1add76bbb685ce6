package store

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/pbem-referee/referee/store/layout"
	bolt "go.etcd.io/bbolt"
)

// The file's layout is store/layout's: where each bucket is kept, blobs,
// the keys the migrations share, the migrations of the older schemas.
// Here, its helpers by the names the store's files call them.

var bRest = layout.Rest

var migrateSchema10, migrateSchema11 = layout.Schema10, layout.Schema11

const wakeByPrefix = layout.WakeByPrefix

func bucketOf(tx *bolt.Tx, name []byte) *bolt.Bucket { return layout.BucketOf(tx, name) }

func createBucket(tx *bolt.Tx, name []byte) (*bolt.Bucket, error) {
	return layout.CreateBucket(tx, name)
}

func deleteBucket(tx *bolt.Tx, name []byte) error { return layout.DeleteBucket(tx, name) }

func eachBucket(tx *bolt.Tx, fn func(name []byte, b *bolt.Bucket) error) error {
	return layout.EachBucket(tx, fn)
}

func topBucket(name []byte) bool { return layout.Top(name) }

// bucket is bucketOf in the transaction.
func (tx *Tx) bucket(name []byte) *bolt.Bucket { return bucketOf(tx.tx, name) }

func getValue(b *bolt.Bucket, k []byte) []byte { return layout.GetValue(b, k) }

// get1 is b.Get(k) through one cursor a bucket and write transaction: a
// Get makes a cursor and grows its stack, 4 allocations (issue 24: a round
// of 5,000 games opened read 35,000 keys; TestGet1IsGet_Issue24). A seek
// starts from the root, so the cursor is right after any put. (A read
// transaction makes a new bucket at each lookup: it gets.)
func (tx *Tx) get1(b *bolt.Bucket, k []byte) []byte {
	if !tx.tx.Writable() {
		return b.Get(k)
	}
	c := tx.cursors[b]
	if c == nil {
		if tx.cursors == nil {
			tx.cursors = map[*bolt.Bucket]*bolt.Cursor{}
		}
		c = b.Cursor()
		tx.cursors[b] = c
	}
	if got, v := c.Seek(k); bytes.Equal(got, k) {
		return v // nil for a nested bucket, as Get
	}
	return nil
}

func putValue(b *bolt.Bucket, k, v []byte) error { return layout.PutValue(b, k, v) }

func deleteValue(b *bolt.Bucket, k []byte) error { return layout.DeleteValue(b, k) }

func bodyKey(id uint64) []byte { return layout.BodyKey(id) }

func zbodyKey(id uint64) []byte { return layout.ZBodyKey(id) }

func wakeByKey(game string) []byte { return layout.WakeByKey(game) }

func tokenKindKey(kind, secret string) []byte { return layout.TokenKindKey(kind, secret) }

// indexTokens writes the index by kind of every token (a seat's none:
// unindexedKind).
func indexTokens(tx *bolt.Tx) error {
	b := tx.Bucket(bTokens)
	if b == nil {
		return nil
	}
	var keys [][]byte
	err := b.ForEach(func(k, v []byte) error {
		if k[0] == 0 {
			return nil
		}
		var t Token
		if err := json.Unmarshal(v, &t); err != nil {
			return fmt.Errorf("token %q: %w", k, err)
		}
		if t.Kind != unindexedKind {
			keys = append(keys, tokenKindKey(t.Kind, string(k)))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := b.Put(k, nil); err != nil {
			return err
		}
	}
	return nil
}
