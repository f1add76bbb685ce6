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
// replayed with another message within the timestamp window. A token is
// bound to the Message-ID it first came with: the same token with the same
// message is the provider's retry (and a duplicate for the referee), with
// another message a replay. With a ReplayStore (the referee) the tokens
// survive restarts (issue 11, item 8); without one they are kept in memory.
type tokenCache struct {
	mu        sync.Mutex
	ttl       time.Duration
	now       func() time.Time
	db        ReplayStore
	seen      map[string]seenToken
	lastPrune time.Time
}

type seenToken struct {
	exp   time.Time
	msgid string
}

// maxTokens bounds the in-memory cache; only tokens with a valid signature
// get in, so this is a safety net, not a limit an attacker can reach.
const maxTokens = 1 << 20

func newTokenCache(ttl time.Duration, now func() time.Time, db ReplayStore) *tokenCache {
	return &tokenCache{ttl: ttl, now: now, db: db, seen: map[string]seenToken{}}
}

// reserve records token with the Message-ID of its message; errReplay if
// the token is known with another message, errCacheFull if the cache
// cannot take it now, a store error as is.
func (c *tokenCache) reserve(token, msgid string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if c.db != nil {
		prev, fresh, err := c.db.UseReplayToken("mailgun:"+token, msgid, now, now.Add(c.ttl), now.Sub(c.lastPrune) > time.Minute)
		if err != nil {
			return err
		}
		if now.Sub(c.lastPrune) > time.Minute {
			c.lastPrune = now
		}
		if !fresh && (prev != msgid || msgid == "") {
			return errReplay
		}
		return nil
	}
	if now.Sub(c.lastPrune) > time.Minute || len(c.seen) >= maxTokens {
		for t, st := range c.seen {
			if now.After(st.exp) {
				delete(c.seen, t)
			}
		}
		c.lastPrune = now
	}
	if st, ok := c.seen[token]; ok && !now.After(st.exp) {
		if st.msgid != msgid || msgid == "" {
			return errReplay
		}
		return nil
	}
	if len(c.seen) >= maxTokens {
		return errCacheFull
	}
	c.seen[token] = seenToken{exp: now.Add(c.ttl), msgid: msgid}
	return nil
}
