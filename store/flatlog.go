package store

import (
	"bytes"
	"encoding/binary"

	"github.com/pbem-referee/referee/store/inboundform"
	bolt "go.etcd.io/bbolt"
)

// The flat log (schema 8, issue 25). Up to schema 7 each game's log was a
// bucket of its own nested in "log": an append wrote the game's leaf, the
// nested bucket's branch when it had one, and the leaf of "log" that holds
// the nested bucket's header (its sequence changed), with the branches
// above them. From schema 8 every entry of every game is in one bucket,
// "log.flat", under the key game id + 0x00 + 8-byte big-endian sequence:
// an append writes the last leaf of its game's run and the branches above
// it, nothing else. A game's last sequence is its last key (entries are
// never deleted), so no counter is kept.

var bLogFlat = []byte("log.flat")

// VERP ids (schema 8). A move queues a mail and records its bounce id:
// up to schema 7 in a bucket of their own ("verp"), a leaf and a branch
// more per move. From schema 8 they are in "inbound", which the move
// writes anyway, under verpPrefix + id: inbound's de-duplication keys
// never start with NUL (MarkInbound refuses them), and PruneInbound
// leaves these keys to PruneVERP.
var verpPrefix = inboundform.VERPPrefix

func verpKey(id string) []byte { return append(bytes.Clone(verpPrefix), id...) }

// The due index (schema 8). Each queue's index of live items by due time
// was a bucket of its own ("due.<queue>"), written by every enqueue and
// every delivery with the queue's rows: a leaf and a branch more each
// time. From schema 8 it is in the queue's bucket, under 0xFF + due time
// + id (dueEntry): after every item id, so that its entries sit together
// at the end; readers of the items take 8-byte keys only.

// migrateSchema8: 7 -> 8, the flat log, the VERP ids in inbound, the due
// indexes in their queues.
func migrateSchema8(tx *bolt.Tx) error {
	if err := migrateFlatLog(tx); err != nil {
		return err
	}
	for _, q := range Queues {
		old := tx.Bucket([]byte("due." + q))
		live := tx.Bucket([]byte("queue." + q))
		if old == nil || live == nil {
			continue
		}
		if err := old.ForEach(func(k, _ []byte) error { return live.Put(append([]byte{duePrefix}, k...), nil) }); err != nil {
			return err
		}
		if err := tx.DeleteBucket([]byte("due." + q)); err != nil {
			return err
		}
	}
	old := tx.Bucket(bVERP)
	if old == nil {
		return nil
	}
	in, err := tx.CreateBucketIfNotExists(bInbound)
	if err != nil {
		return err
	}
	if err := old.ForEach(func(k, v []byte) error { return in.Put(verpKey(string(k)), v) }); err != nil {
		return err
	}
	return tx.DeleteBucket(bVERP)
}

// logKey is the key of a game's entry seq in log.flat.
func logKey(game string, seq uint64) []byte {
	k := make([]byte, 0, len(game)+9)
	k = append(k, game...)
	k = append(k, 0)
	return binary.BigEndian.AppendUint64(k, seq)
}

// lastLogSeq is the sequence number of a game's last entry (0: none).
func lastLogSeq(b *bolt.Bucket, game string) uint64 {
	prefix := append([]byte(game), 0)
	c := b.Cursor()
	k, _ := c.Seek(append([]byte(game), 1))
	if k == nil {
		k, _ = c.Last()
	} else {
		k, _ = c.Prev()
	}
	// After the entries: the game's wake-up key and its record's value
	// (wake.go, writepath.go), one byte after the NUL.
	for len(k) == len(prefix)+1 && bytes.HasPrefix(k, prefix) {
		k, _ = c.Prev()
	}
	if len(k) != len(prefix)+8 || !bytes.HasPrefix(k, prefix) {
		return 0
	}
	return binary.BigEndian.Uint64(k[len(prefix):])
}

// migrateFlatLog: 7 -> 8. Every game's entries move from its bucket in
// "log" to "log.flat", in the opening transaction (all or nothing), and
// "log" goes.
func migrateFlatLog(tx *bolt.Tx) error {
	flat, err := tx.CreateBucketIfNotExists(bLogFlat)
	if err != nil {
		return err
	}
	flat.FillPercent = 1 // keys arrive in order: fill the leaves
	old := tx.Bucket(bLog)
	if old == nil {
		return nil
	}
	err = old.ForEachBucket(func(game []byte) error {
		return old.Bucket(game).ForEach(func(k, v []byte) error {
			return flat.Put(logKey(string(game), binary.BigEndian.Uint64(k)), v)
		})
	})
	if err != nil {
		return err
	}
	return tx.DeleteBucket(bLog)
}
