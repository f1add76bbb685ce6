// Package kept holds the callers' decoded records that the store keeps
// between transactions (store/decoded.go: TakeDecoded, KeepDecoded; the
// tournaments of store/tournament.go and tourpages.go): a bounded map of
// id -> the stamp of the stored value the entry is valid for, and the
// caller's value.
//
// It owns the bound (Size, oldest put first out) and the order of
// eviction. It must not decide whether an entry is valid (the store
// compares its stamp with the stored value), read the store, or copy a
// value.
package kept

import "sync"

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
