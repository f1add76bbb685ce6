package pagefile

import (
	"maps"
	"os"
)

// A Census counts, while it runs, every page each write transaction writes, per
// top-level bucket and kind (issue 25: where the pages of a player mail go, in
// the bench's mail runs, whose commits are not one a move; run by the store's
// DB.StartPageCensus and DB.PageCensus). After each commit it walks the new
// tree from the root and goes down only into the nodes that commit wrote: bbolt
// copies on write, and a commit writes its nodes to pages that the tree before
// did not reach, so a node on a page the tree before reached is unchanged with
// everything under it. The census keeps the pages of the last tree and each
// node's children (in memory: the whole tree once), drops the nodes the commit
// replaced, and reads from the file the written nodes and their children's
// first pages only. The pages it counts plus one meta page a commit are
// WriteStats' DiskBytes, and commit by commit the pages a reading of the whole
// file finds (store/census_test.go,
// TestPageCensusCountsEveryPageWritten_Issue25). A diagnostic: the store holds
// the next commit back while it reads, never for the daemon.
type Census struct {
	root uint64
	// kids holds every node of the last tree read by its first page: the
	// first pages of its children (a branch's, or the roots of the
	// buckets a leaf holds).
	kids map[uint64][]uint64
	// pages counts the pages written, by "owner kind" (Written's names:
	// kinds leaf, branch, nested, overflow).
	pages map[string]int64
}

// Start starts counting from zero: it reads the whole tree of fl once,
// uncounted.
func (c *Census) Start(fl File) error {
	c.root, c.kids, c.pages = 0, map[uint64][]uint64{}, map[string]int64{}
	return c.read(fl, true)
}

// Read counts the pages the commits wrote since the last reading (Start's
// or Read's), to be called after each commit while the next one waits.
func (c *Census) Read(fl File) error { return c.read(fl, false) }

// Counts returns the pages counted since Start, by top-level bucket and
// kind ("log.flat leaf"; Written's names), a commit's meta page left out.
func (c *Census) Counts() map[string]int64 { return maps.Clone(c.pages) }

// read walks the last commit's tree down to the nodes of the tree before
// and counts the others' pages (all of them, uncounted, when first).
func (c *Census) read(fl File, first bool) error {
	f, err := os.Open(fl.Path)
	if err != nil {
		return err
	}
	defer f.Close()
	ps := fl.PageSize
	if c.kids == nil {
		// A reading that failed: this one starts again, uncounted.
		first, c.kids = true, map[uint64][]uint64{}
	}
	fresh, kept := map[uint64][]uint64{}, map[uint64]bool{}
	var root uint64
	err = fl.walk(f, func(id uint64, owner, kind string, node []byte, kids []uint64) bool {
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
