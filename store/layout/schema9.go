package layout

import (
	"bytes"
	"encoding/binary"

	bolt "go.etcd.io/bbolt"
)

// Schema 9 (issue 25: the store's own writes per move within 4x of the
// log entry and outbox rows it creates). Each bucket a commit touches
// costs at least a leaf and the branch above it, whatever it writes in
// them; two buckets on the path of a move and of a deadline held little
// that could not sit in a bucket written anyway:
//
//   - A queued item's payload moves from "body.<queue>" into the queue's
//     own bucket, under the item's id + BodySuffix: right after the
//     item's row, so that a move's new rows and payloads share the last
//     leaf of the items, and before the due index (0xFF; ids never begin
//     with 0xFF). It is written once by Enqueue, stays there when the
//     item retires (the row moves to "done.<queue>", the payload does
//     not), and goes with PruneRetired. Readers of the items take 8-byte
//     keys only.
//   - The wake-up of each game ("wake.by") moves into "wake", under
//     WakeByPrefix + the game id: after every wake-up key (8-byte
//     big-endian unix nanoseconds first, below 0x80 for any time from
//     1970: SetWake takes an earlier time as 1970). Readers of the
//     wake-ups stop at the prefix.
//
// And an index: "tokens" also holds NUL + kind + NUL + secret -> empty
// for every token (the store's players.go), so that the tokens of one
// kind (the organisers' few, among every seat's) are read without reading
// them all (TokensOf; the store's indexTokens, given to Schema9, writes
// it). A daemon's start read every token twice (its organisers'
// addresses): 130 MB of the file mapped in at 100,000 games.

// BodySuffix ends the payload keys in a queue's bucket.
const BodySuffix = 'p'

// BodyKey is the key of item id's payload in its queue's bucket.
func BodyKey(id uint64) []byte { return append(U64(id), BodySuffix) }

// ZBodySuffix follows an item id in the key of its payload compressed
// (store/codec; no schema change: a store without them has none).
const ZBodySuffix = 'z'

// ZBodyKey is the key of item id's compressed payload.
func ZBodyKey(id uint64) []byte { return append(U64(id), ZBodySuffix) }

// WakeByPrefix starts the keys of "wake" that name a game's wake-up.
const WakeByPrefix = 0xFF

// WakeByKey is the key of a game's wake-up key in "wake".
func WakeByKey(game string) []byte { return append([]byte{WakeByPrefix}, game...) }

// TokenKindKey is a token's key in the index by kind, in "tokens": NUL +
// kind + NUL + secret -> empty. Secrets never begin with NUL.
func TokenKindKey(kind, secret string) []byte {
	k := make([]byte, 0, len(kind)+len(secret)+2)
	k = append(k, 0)
	k = append(k, kind...)
	k = append(k, 0)
	return append(k, secret...)
}

// U64 is an id's key: 8 bytes, big-endian.
func U64(n uint64) []byte {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], n)
	return k[:]
}

// Schema9: 8 -> 9, the payloads in their queues' buckets, the wake-ups
// of the games in "wake"; indexTokens writes the index of "tokens" by
// kind (the store's: it knows a token's record).
func Schema9(indexTokens func(tx *bolt.Tx) error) func(tx *bolt.Tx) error {
	return func(tx *bolt.Tx) error { return schema9(tx, indexTokens) }
}

func schema9(tx *bolt.Tx, indexTokens func(tx *bolt.Tx) error) error {
	for _, q := range Queues {
		body := tx.Bucket(BodyBucket(q))
		if body == nil {
			continue
		}
		live, err := tx.CreateBucketIfNotExists([]byte("queue." + q))
		if err != nil {
			return err
		}
		err = body.ForEach(func(k, _ []byte) error {
			if len(k) != 8 {
				return nil
			}
			// A copy: the value may be in the map, which a growing
			// file remaps in this transaction.
			return PutValue(live, BodyKey(binary.BigEndian.Uint64(k)), bytes.Clone(GetValue(body, k)))
		})
		if err != nil {
			return err
		}
		if err := tx.DeleteBucket(BodyBucket(q)); err != nil {
			return err
		}
	}
	if err := indexTokens(tx); err != nil {
		return err
	}
	by := tx.Bucket(WakeBy)
	if by == nil {
		return nil
	}
	w, err := tx.CreateBucketIfNotExists(Wake)
	if err != nil {
		return err
	}
	if err := by.ForEach(func(k, v []byte) error { return w.Put(WakeByKey(string(k)), bytes.Clone(v)) }); err != nil {
		return err
	}
	return tx.DeleteBucket(WakeBy)
}
