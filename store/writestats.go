package store

import "time"

// WriteStats are the store's write figures since it was opened: the
// write transactions committed (Update, Group and Commit, grouped ones
// counting once) and the time spent writing them to disk, fsyncs included
// (bbolt's own count). The bench reports them per input (issue 13.5).
type WriteStats struct {
	Commits   int64
	WriteTime time.Duration
}

// WriteStats returns the store's write figures.
func (db *DB) WriteStats() WriteStats {
	st := db.bolt.Stats()
	return WriteStats{Commits: db.group.commits.Load(), WriteTime: st.TxStats.GetWriteTime()}
}
