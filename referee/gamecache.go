package referee

import (
	"bytes"
	"sync"

	"github.com/pbem-referee/referee/engine"
)

// gameCache keeps the decoded records of the games most recently saved,
// so that the next input of a game skips decoding its record and its
// table (issue 13.5: JSON was a quarter of a move's CPU). An entry is
// valid only for the exact bytes it was saved as: a load compares the
// stored record with them, so a record written by anyone else, or a
// transaction that saved and then failed to commit, is simply a miss.
// A unit of work takes the entry out (it mutates the objects) and a
// committed one puts its games back, so no two works share an object.
type gameCache struct {
	mu    sync.Mutex
	max   int
	m     map[string]*cachedGame
	order []string // oldest first, for eviction
}

type cachedGame struct {
	raw []byte
	g   *Game
	tb  *engine.Table
}

// gameCacheSize bounds the cache: the games in play right now, not every
// live game (the scale figures keep 10,000 games in 70 MiB).
const gameCacheSize = 32

func newGameCache(n int) *gameCache {
	return &gameCache{max: n, m: map[string]*cachedGame{}}
}

// take returns the decoded game saved as raw and removes it from the
// cache; ok is false when the cache has no such game or other bytes.
func (c *gameCache) take(id string, raw []byte) (*Game, *engine.Table, bool) {
	if c == nil {
		return nil, nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.m[id]
	if e == nil {
		return nil, nil, false
	}
	delete(c.m, id)
	if !bytes.Equal(e.raw, raw) {
		return nil, nil, false
	}
	return e.g, e.tb, true
}

// put remembers a game as committed with the bytes raw.
func (c *gameCache) put(e []cachedGame) {
	if c == nil || c.max <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range e {
		id := e[i].g.ID
		if _, ok := c.m[id]; !ok {
			c.order = append(c.order, id)
		}
		c.m[id] = &e[i]
	}
	for len(c.m) > c.max && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		delete(c.m, old)
	}
	if len(c.order) > 4*c.max {
		// Ids taken out and not put back linger in order: drop them.
		kept := c.order[:0]
		for _, id := range c.order {
			if c.m[id] != nil && !containsStr(kept, id) {
				kept = append(kept, id)
			}
		}
		c.order = kept
	}
}
