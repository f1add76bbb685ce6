package webhook

import (
	"errors"
	"sync"
	"time"
)

var (
	errReplay    = errors.New("token already used")
	errCacheFull = errors.New("token cache full")
)

// tokenCache remembers Mailgun tokens so that a captured request cannot be
// replayed within the timestamp window. A token is reserved while its
// request is handled; a transient failure releases it (the provider's retry
// may carry the same token), a final answer keeps it until it expires.
type tokenCache struct {
	mu        sync.Mutex
	ttl       time.Duration
	now       func() time.Time
	seen      map[string]time.Time // token -> expiry
	lastPrune time.Time
}

// maxTokens bounds the cache; only tokens with a valid signature get in,
// so this is a safety net, not a limit an attacker can reach.
const maxTokens = 1 << 20

func newTokenCache(ttl time.Duration, now func() time.Time) *tokenCache {
	return &tokenCache{ttl: ttl, now: now, seen: map[string]time.Time{}}
}

// reserve records token; errReplay if it is known, errCacheFull if the
// cache cannot take it now.
func (c *tokenCache) reserve(token string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if now.Sub(c.lastPrune) > time.Minute || len(c.seen) >= maxTokens {
		for t, exp := range c.seen {
			if now.After(exp) {
				delete(c.seen, t)
			}
		}
		c.lastPrune = now
	}
	if exp, ok := c.seen[token]; ok && !now.After(exp) {
		return errReplay
	}
	if len(c.seen) >= maxTokens {
		return errCacheFull
	}
	c.seen[token] = now.Add(c.ttl)
	return nil
}

// release forgets a reserved token.
func (c *tokenCache) release(token string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.seen, token)
}
