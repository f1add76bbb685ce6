package store

import (
	"github.com/pbem-referee/referee/store/pagefile"
	bolt "go.etcd.io/bbolt"
)

// The resident mapping (issue 25: 100,000 live games under 300 MB): the
// rule, the measure and the trim are store/pagefile' (Mapping, its doc.go);
// the store trims inside a read transaction, which keeps bbolt from
// remapping its file meanwhile.

// DefaultMappedLimit is Options.MappedLimit's default: how far the
// process's resident file-backed memory may grow above where the last
// trim (or Open) left it before the store trims its mapping. At 100,000
// live games it keeps the daemon's peak RSS near 217 MB (448 MB
// untrimmed; referee bench --no-mail --bulk --sizes 100000).
const DefaultMappedLimit = 128 << 20

// trimIn drops the pages of the mapping from the process when the limit
// is passed, tx being an open read transaction (it keeps bbolt from
// remapping; see above). Safe for concurrent use: one trim at a time.
func trimIn(m *pagefile.Mapping, tx *bolt.Tx) {
	if m.Over() {
		trim(m, tx)
	}
}

// trim drops the pages of the mapping (tx as for trimIn): the range is
// the transaction's snapshot of the file (every page up to its
// high-water mark, inside the mapping).
func trim(m *pagefile.Mapping, tx *bolt.Tx) { m.Trim(tx.DB().Info().Data, tx.Size()) }

// trimAfter checks after a write transaction (from outside it: a new
// read transaction holds the mapping while the trim runs).
func (db *DB) trimAfter() {
	if db.mapped.Over() {
		_ = db.bolt.View(func(tx *bolt.Tx) error {
			trim(db.mapped, tx)
			return nil
		})
	}
}

// MapTrims reports how many times the store dropped its mapping's pages
// from the process (Options.MappedLimit).
func (db *DB) MapTrims() int64 { return db.mapped.Trims() }
