package store

import (
	"sync"
	"sync/atomic"

	"github.com/pbem-referee/referee/store/pagefile"
	bolt "go.etcd.io/bbolt"
)

// pageCensus runs a page census (store/pagefile: Census) while on: a
// commit takes mu, under bbolt's writer lock and only then (issue 25),
// until the census has read it, so that the next commit waits.
type pageCensus struct {
	mu sync.Mutex
	on atomic.Bool
	c  pagefile.Census
}

// commit runs update and, when it found the top level due a merge,
// merges it (headers.go; a failure is not tried again).
func (db *DB) commit(fn func(*bolt.Tx) error) error {
	due := false
	err := db.update(func(tx *bolt.Tx) error {
		due = db.mergeHeadersDue(tx)
		return fn(tx)
	})
	if err == nil && due && !db.mergeFailed.Load() && db.merging.TryLock() {
		db.mergeFailed.Store(db.mergeHeaders() != nil)
		db.merging.Unlock()
	}
	return err
}

// update runs db.bolt.Update, its pages counted by a census that runs.
func (db *DB) update(fn func(*bolt.Tx) error) error {
	c, counted := &db.census, false
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		if counted = c.on.Load(); counted {
			c.mu.Lock()
		}
		return fn(tx)
	})
	if counted {
		if err == nil {
			_ = c.c.Read(db.pageFile())
		}
		c.mu.Unlock()
	}
	return err
}

// StartPageCensus counts the pages each commit writes (PageCensus) from
// zero; it reads the whole tree once, under bbolt's writer lock.
func (db *DB) StartPageCensus() error {
	btx, err := db.bolt.Begin(true)
	if err != nil {
		return err
	}
	defer btx.Rollback()
	db.census.mu.Lock()
	defer db.census.mu.Unlock()
	db.census.on.Store(true)
	return db.census.c.Start(db.pageFile())
}

// PageCensus returns the pages the commits wrote since StartPageCensus,
// by top-level bucket and kind ("log.flat leaf"; pagefile.Written's names),
// the meta page of each commit left out.
func (db *DB) PageCensus() map[string]int64 {
	c := &db.census
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.c.Counts()
}

// NewPageSize is the page size of a store made by this code (the reasons
// and figures: store/pagefile, pagesize.go).
const NewPageSize = pagefile.NewPageSize

// PageSize returns the page size of the open file.
func (db *DB) PageSize() int { return db.bolt.Info().PageSize }

// pageFile names the store's file for store/pagefile.
func (db *DB) pageFile() pagefile.File {
	return pagefile.File{Path: db.bolt.Path(), PageSize: db.PageSize(), Rest: string(bRest)}
}

// PageOwners maps every page of the file in use to the bucket whose tree
// holds it (pagefile.File.Owners: a diagnostic that reads the whole file).
func (db *DB) PageOwners() (map[uint64]string, error) { return db.pageFile().Owners() }

// PageReading is PageOwners with each page's kind and a digest of its
// bytes (pagefile.File.Reading; pagefile.Written compares two).
func (db *DB) PageReading() (map[uint64]pagefile.Info, error) { return db.pageFile().Reading() }
