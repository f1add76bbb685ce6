package store

import (
	"bytes"
	"encoding/binary"
	"time"

	bolt "go.etcd.io/bbolt"
)

// When each game next needs attention.

// ---- wake-ups ----

// SetWake records when a game next needs attention (a deadline, a
// reminder), replacing any earlier wake-up; the zero time removes it.
// A change leaves the game's old key in "wake", stale (store/doc.go
// "Stale wake-up keys"), but a key of the older form or in a "wake" of
// one leaf, deleted at once.
func (tx *Tx) SetWake(game string, at time.Time) error {
	if tx.spec != nil {
		return tx.specSetWake(game, at)
	}
	w := tx.b(bWake)
	var key []byte
	if !at.IsZero() {
		// A time before 1970 would sort after every other (and among the
		// games' keys, schema9.go): it is due at once.
		key = append(u64(uint64(max(0, at.UnixNano()))), game...)
	}
	l, beside := tx.wakeBeside(game)
	old, oldBy := tx.wakeKey(game)
	if bytes.Equal(old, key) {
		// Unchanged (or none before and none now): a delete and a put of
		// the same keys would still write their leaves (issue 25).
		return nil
	}
	if old != nil {
		if oldBy || l == nil || tx.oneLeaf(w) {
			// The form of an older store (or of a store without
			// log.flat), or a tree of one leaf: the new key's.
			if err := w.Delete(bytes.Clone(old)); err != nil {
				return err
			}
			tx.markStale(old, false)
		} else {
			tx.markStale(old, true)
		}
		if oldBy {
			if err := w.Delete(wakeByKey(game)); err != nil {
				return err
			}
		} else if key == nil {
			// The old key stays in wake, stale once nothing beside the
			// log names it.
			if err := l.Delete(beside); err != nil {
				return err
			}
		}
	}
	if key == nil {
		return nil
	}
	if err := w.Put(key, nil); err != nil {
		return err
	}
	tx.markStale(key, false)
	if l == nil {
		return w.Put(wakeByKey(game), key)
	}
	l.FillPercent = logFill
	return l.Put(beside, key)
}

// oneLeaf reports whether a bucket was one leaf as last committed (its
// root a leaf, or inline): a key deleted there is in the leaf a put
// writes anyway (a write transaction's only: bbolt's Tx.Page).
func (tx *Tx) oneLeaf(b *bolt.Bucket) bool {
	if b.Root() == 0 {
		return true
	}
	p, err := tx.tx.Page(int(b.Root()))
	return err == nil && p != nil && p.Type == "leaf"
}

// wakeBeside returns log.flat (nil in a store of schema 7 or older) and
// the key there of a game's wake-up key: the game, 0x00, 0xFE, after its
// entries and before its record, in the leaf its move writes anyway.
func (tx *Tx) wakeBeside(game string) (*bolt.Bucket, []byte) {
	return tx.bucket(bLogFlat), append(append([]byte(game), 0), wakeBesideMark)
}

// wakeBesideMark ends a game's wake-up key's key in log.flat.
const wakeBesideMark = 0xFE

// wakeKey returns a game's key in "wake" (nil: none), and whether it is
// kept in the older form (0xFF + the game, in "wake").
func (tx *Tx) wakeKey(game string) ([]byte, bool) {
	tx.widen()
	if l, k := tx.wakeBeside(game); l != nil {
		if v := l.Get(k); v != nil {
			return v, false
		}
	}
	if tx.db != nil && !tx.db.oldWakes {
		return nil, false // none of the older form at the open: none since
	}
	if v := tx.bucket(bWake).Get(wakeByKey(game)); v != nil {
		return v, true
	}
	return nil, false
}

// hasOldWakes reports whether "wake" holds a wake-up key of the older
// form (0xFF + the game), which none writes from schema 9 on: Open's.
func (tx *Tx) hasOldWakes() bool {
	w := tx.bucket(bWake)
	if w == nil {
		return false
	}
	k, _ := w.Cursor().Seek([]byte{wakeByPrefix})
	return k != nil && k[0] == wakeByPrefix
}

