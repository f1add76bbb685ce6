// Package kept holds what the store keeps in memory between transactions
// of the callers' decoded records and of its own inflated snapshots: the
// decoded records (Cache; store/decoded.go: TakeDecoded, KeepDecoded; the
// tournaments of store/tournament.go and tourpages.go), a bounded map of
// id -> the stamp of the stored value the entry is valid for and the
// caller's value, and the last snapshots inflated (Snaps;
// store/snapcache.go), each with the stored bytes it came from.
//
// It owns the bounds (Size, SnapsMax) and the order of eviction, and
// gives a snapshot back only for the very bytes it came from. It must not
// decide whether a decoded record is valid (the store compares its
// stamp with the stored value), read the store, decode a value, or copy
// one.
package kept

import (
	"bytes"
	"sync"
)

// DefaultSize bounds the entries of a Cache whose Size is 0.
const DefaultSize = 32

// Cache is a bounded set of entries by id. Its zero value is ready.
type Cache struct {
	mu    sync.Mutex
	m     map[string]*Entry
	order []string // oldest first, for eviction
	// Size bounds the entries kept (0: DefaultSize).
	Size int
}

// Entry is a value kept with the stamp it is valid for.
type Entry struct {
	Stamp []byte
	V     any
}

// Take returns the entry of id, nil for none, and forgets it.
func (c *Cache) Take(id string) *Entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.m[id]
	delete(c.m, id)
	return e
}

// Peek returns the entry of id, nil for none, and keeps it.
func (c *Cache) Peek(id string) *Entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[id]
}

// Put keeps v for id with its stamp, the oldest entries out past Size.
func (c *Cache) Put(id string, stamp []byte, v any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*Entry{}
	}
	if _, ok := c.m[id]; !ok {
		c.order = append(c.order, id)
	}
	c.m[id] = &Entry{Stamp: stamp, V: v}
	size := c.Size
	if size <= 0 {
		size = DefaultSize
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

// SnapsMax bounds the snapshots a Snaps keeps (a few MB: a snapshot is
// tens of KB inflated, a few KB stored).
const SnapsMax = 128

// Snaps keeps the last snapshots inflated, each with the stored bytes it
// came from (store/snapcache.go). Its zero value is ready.
type Snaps struct {
	mu sync.Mutex
	m  map[string]snapEntry
}

type snapEntry struct{ stored, snap []byte }

// Get returns the snapshot kept for id when it came from stored, compared
// whole (not by a hash). It is shared: callers do not modify it.
func (c *Snaps) Get(id string, stored []byte) (snap []byte, ok bool) {
	c.mu.Lock()
	e, ok := c.m[id]
	c.mu.Unlock()
	if ok && bytes.Equal(e.stored, stored) {
		return e.snap, true
	}
	return nil, false
}

// Keep remembers a snapshot and its stored form (owned by Snaps from now
// on), one kept out, any, past SnapsMax.
func (c *Snaps) Keep(id string, stored, snap []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]snapEntry{}
	}
	if _, ok := c.m[id]; !ok && len(c.m) >= SnapsMax {
		for k := range c.m { // one out, any
			delete(c.m, k)
			break
		}
	}
	c.m[id] = snapEntry{stored: stored, snap: snap}
}
