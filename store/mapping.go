package store

import (
	"sync/atomic"

	bolt "go.etcd.io/bbolt"
)

// The resident mapping (issue 25: 100,000 live games under 300 MB).
//
// bbolt reads the file through one shared, read-only mapping of all of
// it. A page read is a page mapped into the process, and it stays mapped:
// the kernel counts it in the process's resident memory (RssFile) for as
// long as the mapping lives, and a read fault maps the neighbours already
// in the page cache with it (fault-around; bbolt's MADV_RANDOM stops the
// readahead, not that). A daemon that serves moves in random games of a
// large store therefore grows its resident memory with every game it
// touches, towards the size of the file (387 MB after 1,000 random moves
// over a store of 731 MB at 100,000 games).
//
// The store bounds it (Options.MappedLimit): after a transaction, when
// the process's resident file-backed memory has grown by more than the
// limit since the store last trimmed (or opened), it drops the pages of
// its mapping from the process (madvise MADV_DONTNEED over the mapped
// file). The measure is the growth, not the total, so that what the
// store does not own (the binary's text, another file) neither counts
// against it nor makes it trim at every transaction. Nothing is lost and
// nothing is read from disk again: the mapping is shared and read-only
// (bbolt writes with pwrite), so the pages stay in the kernel's page
// cache, where they are reclaimable memory and not the process's, and a
// later read maps the page back with a minor fault. The hot pages (meta,
// roots, branches) come back with the first reads after a trim.
//
// The trim runs inside a read transaction: bbolt remaps its file (a
// munmap and a new mmap, when the file outgrows the mapping) only under
// an exclusive lock that every read transaction holds shared, so the
// range advised is bbolt's mapping for the whole call, never memory
// mapped since at the same address. The range is the transaction's
// snapshot of the file (Tx.Size: every page up to its high-water mark,
// inside the mapping). The measure is /proc/self/statm's resident shared
// pages (RssFile + RssShmem), read at offset 0 of a file kept open (one
// pread), after every transaction: a read of a few microseconds against a
// commit's fsync of milliseconds. Elsewhere than Linux the limit does
// nothing.

// DefaultMappedLimit is Options.MappedLimit's default: how far the
// process's resident file-backed memory may grow above where the last
// trim (or Open) left it before the store trims its mapping. At 100,000
// live games it keeps the daemon's peak RSS near 217 MB (448 MB
// untrimmed; referee bench --no-mail --bulk --sizes 100000).
const DefaultMappedLimit = 128 << 20

// mapping keeps the process's file-backed resident memory under a limit.
type mapping struct {
	limit int64 // bytes; 0: never trim
	// floor is the resident file-backed memory after the last trim (or
	// at open): the limit is on the growth above it.
	floor atomic.Int64
	// trimming: a trim is under way (one at a time); trims counts them.
	trimming atomic.Bool
	trims    atomic.Int64
	statm    *statmFile
}

func newMapping(limit int64) *mapping {
	m := &mapping{limit: limit}
	if limit > 0 {
		m.statm = openStatm()
		n, ok := m.statm.shared()
		if !ok {
			m.limit = 0 // not Linux, or no /proc: nothing to measure
		}
		m.floor.Store(n)
	}
	return m
}

// over reports whether the resident file-backed memory grew past the
// limit.
func (m *mapping) over() bool {
	if m.limit <= 0 {
		return false
	}
	n, ok := m.statm.shared()
	return ok && n-m.floor.Load() > m.limit
}

// trimIn drops the pages of the mapping from the process when the limit
// is passed, tx being an open read transaction (it keeps bbolt from
// remapping; see above). Safe for concurrent use: one trim at a time.
func (m *mapping) trimIn(tx *bolt.Tx) {
	if !m.over() || !m.trimming.CompareAndSwap(false, true) {
		return
	}
	defer m.trimming.Store(false)
	if dropMapped(tx.DB().Info().Data, tx.Size()) == nil {
		m.trims.Add(1)
	}
	if n, ok := m.statm.shared(); ok {
		m.floor.Store(n)
	}
}

// trimAfter checks after a write transaction (from outside it: a new
// read transaction holds the mapping while the trim runs).
func (db *DB) trimAfter() {
	if db.mapped.over() {
		_ = db.bolt.View(func(tx *bolt.Tx) error {
			db.mapped.trimIn(tx)
			return nil
		})
	}
}

// MapTrims reports how many times the store dropped its mapping's pages
// from the process (Options.MappedLimit).
func (db *DB) MapTrims() int64 { return db.mapped.trims.Load() }
