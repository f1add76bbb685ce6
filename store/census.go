package store

import (
	"sync"
	"sync/atomic"

	"github.com/pbem-referee/referee/store/pagefile"
	bolt "go.etcd.io/bbolt"
)

// pageCensus runs a page census (store/pagefile: Census) while on: a
// commit takes mu under bbolt's writer lock, only while a census runs,
// and holds it until the census has read the commit, so that the census
// reads each commit's tree before the next commit changes it (the next
// waits for mu, under the writer lock); StartPageCensus takes both in the
// same order. No census, no lock: a commit reads on only (issue 25).
type pageCensus struct {
	mu sync.Mutex
	on atomic.Bool
	c  pagefile.Census
}

// commit runs a write transaction (update) and, when the transaction
// found the top level due a merge, merges it (headers.go).
func (db *DB) commit(fn func(*bolt.Tx) error) error {
	due := false
	err := db.update(func(tx *bolt.Tx) error {
		due = db.mergeHeadersDue(tx)
		return fn(tx)
	})
	if err == nil && due && !db.mergeFailed.Load() && db.merging.TryLock() {
		// The top level back in one leaf (headers.go); a failure leaves
		// it as it was (and bucketOf finds every bucket), not tried again
		// until the store is opened again.
		if db.mergeHeaders() != nil {
			db.mergeFailed.Store(true)
		}
		db.merging.Unlock()
	}
	return err
}

// update runs a write transaction of bbolt (db.bolt.Update) and, while a
// census runs, counts the pages it wrote (pageCensus).
func (db *DB) update(fn func(*bolt.Tx) error) error {
	c := &db.census
	counted := false
	defer func() {
		if counted {
			c.mu.Unlock()
		}
	}()
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		if !counted && c.on.Load() {
			c.mu.Lock()
			counted = true
		}
		return fn(tx)
	})
	if err == nil && counted {
		_ = c.c.Read(db.pageFile())
	}
	return err
}

// StartPageCensus starts counting the pages each commit writes
// (PageCensus); a census that runs starts again from zero. It reads the
// whole tree once, under bbolt's writer lock (a write transaction rolled
// back: nothing written).
func (db *DB) StartPageCensus() error {
	btx, err := db.bolt.Begin(true)
	if err != nil {
		return err
	}
	defer btx.Rollback()
	c := &db.census
	c.mu.Lock()
	defer c.mu.Unlock()
	c.on.Store(true)
	return c.c.Start(db.pageFile())
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
