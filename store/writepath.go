package store

// The write path of issue 25: what one move writes is an append and a
// small delta, not every record it touched rewritten whole.
//
// Game records. A game's record (the referee's JSON, its engine table
// most of it) changes a little with each move. The "games" bucket keeps,
// per game, one of:
//
//	'{' ...                       the record itself (small records, and
//	                              every record of a store of schema <= 5)
//	0x02 + 8-byte version          the record is the game's snapshot
//	0x01 + 8-byte version + delta  the record is the snapshot with this
//	                              Fossil delta applied (fdelta)
//	0x03 + 8-byte version + zdelta the same, the delta compressed
//
// and "games.snap" the snapshot (the whole record) of each game stored
// as a delta. A put encodes the new record against the snapshot and writes
// the delta if it is stored in a page or less; otherwise the record
// becomes the new snapshot. A move then writes its delta (hundreds of
// bytes) instead of the record (tens of KB), and a snapshot every few
// dozen moves. The cut is measured, in pages (BenchmarkWritePerMove,
// disk-B/move of brewcrafters, dicebrewing and heavenale, deltas and
// snapshots compressed, store/codec): a delta kept while at most a
// quarter of the record 30624, 27474, 29781; while stored in 300 bytes
// 32017, 29054, 30758; in 512 30706, 27969, 30051; in a page (1 KiB)
// 30700, 27375, 28464. A snapshot costs its pages and the leaf above; a
// delta that grows makes the leaf of "games" it sits in larger. The
// version numbers every put of the game, so that the stored value (the
// stamp, GameStamp) names one record. A delta or a snapshot is kept
// compressed when that is smaller (store/codec): 0x03 + 8-byte version +
// the delta compressed, and a snapshot that starts with 0x03 (a whole
// one starts with '{').
//
// Queue payloads. A queued mail's bytes (up to a megabyte) are written
// once, raw, in "body.<queue>" under the item's id (from schema 9 in the
// queue's own bucket, schema9.go); the item's row (JSON) holds only the
// delivery state, which each attempt rewrites. Schema 6 moves the
// payloads of older stores out of their rows.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/centrifugal/fdelta"
	"github.com/pbem-referee/referee/store/codec"
	"github.com/pbem-referee/referee/store/layout"
	bolt "go.etcd.io/bbolt"
)

var bGameSnap = layout.GameSnap

// Kinds of stored game values (see above); JSON starts with '{'.
const (
	gameDelta  = 0x01
	gameSnap   = 0x02
	gameDeltaZ = 0x03 // a delta compressed (store/codec)
	gameInLog  = 0x04 // the value is in log.flat, beside the game's entries
)

// The record beside the log (2026-12-07, issue 25, no schema change): a
// game put from then on keeps in "games" the one byte gameInLog, written
// once, and its value (any of the forms above) in log.flat under
// recordKey, after the game's last entry: the leaf a move appends its
// entries to. A move then writes one tree, log.flat, where it wrote two
// (games was 3 levels deep from 1,000 games: 3.8 pages a move). A value
// of an older store stays in "games", read as it was, until the game's
// next put moves it.

// recordKey is a game's record value in log.flat: the game, 0x00, 0xFF.
// It sorts after every entry of the game (a sequence's first byte is
// never 0xFF) and, one byte long after the NUL, is never read as one.
func recordKey(id string) []byte { return append(append([]byte(id), 0), 0xFF) }

// isInLog reports whether a value of "games" says the record is in log.flat.
func isInLog(v []byte) bool { return len(v) == 1 && v[0] == gameInLog }

// gameValue returns the stored value of a game's record (nil: no game),
// wherever it is kept, reading through get.
func gameValue(id string, get func(bucket, key []byte) []byte) []byte {
	return inLogValue(id, get(bGames, []byte(id)), get)
}

// inLogValue returns the value a game's value in "games", v, stands for:
// its record's value in log.flat when v says it is kept there, else v.
func inLogValue(id string, v []byte, get func(bucket, key []byte) []byte) []byte {
	if isInLog(v) {
		if r := get(bLogFlat, recordKey(id)); r != nil {
			return r
		}
		// A pointer without its value: read as a record of unknown form.
	}
	return v
}

// snapZ starts a snapshot kept compressed (store/codec); a snapshot
// kept whole is JSON and starts with '{'.
const snapZ = 0x03

// decodeSnap returns the record a stored snapshot holds.
func decodeSnap(v []byte) ([]byte, error) {
	if len(v) > 0 && v[0] == snapZ {
		return codec.Decompress(v[1:])
	}
	return v, nil
}

// encodeSnap returns the stored form of a snapshot: compressed when that
// is smaller, and always when the record does not start with '{' (records
// are JSON, but the store does not rely on it: a whole snapshot must not
// be read as a compressed one).
func encodeSnap(rec []byte) []byte {
	if len(rec) > 0 && rec[0] != '{' {
		return codec.CompressAlways([]byte{snapZ}, rec)
	}
	if z := codec.Compress([]byte{snapZ}, rec); z != nil {
		return z
	}
	return rec
}

