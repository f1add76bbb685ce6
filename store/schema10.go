package store

import (
	bolt "go.etcd.io/bbolt"
)

// Schemas 10 and 11 (issue 25: the store's own writes per move within 4x of the
// log entry and outbox rows it creates): the tree of the top-level
// buckets' headers is one leaf.
//
// Every commit writes the leaf of that tree holding the header of each
// bucket it changed (a bucket's root page moves on every write: copy on
// write), and the branch above those leaves. With 27 buckets at the top
// that tree was five leaves and a branch; a move's buckets (inbound,
// log.flat, queue.outbox, wake) sat in two of its leaves: three pages a
// move (referee bench --pages, "(bucket headers)"), whatever it wrote.
// From schema 11 the top level holds only the buckets that the frequent
// commits write (a move, a delivery, an intake: topBucket) and "rest",
// whose tree holds every other bucket, unchanged: the top level is a few
// headers, one leaf, and a move writes one page of headers. A commit that
// writes a bucket in "rest" writes rest's header leaf and branch as it
// wrote the top level's before, no more.
//
// Every access to a bucket by name goes through bucketOf (Tx.bucket) and
// createBucket, which find it where the layout keeps it; a store without
// "rest" (a test's store at an older schema) keeps them all at the top.
// The migrations up to schema 9 read the older layout at the top, as the
// stores they migrate kept it.
var bRest = []byte("rest")

// topBucket reports whether a bucket stays at the top level: the buckets
// a move, a delivery or an intake writes (and meta, read by Open before
// anything else; and rest).
func topBucket(name []byte) bool {
	switch string(name) {
	case "meta", "rest", "inbound", "log.flat", "queue.outbox", "done.outbox", "wake", "games.snap", "cursors", "attempts":
		return true
	}
	return false
}

// bucketOf returns a bucket by name wherever the layout keeps it (nil:
// none). A top bucket is also found in rest: a store between the two
// steps of the migration (a crash between their commits).
func bucketOf(tx *bolt.Tx, name []byte) *bolt.Bucket {
	if topBucket(name) {
		if b := tx.Bucket(name); b != nil {
			return b
		}
	}
	if r := tx.Bucket(bRest); r != nil {
		return r.Bucket(name)
	}
	return tx.Bucket(name)
}

// createBucket returns a bucket by name, made where the layout keeps it
// when there is none.
func createBucket(tx *bolt.Tx, name []byte) (*bolt.Bucket, error) {
	if b := bucketOf(tx, name); b != nil {
		return b, nil
	}
	if r := tx.Bucket(bRest); r != nil && !topBucket(name) {
		return r.CreateBucket(name)
	}
	return tx.CreateBucket(name)
}

// deleteBucket deletes a bucket by name wherever the layout keeps it.
func deleteBucket(tx *bolt.Tx, name []byte) error {
	if !topBucket(name) || tx.Bucket(name) == nil {
		if r := tx.Bucket(bRest); r != nil {
			return r.DeleteBucket(name)
		}
	}
	return tx.DeleteBucket(name)
}

// bucket is bucketOf in the transaction.
func (tx *Tx) bucket(name []byte) *bolt.Bucket { return bucketOf(tx.tx, name) }

// migrateSchema10: 9 -> 10, every bucket but meta moves into rest (bbolt
// moves a bucket's header, not its pages). The top level, left with meta
// and rest, is merged into one leaf when this commits; the next step
// (migrateSchema11) moves the top buckets back into it. Two steps, two
// transactions: bbolt's MoveBucket moves a bucket as last committed (a
// bucket changed in the same transaction would lose its changes).
func migrateSchema10(tx *bolt.Tx) error {
	rest, err := tx.CreateBucketIfNotExists(bRest)
	if err != nil {
		return err
	}
	return moveBuckets(tx, nil, rest, func(name []byte) bool {
		return string(name) != string(bMeta) && string(name) != string(bRest)
	})
}

// migrateSchema11: 10 -> 11, the buckets that stay at the top level
// (topBucket) move back from rest into the top level's one leaf.
func migrateSchema11(tx *bolt.Tx) error {
	rest := tx.Bucket(bRest)
	if rest == nil {
		return nil
	}
	return moveBuckets(tx, rest, nil, topBucket)
}

// moveBuckets moves the sub-buckets of src that move says into dst (nil:
// the top level).
func moveBuckets(tx *bolt.Tx, src, dst *bolt.Bucket, move func(name []byte) bool) error {
	var names [][]byte
	each := func(name []byte) error {
		if move(name) {
			names = append(names, append([]byte(nil), name...))
		}
		return nil
	}
	var err error
	if src == nil {
		err = tx.ForEach(func(name []byte, _ *bolt.Bucket) error { return each(name) })
	} else {
		err = src.ForEachBucket(each)
	}
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := tx.MoveBucket(name, src, dst); err != nil {
			return err
		}
	}
	return nil
}

// eachBucket calls fn with every bucket of the layout by name, those in
// rest as well as those at the top level (rest itself is not one).
func eachBucket(tx *bolt.Tx, fn func(name []byte, b *bolt.Bucket) error) error {
	return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
		if string(name) != string(bRest) {
			return fn(name, b)
		}
		return b.ForEachBucket(func(k []byte) error { return fn(k, b.Bucket(k)) })
	})
}
