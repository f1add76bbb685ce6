package store

import (
	"sort"
	"time"

	bolt "go.etcd.io/bbolt"
)

// WriteStats are the store's write figures since it was opened: the
// write transactions committed (Update, Group and Commit, grouped ones
// counting once), the time spent writing them to disk, fsyncs included
// (bbolt's own count), the bytes written to the file (every page a commit
// writes: bbolt's page allocations, which hold the changed leaves, the
// branches above them and the freelist, plus one meta page per commit),
// and the bytes of data those commits added: log entries and queued
// payloads with their item rows (the figure the disk bytes are held to,
// issue 25: within 4x). The bench reports them per input (issue 13.5).
type WriteStats struct {
	Commits   int64
	WriteTime time.Duration
	// DiskBytes is what the commits wrote to the file.
	DiskBytes int64
	// DataBytes is the log entries and queue rows the commits added.
	DataBytes int64
}

// WriteStats returns the store's write figures.
func (db *DB) WriteStats() WriteStats {
	st := db.bolt.Stats()
	n := db.group.commits.Load()
	return WriteStats{Commits: n, WriteTime: st.TxStats.GetWriteTime(),
		DiskBytes: st.TxStats.GetPageAlloc() + n*int64(db.bolt.Info().PageSize), DataBytes: db.group.data.Load()}
}

// Sub returns the figures from an earlier reading o to s.
func (s WriteStats) Sub(o WriteStats) WriteStats {
	return WriteStats{Commits: s.Commits - o.Commits, WriteTime: s.WriteTime - o.WriteTime,
		DiskBytes: s.DiskBytes - o.DiskBytes, DataBytes: s.DataBytes - o.DataBytes}
}

// BucketRoots returns the root page of every bucket of the layout (at
// the top level and in rest: store/layout/schema10.go), and a
// release that must be called after the next reading: until then the
// pages read stay in use (a read transaction is held), so that no commit
// reuses them (open the store with an InitialMmapSize the file will not
// outgrow: a commit that remaps waits for that transaction). A commit that writes to a bucket gives it a new root page
// (copy on write), so comparing two readings names the buckets the
// commits between them touched (the bench's figures per bucket, issue 25).
func (db *DB) BucketRoots() (map[string]uint64, func()) {
	out := map[string]uint64{}
	tx, err := db.bolt.Begin(false)
	if err != nil {
		return out, func() {}
	}
	eachBucket(tx, func(name []byte, b *bolt.Bucket) error {
		out[string(name)] = uint64(b.Root())
		return nil
	})
	return out, func() { tx.Rollback() }
}

// Touched returns the buckets whose root page differs from one reading
// of BucketRoots to another.
func Touched(before, after map[string]uint64) []string {
	var out []string
	for name, r := range after {
		if before[name] != r {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
