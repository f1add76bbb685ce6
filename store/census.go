package store

import (
	"sync"

	"github.com/pbem-referee/referee/store/pagefile"
	bolt "go.etcd.io/bbolt"
)

// pageCensus runs a page census (store/pagefile: Census) while on: mu is
// held around every write transaction of Update and of the group commit
// and its census, so that the census reads each commit's tree before the
// next commit changes it.
type pageCensus struct {
	mu sync.Mutex
	on bool
	c  pagefile.Census
}

// commit runs a write transaction of bbolt (db.bolt.Update) and, while a
// census runs, counts the pages it wrote; then, when the transaction found
// the top level due a merge, merges it (headers.go).
func (db *DB) commit(fn func(*bolt.Tx) error) error {
	c := &db.census
	c.mu.Lock()
	defer c.mu.Unlock()
	due := false
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		due = mergeHeadersDue(tx)
		return fn(tx)
	})
	if err == nil && c.on {
		_ = c.c.Read(db.pageFile())
	}
	if err == nil && due && !db.mergeFailed {
		// The top level back in one leaf (headers.go); a failure leaves
		// it as it was (and bucketOf finds every bucket), not tried again
		// until the store is opened again.
		db.mergeFailed = db.mergeHeaders() != nil
	}
	return err
}

// StartPageCensus starts counting the pages each commit writes
// (PageCensus); a census that runs starts again from zero. It reads the
// whole tree once.
func (db *DB) StartPageCensus() error {
	c := &db.census
	c.mu.Lock()
	defer c.mu.Unlock()
	c.on = true
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
