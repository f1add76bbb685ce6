package store

import (
	"bytes"

	"github.com/pbem-referee/referee/store/kept"
)

// Decoded records (issue 25: the decoded-game cache behind the store's
// API; it was the referee's gamecache.go). The caller's decoded form of a
// game's record (for the referee, its Game and engine table: JSON was a
// quarter of a move's CPU) is kept after the commit that wrote the record,
// for the next transaction that reads that game. An entry is valid only
// for the stored version it was written as (the value GameStamp reads):
// TakeDecoded compares it, so a record written by anyone else, or a
// transaction that wrote and then failed to commit, is simply a miss, and
// a speculation's read of the stamp is tracked like any read. A
// transaction takes the entry out (the caller mutates the objects) and a
// committed one puts its games back, so that no two transactions share
// an object. Measured: store/history.md.

// DecodedCacheSize bounds the decoded records kept: the games in play
// right now, not every live game (store/kept).
const DecodedCacheSize = kept.DefaultSize

// TakeDecoded returns the decoded form kept for the game's stored record
// (KeepDecoded) and forgets it; ok is false when none is kept for this
// version.
func (tx *Tx) TakeDecoded(id string) (v any, ok bool) {
	if tx.db == nil || tx.db.noDecoded {
		return nil, false
	}
	stamp := tx.GameStamp(id)
	if stamp == nil {
		return nil, false
	}
	e := tx.db.decoded.Take(id)
	if e == nil || !bytes.Equal(e.Stamp, stamp) {
		return nil, false
	}
	return e.V, true
}

// KeepDecoded keeps v, the decoded form of the record this transaction
// put for the game (PutGame), once the transaction is committed.
func (tx *Tx) KeepDecoded(id string, v any) error {
	if tx.db == nil || tx.db.noDecoded {
		return nil
	}
	if tx.spec != nil {
		return tx.specOp(func(tx *Tx) error { return tx.KeepDecoded(id, v) })
	}
	stamp := bytes.Clone(tx.GameStamp(id))
	db := tx.db
	tx.tx.OnCommit(func() { db.decoded.Put(id, stamp, v) })
	return nil
}
