package pagefile

import (
	"sync/atomic"
	"time"
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
// The store bounds it (its Options.MappedLimit, with a Mapping): after a
// transaction, when the process's resident file-backed memory has grown by more
// than the limit since the store last trimmed (or opened), it drops the pages
// of its mapping from the process (madvise MADV_DONTNEED over the mapped file).
// The measure is the growth, not the total, so that what the store does not own
// (the binary's text, another file) neither counts against it nor makes it trim
// at every transaction. Nothing is lost and nothing is read from disk again:
// the mapping is shared and read-only (bbolt writes with pwrite), so the pages
// stay in the kernel's page cache, where they are reclaimable memory and not
// the process's, and a later read maps the page back with a minor fault. The
// hot pages (meta, roots, branches) come back with the first reads after a
// trim.
//
// The store runs the trim inside a read transaction: bbolt remaps its file (a
// munmap and a new mmap, when the file outgrows the mapping) only under
// an exclusive lock that every read transaction holds shared, so the
// range advised is bbolt's mapping for the whole call, never memory
// mapped since at the same address. The range is the transaction's
// snapshot of the file (Tx.Size: every page up to its high-water mark,
// inside the mapping). The measure is /proc/self/statm's resident shared
// pages (RssFile + RssShmem), read at offset 0 of a file kept open (one
// pread). Elsewhere than Linux the limit does nothing.
//
// Rule (issue 25: the statm read off most transactions): the measure is
// read after a transaction only when statmEvery(limit) transactions
// ended since the last reading (the limit over 4 MiB, 1 to 32: every
// transaction at a limit of 4 MiB or less), or statmStep (20 ms) passed
// since it. A small transaction maps a few pages (a game's record, its
// log's tail, the branches to them), so between two readings the
// resident memory grows by at most 32 small transactions' pages past the
// limit (well under 4 MiB against the default 128 MiB), or by what one
// long transaction (a scan) mapped, which takes longer than the step and
// is measured at its end. The reading was one pread per transaction,
// some of them while holding the write lock; in the bench under load a
// third of a millisecond of wall time a player mail
// (store/mapping_test.go, TestStatmReadEveryFewTransactions_Issue25).

// Mapping keeps the process's file-backed resident memory under a limit
// (New, Over, Trim).
type Mapping struct {
	limit int64 // bytes; 0: never trim
	// floor is the resident file-backed memory after the last trim (or
	// at open): the limit is on the growth above it.
	floor atomic.Int64
	// trimming: a trim is under way (one at a time); trims counts them.
	trimming atomic.Bool
	trims    atomic.Int64
	statm    *statmFile
	// every and step say when the measure is read (statmEvery,
	// StatmStep); since counts the transactions ended since the last
	// reading, read when it was (nanoseconds since born) and reads how
	// many readings there were (for tests).
	every       int64
	since, read atomic.Int64
	reads       atomic.Int64
	born        time.Time
}

// StatmStep is the longest time between two readings of the measure
// after transactions (see the rule above).
const StatmStep = 20 * time.Millisecond

// statmEvery is how many transactions may end before the measure is read
// again: one per 4 MiB of the limit, 1 to 32.
func statmEvery(limit int64) int64 {
	return min(max(limit>>22, 1), 32)
}

// New returns the Mapping of a limit in bytes (0 or less: never trim;
// elsewhere than Linux, or without /proc, it never trims either).
func New(limit int64) *Mapping {
	m := &Mapping{limit: limit, every: statmEvery(limit), born: time.Now()}
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

// Over reports, after a transaction, whether the resident file-backed
// memory grew past the limit (it reads the measure only as the rule above
// says: Reads counts the readings).
func (m *Mapping) Over() bool {
	if m.limit <= 0 {
		return false
	}
	now := int64(time.Since(m.born))
	if m.since.Add(1) < m.every && now-m.read.Load() < int64(StatmStep) {
		return false
	}
	m.since.Store(0)
	m.read.Store(now)
	m.reads.Add(1)
	n, ok := m.statm.shared()
	return ok && n-m.floor.Load() > m.limit
}

// Trim drops the pages of the mapping, size bytes at addr, from the
// process, the mapping held in place meanwhile (a read transaction: see
// above). Safe for concurrent use: one trim at a time.
func (m *Mapping) Trim(addr uintptr, size int64) {
	if !m.trimming.CompareAndSwap(false, true) {
		return
	}
	defer m.trimming.Store(false)
	if dropMapped(addr, size) == nil {
		m.trims.Add(1)
	}
	if n, ok := m.statm.shared(); ok {
		m.floor.Store(n)
	}
}

// Trims reports how many trims dropped the mapping's pages.
func (m *Mapping) Trims() int64 { return m.trims.Load() }

// Every reports how many transactions may end before the measure is read
// again (statmEvery), and Reads how many readings there were (tests).
func (m *Mapping) Every() int64 { return m.every }

// Reads: see Every.
func (m *Mapping) Reads() int64 { return m.reads.Load() }

// Close closes the file the measure is read from.
func (m *Mapping) Close() { m.statm.close() }