// minDeltaRecord is the smallest record worth a snapshot and deltas.
const minDeltaRecord = 1024

// bodyBucket is the bucket of a queue's payloads up to schema 8.
var bodyBucket = layout.BodyBucket

// migrateWritePath: 5 -> 6. Game records stay as they are (read as
// records, snapshotted at their next put); queue payloads move out of
// their rows; the game indexes (gameindex.go) are created, and marked
// complete when there are no games yet.
func migrateWritePath(tx *bolt.Tx) error {
	for _, b := range append(gameIndexBuckets(), bGameSnap) {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	var first []byte
	if g := tx.Bucket(bGames); g != nil {
		first, _ = g.Cursor().First()
	}
	if first == nil {
		// No games yet: the indexes (gameindex.go) cover them all.
		m, err := tx.CreateBucketIfNotExists(bMeta)
		if err != nil {
			return err
		}
		if err := m.Put(kGameIndex, gameIndexVersion); err != nil {
			return err
		}
	}
	for _, q := range Queues {
		body, err := tx.CreateBucketIfNotExists(bodyBucket(q))
		if err != nil {
			return err
		}
		for _, name := range []string{"queue." + q, "done." + q} {
			b := tx.Bucket([]byte(name))
			if b == nil {
				continue
			}
			type kv struct{ k, v []byte }
			var rows []kv
			err := b.ForEach(func(k, v []byte) error {
				if len(k) != 8 {
					return nil // not an item (the due index of schema 8)
				}
				var it Item
				if err := json.Unmarshal(v, &it); err != nil {
					return fmt.Errorf("%s %x: %w", name, k, err)
				}
				if len(it.Payload) == 0 {
					return nil
				}
				if err := putValue(body, bytes.Clone(k), it.Payload); err != nil {
					return err
				}
				it.Payload = nil
				raw, err := json.Marshal(it)
				rows = append(rows, kv{bytes.Clone(k), raw})
				return err
			})
			if err != nil {
				return err
			}
			for _, r := range rows {
				if err := b.Put(r.k, r.v); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// getRaw reads a key without recording it (a speculation that uses it is
// wide already).
func (tx *Tx) getRaw(bucket, key []byte) []byte {
	if b := tx.bucket(bucket); b != nil {
		return getValue(b, key)
	}
	return nil
}

// gameRecord decodes a stored game value (a copy), reading the snapshot
// through get.
func (tx *Tx) gameRecord(id string, v []byte, get func(bucket, key []byte) []byte) ([]byte, error) {
	v = inLogValue(id, v, get)
	if len(v) == 0 || v[0] == '{' {
		return bytes.Clone(v), nil
	}
	if len(v) < 9 || (v[0] != gameDelta && v[0] != gameSnap && v[0] != gameDeltaZ) {
		return nil, fmt.Errorf("store: game %q: unknown record form", id)
	}
	stored := get(bGameSnap, []byte(id))
	if stored == nil {
		return nil, fmt.Errorf("store: game %q: snapshot missing", id)
	}
	snap, err := tx.db.snaps.decode(id, stored)
	if err != nil {
		return nil, fmt.Errorf("store: game %q: snapshot: %w", id, err)
	}
	if v[0] == gameSnap {
		return bytes.Clone(snap), nil
	}
	d := v[9:]
	if v[0] == gameDeltaZ {
		if d, err = codec.Decompress(d); err != nil {
			return nil, fmt.Errorf("store: game %q: delta: %w", id, err)
		}
	}
	rec, err := fdelta.Apply(snap, d)
	if err != nil {
		return nil, fmt.Errorf("store: game %q: %w", id, err)
	}
	return rec, nil
}

// pendingSnap is the snapshot a speculation put and has not written yet.
func (tx *Tx) pendingSnap(id string) []byte {
	if tx.spec != nil {
		return tx.spec.snaps[id]
	}
	return nil
}

// encodeGame chooses how to store a game's record: val for "games" and,
// when the record becomes the snapshot, snap for "games.snap" (else nil);
// e tells writeGame what it read: "games" holds the marker of a record
// beside the log already (a read of a speculation is checked at its
// commit, so the commit need not read it again).
func (tx *Tx) encodeGame(id string, rec []byte) (val, snap []byte, e gameEncoding) {
	key := []byte(id)
	g := tx.get(bGames, key)
	e.marked = isInLog(g)
	val, snap = tx.encodeGameFrom(id, rec, inLogValue(id, g, tx.get))
	return val, snap, e
}

// gameEncoding is what encodeGame read that writeGame needs.
type gameEncoding struct{ marked bool }

// encodeGameFrom is encodeGame of a game whose stored value is old.
func (tx *Tx) encodeGameFrom(id string, rec, old []byte) (val, snap []byte) {
	key := []byte(id)
	if tx.spec != nil {
		if st, ok := tx.spec.stamps[id]; ok {
			old = st
		}
	}
	if len(rec) < minDeltaRecord {
		return rec, nil
	}
	var ver uint64
	if len(old) >= 9 && (old[0] == gameDelta || old[0] == gameSnap || old[0] == gameDeltaZ) {
		ver = binary.BigEndian.Uint64(old[1:9])
		cur := tx.pendingSnap(id)
		if cur == nil {
			if stored := tx.get(bGameSnap, key); stored != nil {
				cur, _ = tx.db.snaps.decode(id, stored) // one that does not decode is replaced
			}
		}
		if cur != nil {
			d := fdelta.Create(cur, rec)
			head := make([]byte, 9)
			head[0] = gameDelta
			binary.BigEndian.PutUint64(head[1:], ver+1)
			v := codec.Compress(head, d)
			if v != nil {
				v[0] = gameDeltaZ
			} else {
				v = append(head, d...)
			}
			if len(v) <= tx.tx.DB().Info().PageSize {
				return v, nil
			}
		}
	}
	val = make([]byte, 9)
	val[0] = gameSnap
	binary.BigEndian.PutUint64(val[1:], ver+1)
	return val, rec
}

// writeGame writes the values encodeGame chose; stored is the snapshot's
// stored form when the caller encoded it already (a speculation, before
// the write lock), else nil.
func (tx *Tx) writeGame(id string, val, snap, stored []byte, e gameEncoding) error {
	if snap != nil {
		b, err := createBucket(tx.tx, bGameSnap)
		if err != nil {
			return err
		}
		if stored == nil {
			stored = encodeSnap(snap)
		}
		if err := putValue(b, []byte(id), stored); err != nil {
			return err
		}
		// A memo of inflate (snapcache.go): right whether or not this
		// transaction commits, as it is kept with the bytes it inflates.
		// Both are kept as they are, not copied (issue 24: a START of
		// 5,000 games copied 5,000 records and their stored forms): the
		// record is the store's (PutGame), and its stored form was made
		// for this put (encodeSnap, here or in the speculation), and
		// neither is ever changed.
		tx.db.snaps.keep(id, stored, snap)
	}
	g, l := tx.bucket(bGames), tx.bucket(bLogFlat)
	if l == nil {
		// A store of schema 7 or older (the tests' stores at an older
		// schema: a store opens migrated to the current one).
		return g.Put([]byte(id), val)
	}
	if !e.marked {
		// Once a game (its first put, or the first since an older
		// store's value): then never again a move. (A game put twice
		// in a speculation puts the marker twice, in the same leaf.)
		if err := g.Put([]byte(id), []byte{gameInLog}); err != nil {
			return err
		}
	}
	l.FillPercent = logFill
	return l.Put(recordKey(id), val)
}

// withBody fills in an item's payload (rows of schema 6 and later hold
// none) from the queue's bucket (schema9.go): raw under bodyKey, or
// compressed under zbodyKey (store/codec).
func (tx *Tx) withBody(q string, it *Item) {
	if len(it.Payload) > 0 {
		return
	}
	b := tx.bucket([]byte("queue." + q))
	if b == nil {
		return
	}
	if v := getValue(b, bodyKey(it.ID)); v != nil {
		it.Payload = bytes.Clone(v)
	} else if z := getValue(b, zbodyKey(it.ID)); z != nil {
		// A payload that does not inflate reads as none, as a missing one
		// did: its delivery then fails and is kept for the operator.
		it.Payload, _ = codec.Decompress(z)
	}
}

// putBody writes an item's payload once, as packed.
func (tx *Tx) putBody(q string, id uint64, body Body) error {
	b := tx.bucket([]byte("queue." + q))
	if b == nil {
		return fmt.Errorf("store: no queue %q", q)
	}
	tx.data += int64(body.Len())
	v, z := body.Stored()
	if z {
		return putValue(b, zbodyKey(id), v)
	}
	return putValue(b, bodyKey(id), v)
}

// deleteBody forgets an item's payload.
func (tx *Tx) deleteBody(q string, id uint64) error {
	if b := tx.bucket([]byte("queue." + q)); b != nil {
		if err := deleteValue(b, bodyKey(id)); err != nil {
			return err
		}
		return deleteValue(b, zbodyKey(id))
	}
	return nil
}

// moveBody takes the payload out of a row read (one of schema <= 5 that
// no migration moved), writing it to the body bucket.
func (tx *Tx) moveBody(q string, it *Item) error {
	p := it.Payload
	it.Payload = nil
	if len(p) == 0 {
		return nil
	}
	return tx.putBody(q, it.ID, PackBody(p))
}
