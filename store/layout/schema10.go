package layout

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
// commits write (a move, a delivery, an intake: Top) and "rest",
// whose tree holds every other bucket, unchanged: the top level is a few
// headers, one leaf, and a move writes one page of headers. A commit that
// writes a bucket in "rest" writes rest's header leaf and branch as it
// wrote the top level's before, no more.
//
// Every access to a bucket by name goes through BucketOf (the store's
// Tx.bucket) and CreateBucket, which find it where the layout keeps it; a
// store without "rest" (a test's store at an older schema) keeps them all
// at the top.
// The migrations up to schema 9 read the older layout at the top, as the
// stores they migrate kept it.
// Rest is the bucket that holds every bucket but the top ones (schema 11).
var Rest = []byte("rest")

// Top reports whether a bucket stays at the top level: the buckets
// a move, a delivery or an intake writes (and meta, read by Open before
// anything else; and rest).
func Top(name []byte) bool {
	switch string(name) {
	case "meta", "rest", "inbound", "log.flat", "queue.outbox", "done.outbox", "wake", "games.snap", "cursors", "attempts":
		return true
	}
	return false
}

// BucketOf returns a bucket by name wherever the layout keeps it (nil:
// none). A top bucket is also found in rest: a store between the two
// steps of the migration (a crash between their commits).
func BucketOf(tx *bolt.Tx, name []byte) *bolt.Bucket {
	if Top(name) {
		if b := tx.Bucket(name); b != nil {
			return b
		}
	}
	if r := tx.Bucket(Rest); r != nil {
		return r.Bucket(name)
	}
	return tx.Bucket(name)
}

// CreateBucket returns a bucket by name, made where the layout keeps it
// when there is none.
func CreateBucket(tx *bolt.Tx, name []byte) (*bolt.Bucket, error) {
	if b := BucketOf(tx, name); b != nil {
		return b, nil
	}
	if r := tx.Bucket(Rest); r != nil && !Top(name) {
		return r.CreateBucket(name)
	}
	return tx.CreateBucket(name)
}

// DeleteBucket deletes a bucket by name wherever the layout keeps it.
func DeleteBucket(tx *bolt.Tx, name []byte) error {
	if !Top(name) || tx.Bucket(name) == nil {
		if r := tx.Bucket(Rest); r != nil {
			return r.DeleteBucket(name)
		}
	}
	return tx.DeleteBucket(name)
}

// Schema10: 9 -> 10, every bucket but meta moves into rest (bbolt
// moves a bucket's header, not its pages). The top level, left with meta
// and rest, is merged into one leaf when this commits; the next step
// (Schema11) moves the top buckets back into it. Two steps, two
// transactions: bbolt's MoveBucket moves a bucket as last committed (a
// bucket changed in the same transaction would lose its changes).
func Schema10(tx *bolt.Tx) error {
	rest, err := tx.CreateBucketIfNotExists(Rest)
	if err != nil {
		return err
	}
	return moveBuckets(tx, nil, rest, func(name []byte) bool {
		return string(name) != string(Meta) && string(name) != string(Rest)
	})
}

// Schema11: 10 -> 11, the buckets that stay at the top level
// (Top) move back from rest into the top level's one leaf.
func Schema11(tx *bolt.Tx) error {
	rest := tx.Bucket(Rest)
	if rest == nil {
		return nil
	}
	return moveBuckets(tx, rest, nil, Top)
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

// EachBucket calls fn with every bucket of the layout by name, those in
// rest as well as those at the top level (rest itself is not one).
func EachBucket(tx *bolt.Tx, fn func(name []byte, b *bolt.Bucket) error) error {
	return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
		if string(name) != string(Rest) {
			return fn(name, b)
		}
		return b.ForEachBucket(func(k []byte) error { return fn(k, b.Bucket(k)) })
	})
}
