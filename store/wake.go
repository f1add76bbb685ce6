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
		if err := w.Delete(bytes.Clone(old)); err != nil {
			return err
		}
		if oldBy {
			// The form of an older store (or of a store without log.flat).
			if err := w.Delete(wakeByKey(game)); err != nil {
				return err
			}
		} else if err := l.Delete(beside); err != nil {
			return err
		}
	}
	if key == nil {
		return nil
	}
	if err := w.Put(key, nil); err != nil {
		return err
	}
	if l == nil {
		return w.Put(wakeByKey(game), key)
	}
	l.FillPercent = logFill
	return l.Put(beside, key)
}

// wakeBeside returns log.flat (nil in a store of schema 7 or older) and
// the key there of a game's wake-up key: the game, 0x00, 0xFE, after its
// entries and before its record (writepath.go), in the leaf its move
// writes anyway (2026-12-07, issue 25: it was 0xFF + the game in "wake",
// a third leaf of wake a move; still read there).
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
// form (0xFF + the game). None is written from schema 9 on (SetWake
// writes beside the log), so a store that had none at its open has none
// until it closes, and a game without a wake-up beside its log has none
// (2026-12-07, issue 25: a miss read the older form every time).
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
// first (at most limit; 0 means no limit).
func (tx *Tx) DueWakes(now time.Time, limit int) []string {
	var out []string
	c := tx.b(bWake).Cursor()
	end := uint64(now.UnixNano())
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if k[0] == wakeByPrefix || binary.BigEndian.Uint64(k[:8]) > end || (limit > 0 && len(out) >= limit) {
			break
		}
		out = append(out, string(k[8:]))
	}
	return out
}

// NextWake returns the earliest wake-up of any game.
func (tx *Tx) NextWake() (time.Time, bool) {
	k, _ := tx.b(bWake).Cursor().First()
	if k == nil || k[0] == wakeByPrefix {
		return time.Time{}, false
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(k[:8]))), true
}
