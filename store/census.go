package store

import (
	"maps"
	"os"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// A page census counts, while it runs, every page each write transaction
// writes, per top-level bucket and kind (issue 25: where the pages of a
// player mail go, in the bench's mail runs, whose commits are not one a
// move): DB.StartPageCensus, DB.PageCensus. After each commit it walks
// the new tree from the root and goes down only into the nodes that
// commit wrote: bbolt copies on write, and a commit writes its nodes to
// pages that the tree before did not reach, so a node on a page the tree
// before reached is unchanged with everything under it. The census keeps
// the pages of the last tree and each node's children (in memory: the
// whole tree once), drops the nodes the commit replaced, and reads from
// the file the written nodes and their children's first pages only. The
// pages it counts plus one meta page a commit are WriteStats' DiskBytes,
// and commit by commit the pages a reading of the whole file finds
// (TestPageCensusCountsEveryPageWritten_Issue25). A diagnostic: it holds
// the next commit back while it reads, never for the daemon.
type pageCensus struct {
	// mu is held around every write transaction of Update and of the
	// group commit and its census, so that the census reads each commit's
	// tree before the next commit changes it.
	mu   sync.Mutex
	on   bool
	root uint64
	// kids holds every node of the last tree read by its first page: the
	// first pages of its children (a branch's, or the roots of the
	// buckets a leaf holds).
	kids map[uint64][]uint64
	// pages counts the pages written, by "owner kind" (WrittenPages'
	// names: kinds leaf, branch, nested, overflow).
	pages map[string]int64
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
		_ = c.read(db, false)
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
	c.on, c.root, c.kids, c.pages = true, 0, map[uint64][]uint64{}, map[string]int64{}
	return c.read(db, true)
}

// PageCensus returns the pages the commits wrote since StartPageCensus,
// by top-level bucket and kind ("log.flat leaf"; WrittenPages' names),
// the meta page of each commit left out.
func (db *DB) PageCensus() map[string]int64 {
	c := &db.census
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.pages)
}

// read walks the last commit's tree down to the nodes of the tree before
// and counts the others' pages (all of them, uncounted, when first).
func (c *pageCensus) read(db *DB, first bool) error {
	f, err := os.Open(db.bolt.Path())
	if err != nil {
		return err
	}
	defer f.Close()
	ps := db.PageSize()
	if c.kids == nil {
		// A reading that failed: this one starts again, uncounted.
		first, c.kids = true, map[uint64][]uint64{}
	}
	fresh, kept := map[uint64][]uint64{}, map[uint64]bool{}
	var root uint64
	err = walkPages(f, int64(ps), func(id uint64, owner, kind string, node []byte, kids []uint64) bool {
		if root == 0 {
			root = id
		}
		if _, old := c.kids[id]; old {
			kept[id] = true
			return false
		}
		fresh[id] = kids
		if !first {
			c.pages[owner+" "+kind]++
			if n := len(node)/ps - 1; n > 0 {
				c.pages[owner+" overflow"] += int64(n)
			}
		}
		return true
	})
	if err != nil {
		// Read everything again, uncounted, at the next commit.
		c.kids, c.root = nil, 0
		return err
	}
	// The nodes of the tree before that the new one no longer reaches:
	// from the old root down, every node not reached, with the nodes under
	// it not reached either.
	var drop func(id uint64)
	drop = func(id uint64) {
		kids, ok := c.kids[id]
		if !ok || kept[id] {
			return
		}
		delete(c.kids, id)
		for _, k := range kids {
			drop(k)
		}
	}
	drop(c.root)
	maps.Copy(c.kids, fresh)
	c.root = root
	return nil
}
