package pages

// A page is rendered once per change of the referee's records, not once
// per request (issue 24): the rendered bytes are kept per address and
// language with the records' version they were made from; a request whose
// version is the kept one is answered from the kept bytes, with an ETag
// (304 on If-None-Match, by http.ServeContent) and Last-Modified.
// Concurrent requests for a page being rendered wait for that one
// rendering (singleflight). gzip is gorilla/handlers' middleware.

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// Versioned is a Source that says when its records changed: Version
// grows with every committed write. A Source without it is rendered on
// every request.
type Versioned interface {
	PagesVersion() uint64
}

// rendered is one page's bytes in one language, made at version.
type rendered struct {
	version uint64
	body    []byte
	etag    string
	lang    string
	mod     time.Time
}

// maxKept bounds the kept pages: past it the oldest half is dropped (a
// page not kept is rendered again on its next request).
const maxKept = 2048

type pageCache struct {
	mu    sync.Mutex
	kept  map[string]*rendered
	order []string // keys, oldest first
	group singleflight.Group
	// renders counts the renderings (the tests' and benchmarks' figure).
	renders int64
}

func newPageCache() *pageCache { return &pageCache{kept: map[string]*rendered{}} }

func (c *pageCache) get(key string, version uint64) *rendered {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.kept[key]; p != nil && p.version == version {
		return p
	}
	return nil
}

func (c *pageCache) put(key string, p *rendered) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.renders++
	if _, ok := c.kept[key]; !ok {
		c.order = append(c.order, key)
	}
	c.kept[key] = p
	if len(c.order) > maxKept {
		drop := c.order[:len(c.order)/2]
		for _, k := range drop {
			delete(c.kept, k)
		}
		c.order = append([]string(nil), c.order[len(drop):]...)
	}
}

// Renders is how many pages were rendered (not answered from the kept
// bytes).
func (c *pageCache) Renders() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.renders
}

// render returns the page at key for version, rendering it with mk
// when it is not kept; concurrent callers share one rendering. A failed
// rendering is not kept.
func (c *pageCache) render(key string, version uint64, mk func() (*rendered, error)) (*rendered, error) {
	if p := c.get(key, version); p != nil {
		return p, nil
	}
	v, err, _ := c.group.Do(key+"\x00"+strconv.FormatUint(version, 10), func() (any, error) {
		if p := c.get(key, version); p != nil {
			return p, nil
		}
		p, err := mk()
		if err != nil {
			return nil, err
		}
		p.version = version
		c.put(key, p)
		return p, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*rendered), nil
}

// etagOf is a weak validator of a page's bytes (weak: the same page is
// also sent gzipped).
func etagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `W/"` + hex.EncodeToString(sum[:12]) + `"`
}
