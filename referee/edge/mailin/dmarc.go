package mailin

import (
	"strings"
	"sync"
	"time"

	"golang.org/x/net/publicsuffix"
)

// dmarcCache remembers which From domains publish an enforcing DMARC
// policy (issue 23: DKIM alignment is required by default for them).
// Lookups are cached for an hour, failures as "no policy" (fail open: a
// DNS outage must not lock players out), and the cache is bounded.
type dmarcCache struct {
	mu   sync.Mutex
	now  func() time.Time
	seen map[string]dmarcEntry
}

type dmarcEntry struct {
	enforce bool
	exp     time.Time
}

const (
	dmarcTTL     = time.Hour
	dmarcEntries = 10000
)

// enforces reports whether domain (or, without a record of its own, its
// organizational domain) publishes a DMARC record whose policy is
// quarantine or reject (RFC 7489 6.6.3; p=none asks for no enforcement).
func (c *dmarcCache) enforces(domain string, lookup func(string) ([]string, error)) bool {
	domain = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(domain), "."))
	if domain == "" || lookup == nil {
		return false
	}
	now := c.now()
	c.mu.Lock()
	if e, ok := c.seen[domain]; ok && now.Before(e.exp) {
		c.mu.Unlock()
		return e.enforce
	}
	c.mu.Unlock()
	enforce, found := dmarcPolicy("_dmarc."+domain, lookup)
	if !found {
		if org, err := publicsuffix.EffectiveTLDPlusOne(domain); err == nil && org != domain {
			enforce, _ = dmarcPolicy("_dmarc."+org, lookup)
		}
	}
	c.mu.Lock()
	if len(c.seen) >= dmarcEntries {
		clear(c.seen)
	}
	c.seen[domain] = dmarcEntry{enforce: enforce, exp: now.Add(dmarcTTL)}
	c.mu.Unlock()
	return enforce
}

// dmarcPolicy reads the DMARC record at name: found when there is one,
// enforce when its p= is quarantine or reject.
func dmarcPolicy(name string, lookup func(string) ([]string, error)) (enforce, found bool) {
	txts, err := lookup(name)
	if err != nil {
		return false, false
	}
	for _, txt := range txts {
		tags := strings.Split(txt, ";")
		if len(tags) == 0 || !strings.EqualFold(strings.ReplaceAll(strings.TrimSpace(tags[0]), " ", ""), "v=DMARC1") {
			continue
		}
		for _, tg := range tags[1:] {
			k, v, _ := strings.Cut(strings.TrimSpace(tg), "=")
			if strings.EqualFold(strings.TrimSpace(k), "p") {
				v = strings.ToLower(strings.TrimSpace(v))
				return v == "quarantine" || v == "reject", true
			}
		}
		return false, true
	}
	return false, false
}
