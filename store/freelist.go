package store

import (
	"errors"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// The free list: the store's commits do not write it, Close writes it
// once, and Open reads it from there (store/layout/freelist.go).

// Close writes the free list (so that the next Open need not walk the
// file) and closes the file. A store that committed nothing since Open
// has its free list on file already (Open saw to it) and writes nothing.
func (db *DB) Close() error {
	var err error
	if st := db.bolt.Stats(); st.TxStats.GetWrite() > 0 {
		err = db.bolt.Update(func(*bolt.Tx) error {
			db.bolt.NoFreelistSync = false // read by this commit, under the writer lock
			return nil
		})
		if errors.Is(err, berrors.ErrDatabaseNotOpen) {
			err = nil
		}
	}
	if cerr := db.bolt.Close(); err == nil {
		err = cerr
	}
	db.mapped.Close()
	return err
}

// OpenWalked reports whether Open found no free list on file (the store
// was not closed: a crash) and rebuilt it by walking every page.
func (db *DB) OpenWalked() bool { return db.walked }
