package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Schema 9 (issue 25: the store's own writes per move within 4x of the
// log entry and outbox rows it creates). Each bucket a commit touches
// costs at least a leaf and the branch above it, whatever it writes in
// them; two buckets on the path of a move and of a deadline held little
// that could not sit in a bucket written anyway:
//
//   - A queued item's payload moves from "body.<queue>" into the queue's
//     own bucket, under the item's id + bodySuffix: right after the
//     item's row, so that a move's new rows and payloads share the last
//     leaf of the items, and before the due index (0xFF; ids never begin
//     with 0xFF). It is written once by Enqueue, stays there when the
//     item retires (the row moves to "done.<queue>", the payload does
//     not), and goes with PruneRetired. Readers of the items take 8-byte
//     keys only.
//   - The wake-up of each game ("wake.by") moves into "wake", under
//     wakeByPrefix + the game id: after every wake-up key (8-byte
//     big-endian unix nanoseconds first, below 0x80 for any time from
//     1970: SetWake takes an earlier time as 1970). Readers of the
//     wake-ups stop at the prefix.
//
// And an index: "tokens" also holds NUL + kind + NUL + secret -> empty
// for every token (players.go), so that the tokens of one kind (the
// organisers' few, among every seat's) are read without reading them all
// (TokensOf). A daemon's start read every token twice (its organisers'
// addresses): 130 MB of the file mapped in at 100,000 games.

// bodySuffix ends the payload keys in a queue's bucket.
const bodySuffix = 'p'

// bodyKey is the key of item id's payload in its queue's bucket.
func bodyKey(id uint64) []byte { return append(u64(id), bodySuffix) }

// zbodySuffix follows an item id in the key of its payload compressed
// (store/codec; no schema change: a store without them has none).
const zbodySuffix = 'z'

// zbodyKey is the key of item id's compressed payload.
func zbodyKey(id uint64) []byte { return append(u64(id), zbodySuffix) }

// wakeByPrefix starts the keys of "wake" that name a game's wake-up.
const wakeByPrefix = 0xFF

// wakeByKey is the key of a game's wake-up key in "wake".
func wakeByKey(game string) []byte { return append([]byte{wakeByPrefix}, game...) }

// migrateSchema9: 8 -> 9, the payloads in their queues' buckets, the
// wake-ups of the games in "wake".
func migrateSchema9(tx *bolt.Tx) error {
	for _, q := range Queues {
		body := tx.Bucket(bodyBucket(q))
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
			return putValue(live, bodyKey(binary.BigEndian.Uint64(k)), bytes.Clone(getValue(body, k)))
		})
		if err != nil {
			return err
		}
		if err := tx.DeleteBucket(bodyBucket(q)); err != nil {
			return err
		}
	}
	if err := indexTokens(tx); err != nil {
		return err
	}
	by := tx.Bucket(bWakeBy)
	if by == nil {
		return nil
	}
	w, err := tx.CreateBucketIfNotExists(bWake)
	if err != nil {
		return err
	}
	if err := by.ForEach(func(k, v []byte) error { return w.Put(wakeByKey(string(k)), bytes.Clone(v)) }); err != nil {
		return err
	}
	return tx.DeleteBucket(bWakeBy)
}

// indexTokens writes the index by kind of every token.
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
		keys = append(keys, tokenKindKey(t.Kind, string(k)))
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
