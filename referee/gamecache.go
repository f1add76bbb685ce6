package referee

import (
	"bytes"
	"sync"

	"github.com/pbem-referee/referee/engine"
)

// gameCache keeps the decoded records of the games most recently saved,
// so that the next input of a game skips decoding its record and its
// table (issue 13.5: JSON was a quarter of a move's CPU), and the store
// rebuilding it from its snapshot and delta. An entry is valid only for
// the stored version it was saved as (store.Tx.GameStamp, a few bytes): a
// load compares the stamp, so a record written by anyone else, or a
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
	stamp []byte
	g     *Game
	tb    *engine.Table
}

// gameCacheSize bounds the cache: the games in play right now, not every
// live game (the scale figures keep 10,000 games in 70 MiB).
const gameCacheSize = 32

func newGameCache(n int) *gameCache {
	return &gameCache{max: n, m: map[string]*cachedGame{}}
}

// take returns the decoded game saved with the stamp and removes it from
// the cache; ok is false when the cache has no such game or another
// version.
func (c *gameCache) take(id string, stamp []byte) (*Game, *engine.Table, bool) {
	if c == nil || stamp == nil {
		return nil, nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.m[id]
	if e == nil {
		return nil, nil, false
	}
	delete(c.m, id)
	if !bytes.Equal(e.stamp, stamp) {
		return nil, nil, false
	}
	return e.g, e.tb, true
}

// put remembers games as committed with their stamps.
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
