package store

import (
	"bytes"
	"sync"
)

// The snapshots kept decompressed (issue 25). A game's snapshot is kept
// compressed (encodeSnap), and every put of the game's record made a delta
// against it, so every move inflated the snapshot (tens of KB) again; so
// did every read of the record. The last snapshots inflated are kept here,
// each with the stored bytes it came from: one is used only while the
// stored snapshot is byte-identical (compared whole, not by a hash), so a
// snapshot written since, by this process or a restored file, is inflated
// afresh. A snapshot written is kept as written, no inflate needed.

// snapCacheMax bounds the snapshots kept (a few MB: a snapshot is tens of
// KB inflated, a few KB stored).
const snapCacheMax = 128

type snapCache struct {
	mu sync.Mutex
	m  map[string]snapEntry
}

type snapEntry struct{ stored, snap []byte }

// decode returns the record a stored snapshot of a game holds: from the
// cache when it came from the same stored bytes. The record returned is
// shared: callers do not modify it.
func (c *snapCache) decode(id string, stored []byte) ([]byte, error) {
	if len(stored) == 0 || stored[0] != snapZ {
		return stored, nil
	}
	c.mu.Lock()
	e, ok := c.m[id]
	c.mu.Unlock()
	if ok && bytes.Equal(e.stored, stored) {
		return e.snap, nil
	}
	snap, err := decodeSnap(stored)
	if err != nil {
		return nil, err
	}
	c.keep(id, bytes.Clone(stored), snap)
	return snap, nil
}

// keep remembers a game's snapshot and its stored form (owned by the
// cache from now on).
func (c *snapCache) keep(id string, stored, snap []byte) {
	if len(stored) == 0 || stored[0] != snapZ {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]snapEntry{}
	}
	if _, ok := c.m[id]; !ok && len(c.m) >= snapCacheMax {
		for k := range c.m { // one out, any
			delete(c.m, k)
			break
		}
	}
	c.m[id] = snapEntry{stored: stored, snap: snap}
}
