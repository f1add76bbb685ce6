package store

import (
	"sync"

	bolt "go.etcd.io/bbolt"
)

// The stale wake-up keys, kept in memory (store/doc.go "Stale wake-up
// keys"): built by the first read transaction that asks (needStale),
// kept by the commits in their order (bbolt runs a commit's handlers
// after it lets the next writer in: a later commit's wait for the one
// before, and so do those handed over while a build reads); used by a
// transaction only when it is of the very state it reads.

// staleSet is the DB's set of stale wake-up keys.
type staleSet struct {
	sync.Mutex
	// keys are the stale keys of "wake" as committed by transaction at
	// (at 0: no set; keys nil, at set: a build of that state reads).
	keys map[string]struct{}
	at   uint64
	// later are the changes of commits after at+1 (or during a build),
	// by id; handed the last commit handed over (no older state built).
	later  map[uint64]map[string]bool
	handed uint64
}

// staleLater bounds the commits waiting for an earlier one that may never
// hand over (a write outside Update and Commit): the set is dropped.
const staleLater = 64

// needStale builds the set, in a read transaction, when there is none.
func (tx *Tx) needStale() {
	if tx.db == nil || tx.spec != nil || tx.tx.Writable() {
		return
	}
	s, at := &tx.db.stale, uint64(tx.tx.ID())
	s.Lock()
	if s.at != 0 || s.handed > at {
		s.Unlock()
		return
	}
	s.at, s.keys, s.later = at, nil, map[uint64]map[string]bool{}
	s.Unlock()
	keys, read := map[string]struct{}{}, false
	defer func() { s.built(keys, read) }()
	if h := tx.db.staleReading; h != nil {
		h()
	}
	c := tx.bucket(bWake).Cursor()
	for k, _ := c.First(); k != nil && k[0] != wakeByPrefix; k, _ = c.Next() {
		if !tx.wakeLive(k) {
			keys[string(k)] = struct{}{}
		}
	}
	read = true
}

// built keeps the keys a build read (all: read), then the commits since.
func (s *staleSet) built(keys map[string]struct{}, read bool) {
	s.Lock()
	defer s.Unlock()
	if s.keys = keys; !read {
		s.drop()
	} else {
		s.apply(s.at, nil)
	}
	if len(s.later) >= staleLater {
		s.drop()
	}
}

// drop gives the set up: the reads answer until the next build.
func (s *staleSet) drop() { s.keys, s.at, s.later = nil, 0, nil }

// committed applies the changes of the write transaction id (true: the
// key is stale, false: it is not), once those of every one before it are.
func (s *staleSet) committed(id uint64, changed map[string]bool) {
	s.Lock()
	defer s.Unlock()
	s.handed = max(s.handed, id)
	if s.at == 0 || id <= s.at {
		return
	}
	if id > s.at+1 || s.keys == nil {
		if s.keys != nil && len(s.later) >= staleLater {
			s.drop()
		} else {
			s.later[id] = changed
		}
		return
	}
	s.apply(id, changed)
}

// apply applies the changes of commit id (at or the one after it), then
// those of the commits after it that wait.
func (s *staleSet) apply(id uint64, changed map[string]bool) {
	for ok := true; ok; id++ {
		for k, stale := range changed {
			if stale {
				s.keys[k] = struct{}{}
			} else {
				delete(s.keys, k)
			}
		}
		s.at = id
		changed, ok = s.later[id+1]
		delete(s.later, id+1)
	}
}

// stale answers whether a key is stale in the state committed by
// transaction at; known is false when the set is not of that state.
func (s *staleSet) stale(at uint64, k []byte) (stale, known bool) {
	s.Lock()
	defer s.Unlock()
	if s.keys == nil || s.at != at {
		return false, false
	}
	_, stale = s.keys[string(k)]
	return stale, true
}

// writeTx makes the Tx of a write transaction of Update or Commit: its
// commit is counted (WriteStats) and hands the stale keys it changed to
// the set.
func (db *DB) writeTx(btx *bolt.Tx) *Tx {
	tx := &Tx{tx: btx, db: db}
	id := uint64(btx.ID())
	btx.OnCommit(func() {
		db.group.counted(tx)
		db.stale.committed(id, tx.staleChanged)
	})
	return tx
}

// markStale records that a key of "wake" is now stale (or, false, live
// or gone) in this write transaction.
func (tx *Tx) markStale(k []byte, stale bool) {
	if tx.staleChanged == nil {
		tx.staleChanged = map[string]bool{}
	}
	tx.staleChanged[string(k)] = stale
}

// isStale reports whether a key of "wake" (8-byte time + game) is stale:
// by the set when it is of the state tx reads, else by its game's key.
func (tx *Tx) isStale(k []byte) bool {
	if stale, ok := tx.staleChanged[string(k)]; ok {
		return stale
	}
	if tx.db != nil {
		at := uint64(tx.tx.ID())
		if tx.tx.Writable() {
			at--
		}
		if stale, known := tx.db.stale.stale(at, k); known {
			return stale
		}
	}
	return !tx.wakeLive(k)
}
