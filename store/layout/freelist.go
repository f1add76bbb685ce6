package layout

import (
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// The free list (issue 25: 100,000 live games under 300 MB, and the bytes
// written per move).
//
// bbolt keeps the list of its free pages either on file, rewritten by
// every commit (several pages of every commit in a store with many free
// pages), or nowhere (NoFreelistSync), and then rebuilds it at open by
// walking every page of the file, which maps the whole file in: 1.5 GB of
// resident memory at 100,000 games, for as long as the process runs.
//
// The store takes the best of both: its commits do not write the free
// list, the store's Close writes it once (one commit), and Open reads it
// from there.
// Only after a crash (no Close) does Open walk the pages; it then writes
// the list at once and opens the file again, so that the walk's pages
// leave the process with the first mapping (a fresh mapping holds only
// the pages read since). A crash between Open and Close loses nothing:
// the first commit after Open marks the list on file as stale (bbolt
// frees its page), and the next Open walks.

// Open opens the bbolt file at path with the caller's options (Timeout,
// NoSync, InitialMmapSize, PageSize) and the free list's. walked reports
// that the file had no free list on record and was walked.
func Open(path string, o bolt.Options) (b *bolt.DB, walked bool, err error) {
	open := func() (*bolt.DB, error) {
		// NoFreelistSync false at open: when the file has no free list,
		// bbolt rebuilds it and writes it in a commit of its own (counted
		// in its write figures, which is how a walk is seen).
		bo := o
		bo.FreelistType = bolt.FreelistMapType
		b, err := bolt.Open(path, 0o600, &bo)
		if err != nil {
			if errors.Is(err, berrors.ErrTimeout) {
				return nil, fmt.Errorf("%w: %s", ErrLocked, path)
			}
			return nil, fmt.Errorf("store: open %s: %w", path, err)
		}
		return b, nil
	}
	if b, err = open(); err != nil {
		return nil, false, err
	}
	if st := b.Stats(); st.TxStats.GetWrite() > 0 {
		walked = true
		if err := b.Close(); err != nil {
			return nil, true, fmt.Errorf("store: close %s after rebuilding its free list: %w", path, err)
		}
		if b, err = open(); err != nil {
			return nil, true, err
		}
	}
	// From now on no commit writes the free list (set before the DB is
	// shared: bbolt reads the field in Commit, under its writer lock).
	b.NoFreelistSync = true
	return b, walked, nil
}
