package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// The games' records and their append-only logs (the records' encoding
// is in writepath.go, the log's keys in flatlog.go).

// ---- games ----

// Game returns the record of a game.
func (tx *Tx) Game(id string) ([]byte, error) {
	if tx.spec != nil {
		if rec, ok := tx.spec.games[id]; ok {
			return bytes.Clone(rec), nil
		}
	}
	v := tx.get(bGames, []byte(id))
	if v == nil {
		return nil, fmt.Errorf("%w: game %q", ErrNotFound, id)
	}
	return tx.gameRecord(id, v, tx.get)
}

// GameStamp returns what identifies the stored version of a game's record
// (nil: no such game): two reads with the same stamp read the same record.
// It costs no decoding, so that a cache of decoded games can check itself.
func (tx *Tx) GameStamp(id string) []byte {
	if tx.spec != nil {
		if st, ok := tx.spec.stamps[id]; ok {
			return bytes.Clone(st)
		}
	}
	return bytes.Clone(gameValue(id, tx.get))
}

// PutGame stores the record of a game: as a small delta against the
// game's last snapshot when that is worth it (writepath.go). rec is the
// store's from then on (a speculation keeps it until its commit, the
// commit writes it, the snapshots kept decompressed keep it: snapcache.go):
// the caller does not change it.
func (tx *Tx) PutGame(id string, rec []byte) error {
	if id == "" {
		return errors.New("store: empty game id")
	}
	val, snap, e := tx.encodeGame(id, rec)
	if tx.spec != nil {
		return tx.specPutGame(id, rec, val, snap, e)
	}
	return tx.writeGame(id, val, snap, nil, e)
}

// HasGame reports whether a game exists.
func (tx *Tx) HasGame(id string) bool { return tx.get1(tx.b(bGames), []byte(id)) != nil }

// Games calls fn for every game, in id order, until fn returns an error.
func (tx *Tx) Games(fn func(id string, rec []byte) error) error {
	return tx.b(bGames).ForEach(func(k, v []byte) error {
		rec, err := tx.gameRecord(string(k), v, tx.getRaw)
		if err != nil {
			return err
		}
		return fn(string(k), rec)
	})
}

// GameIDs calls fn for every game id, in order, without reading the
// records.
func (tx *Tx) GameIDs(fn func(id string) error) error {
	return tx.b(bGames).ForEach(func(k, _ []byte) error { return fn(string(k)) })
}

// GameCount returns the number of games. When the game index covers
// every game (GameIndexBuilt), it is the sum of the counts by status the
// index keeps in the transaction of each change (games.count): a few keys
// read, where counting the records walked every page of "games" (at
// 100,000 games, tens of megabytes mapped in at each game's creation,
// issue 25). A store whose index is not built yet counts the records.
func (tx *Tx) GameCount() int {
	if !tx.GameIndexBuilt() {
		return tx.b(bGames).Stats().KeyN
	}
	n := 0
	tx.eachCount(func(_ []byte, c int64) { n += int(c) })
	return n
}

// ---- the append-only log ----

// AppendLog appends an entry to a game's log and returns its sequence
// number (from 1).
func (tx *Tx) AppendLog(game string, entry []byte) (uint64, error) {
	if tx.spec != nil {
		return tx.specAppendLog(game, entry)
	}
	b := tx.b(bLogFlat)
	// A game's entries arrive in order, each after the last of its run:
	// a leaf that splits keeps the old entries full and the new one apart
	// (BenchmarkWritePerMove: 0.2-0.7 page of log.flat less per move).
	b.FillPercent = logFill
	// A game's last number is sought once a transaction, then counted
	// (issue 24: a round of 5,000 games opened sought it 20,000 times,
	// now 5,000; TestLogNumberSoughtOnceATransaction_Issue24).
	seq := tx.logs[game]
	if seq == 0 {
		seq = lastLogSeq(b, game)
	}
	seq++
	if tx.logs == nil {
		tx.logs = map[string]uint64{}
	}
	tx.logs[game] = seq
	tx.data += int64(len(entry))
	// Kept compressed when that is smaller (the form of a snapshot:
	// encodeSnap; an entry of an older store is JSON and read as it is).
	return seq, b.Put(logKey(game, seq), encodeSnap(entry))
}

// logFill is log.flat's fill of a leaf that splits (bbolt: 0.5).
const logFill = 0.95

// Log calls fn for the game's log entries with sequence >= from, in order,
// until fn returns an error.
func (tx *Tx) Log(game string, from uint64, fn func(seq uint64, entry []byte) error) error {
	var l *specLog
	if tx.spec != nil {
		l = tx.specLog(game)
	}
	prefix := append([]byte(game), 0)
	c := tx.bucket(bLogFlat).Cursor()
	for k, v := c.Seek(logKey(game, from)); k != nil && len(k) == len(prefix)+8 && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		e, err := decodeSnap(v)
		if err != nil {
			return fmt.Errorf("store: log entry %q: %w", k, err)
		}
		if len(e) > 0 && &e[0] == &v[0] {
			e = bytes.Clone(e)
		}
		if err := fn(binary.BigEndian.Uint64(k[len(prefix):]), e); err != nil {
			return err
		}
	}
	if l != nil {
		for i, e := range l.entries {
			if seq := l.base + uint64(i) + 1; seq >= from {
				if err := fn(seq, bytes.Clone(e)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// LogLen returns the sequence number of the game's last log entry (0: empty).
func (tx *Tx) LogLen(game string) uint64 {
	if tx.spec != nil {
		l := tx.specLog(game)
		return l.base + uint64(len(l.entries))
	}
	return tx.logSeq(game)
}
