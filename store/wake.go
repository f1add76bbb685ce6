package store

import (
	"bytes"
	"encoding/binary"
	"time"
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
	by := wakeByKey(game)
	var key []byte
	if !at.IsZero() {
		// A time before 1970 would sort after every other (and among the
		// games' keys, schema9.go): it is due at once.
		key = append(u64(uint64(max(0, at.UnixNano()))), game...)
	}
	old := w.Get(by)
	if bytes.Equal(old, key) {
		// Unchanged (or none before and none now): a delete and a put of
		// the same keys would still write their leaves (issue 25).
		return nil
	}
	if old != nil {
		if err := w.Delete(bytes.Clone(old)); err != nil {
			return err
		}
		if err := w.Delete(by); err != nil {
			return err
		}
	}
	if key == nil {
		return nil
	}
	if err := w.Put(key, nil); err != nil {
		return err
	}
	return w.Put(by, key)
}

// Wake returns when a game next needs attention (zero if never).
func (tx *Tx) Wake(game string) time.Time {
	k := tx.b(bWake).Get(wakeByKey(game))
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