// Wake returns when a game next needs attention (zero if never).
func (tx *Tx) Wake(game string) time.Time {
	k, _ := tx.wakeKey(game)
	if k == nil {
		return time.Time{}
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(k[:8])))
}

// DueWakes returns the games whose wake-up is at or before now, earliest
// first (at most limit; 0 means no limit). Stale keys (SetWake) are
// skipped.
func (tx *Tx) DueWakes(now time.Time, limit int) []string {
	var out []string
	tx.needStale()
	c := tx.b(bWake).Cursor()
	end := uint64(now.UnixNano())
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if k[0] == wakeByPrefix || binary.BigEndian.Uint64(k[:8]) > end || (limit > 0 && len(out) >= limit) {
			break
		}
		if !tx.isStale(k) {
			out = append(out, string(k[8:]))
		}
	}
	return out
}

// wakeLive reports whether a key of "wake" (8-byte time + game) is its
// game's wake-up, not a stale key a change left (SetWake), by reading the
// game's key: isStale asks the set kept in memory first (wakeset.go).
func (tx *Tx) wakeLive(k []byte) bool {
	cur, _ := tx.wakeKey(string(k[8:]))
	return bytes.Equal(cur, k)
}

// NextWake returns the earliest wake-up of any game. It skips stale keys,
// up to StaleSkip of them: past those it returns the time of the next key,
// stale or not (a tick then, early, finds no game due and drops them).
func (tx *Tx) NextWake() (time.Time, bool) {
	tx.needStale()
	c := tx.b(bWake).Cursor()
	skipped := 0
	for k, _ := c.First(); k != nil && k[0] != wakeByPrefix; k, _ = c.Next() {
		if skipped < StaleSkip && tx.isStale(k) {
			skipped++
			continue
		}
		return time.Unix(0, int64(binary.BigEndian.Uint64(k[:8]))), true
	}
	return time.Time{}, false
}

// StaleSkip is the most stale keys NextWake looks past: a tick that finds
// no game due drops the stale keys due only when there are as many
// (referee.Tick), so that NextWake's caller never wakes in a loop.
const StaleSkip = 256

// TickWakes returns DueWakes(now, limit) and, when no game is due,
// whether StaleSkip stale keys are: a tick with no game due drops them
// then only (referee.Tick), in a transaction of its own.
func (tx *Tx) TickWakes(now time.Time, limit int) (due []string, dropStale bool) {
	due = tx.DueWakes(now, limit)
	return due, len(due) == 0 && tx.StaleWakes(now, StaleSkip) >= StaleSkip
}

// DropStaleWakesAtCommit makes the transaction drop the stale keys at or
// before now (DropStaleWakes) after its other writes, as it commits (in
// DB.Update): a tick's do, in the leaves the tick writes anyway.
func (tx *Tx) DropStaleWakesAtCommit(now time.Time) {
	tx.widen()
	tx.dropStale = now
}

// StaleWakes returns the number of stale keys (SetWake) at or before
// now, up to limit (0: no limit).
func (tx *Tx) StaleWakes(now time.Time, limit int) int {
	n := 0
	tx.staleWakes(now, func([]byte) bool { n++; return limit == 0 || n < limit })
	return n
}

// DropStaleWakes deletes the stale keys (SetWake) at or before now and
// returns how many it deleted: the tick's (referee.Tick), in a write
// transaction of its own or of the tick's games.
func (tx *Tx) DropStaleWakes(now time.Time) (int, error) {
	var stale [][]byte
	tx.staleWakes(now, func(k []byte) bool { stale = append(stale, bytes.Clone(k)); return true })
	w := tx.b(bWake)
	for _, k := range stale {
		if err := w.Delete(k); err != nil {
			return 0, err
		}
		tx.markStale(k, false)
	}
	return len(stale), nil
}

// staleWakes calls fn with each stale key at or before now, in order,
// while fn returns true.
func (tx *Tx) staleWakes(now time.Time, fn func(k []byte) bool) {
	tx.needStale()
	c := tx.b(bWake).Cursor()
	end := uint64(now.UnixNano())
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if k[0] == wakeByPrefix || binary.BigEndian.Uint64(k[:8]) > end {
			return
		}
		if tx.isStale(k) && !fn(k) {
			return
		}
	}
}
