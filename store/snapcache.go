package store

import (
	"bytes"

	"github.com/pbem-referee/referee/store/kept"
)

// The snapshots kept decompressed (issue 25). A game's snapshot is kept
// compressed (encodeSnap), and every put of the game's record made a delta
// against it, so every move inflated the snapshot (tens of KB) again; so
// did every read of the record. The last snapshots inflated are kept here
// (store/kept: Snaps, at most SnapsMax), each with the stored bytes it
// came from: one is used only while the stored snapshot is byte-identical
// (compared whole, not by a hash), so a snapshot written since, by this
// process or a restored file, is inflated afresh. A snapshot written is
// kept as written, no inflate needed.
type snapCache struct{ kept.Snaps }

// decode returns the record a stored snapshot of a game holds: from the
// cache when it came from the same stored bytes. The record returned is
// shared: callers do not modify it.
func (c *snapCache) decode(id string, stored []byte) ([]byte, error) {
	if len(stored) == 0 || stored[0] != snapZ {
		return stored, nil
	}
	if snap, ok := c.Get(id, stored); ok {
		return snap, nil
	}
	snap, err := decodeSnap(stored)
	if err != nil {
		return nil, err
	}
	c.Keep(id, bytes.Clone(stored), snap)
	return snap, nil
}

// keep remembers a game's snapshot and its stored form (owned by the
// cache from now on).
func (c *snapCache) keep(id string, stored, snap []byte) {
	if len(stored) > 0 && stored[0] == snapZ {
		c.Keep(id, stored, snap)
	}
}
