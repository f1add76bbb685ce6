package store

import (
	"bytes"
	"sync"
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
// an object. Measured (issue 25, BenchmarkProcessMove nosync against
// nosync-nocache): 1.2 ms of CPU a move with it, 1.5-1.9 ms without;
// 4,272 allocations against 4,689.

// DecodedCacheSize bounds the decoded records kept: the games in play
// right now, not every live game.
const DecodedCacheSize = 32

type decodedCache struct {
	mu    sync.Mutex
	m     map[string]*decodedEntry
	order []string // oldest first, for eviction
	// size bounds the entries kept (0: DecodedCacheSize).
	size int
}

type decodedEntry struct {
	stamp []byte
	v     any
}

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
	c := &tx.db.decoded
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.m[id]
	if e == nil {
		return nil, false
	}
	delete(c.m, id)
	if !bytes.Equal(e.stamp, stamp) {
		return nil, false
	}
	return e.v, true
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
	tx.tx.OnCommit(func() { db.decoded.put(id, stamp, v) })
	return nil
}

func (c *decodedCache) put(id string, stamp []byte, v any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*decodedEntry{}
	}
	if _, ok := c.m[id]; !ok {
		c.order = append(c.order, id)
	}
	c.m[id] = &decodedEntry{stamp: stamp, v: v}
	size := c.size
	if size <= 0 {
		size = DecodedCacheSize
	}
	for len(c.m) > size && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		delete(c.m, old)
	}
	if len(c.order) > 4*size {
		// Ids taken out and not put back linger in order: drop them.
		seen := map[string]bool{}
		kept := c.order[:0]
		for _, id := range c.order {
			if c.m[id] != nil && !seen[id] {
				seen[id] = true
				kept = append(kept, id)
			}
		}
		c.order = kept
	}
}
