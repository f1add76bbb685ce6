package store

import (
	"sync"

	bolt "go.etcd.io/bbolt"
)

// The stale wake-up keys, kept in memory (2026-12-07, issue 25: the
// daemon's ticker runs after every commit, and its questions, TickWakes
// and NextWake, read each key's game beside the log to tell a stale key
// from a live one: up to ~770 point reads a kick in a "wake" of more than
// one leaf). The set is built once at Open (one read a key of "wake") and
// kept by the commits that change it: each write transaction records the
// keys it made stale and those it made live again or deleted (SetWake,
// DropStaleWakes), and its commit hands them to the set, in the order of
// the commits (bbolt runs a commit's handlers after it lets the next
// writer in, so a later commit's may come first: it waits for the one
// before). A transaction uses the set only when the set is of the very
// state it reads (its snapshot's transaction id; a writer's, the one
// before its own, plus what it changed itself); otherwise (a snapshot
// older or newer than the set) it reads as before. Nothing is woken or
// dropped by the set that the reads would not wake or drop
// (TestStaleWakeKeysLeftForTheTick_Issue25 checks the set against the
// reference after every step).

// staleSet is the DB's set of stale wake-up keys.
type staleSet struct {
	sync.Mutex
	// keys are the stale keys of "wake" as committed by transaction at
	// (0: no set; the reads answer).
	keys map[string]struct{}
	at   uint64
	// later are the changes of commits that came before the one after
	// at, by transaction id.
	later map[uint64]map[string]bool
}

// staleLater bounds the commits whose changes wait for an earlier one: a
// commit that never hands its changes over (a write outside Update and
// Commit) leaves the set behind for good, and the reads answer.
const staleLater = 64

// build makes the set of the stale keys read in tx (Open's).
func (s *staleSet) build(tx *Tx) {
	keys := map[string]struct{}{}
	c := tx.bucket(bWake).Cursor()
	for k, _ := c.First(); k != nil && k[0] != wakeByPrefix; k, _ = c.Next() {
		if !tx.wakeLive(k) {
			keys[string(k)] = struct{}{}
		}
	}
	s.Lock()
	s.keys, s.at, s.later = keys, uint64(tx.tx.ID()), map[uint64]map[string]bool{}
	s.Unlock()
}

// committed applies the changes of the write transaction id (true: the
// key is stale, false: it is not), once those of every one before it are.
func (s *staleSet) committed(id uint64, changed map[string]bool) {
	s.Lock()
	defer s.Unlock()
	if s.at == 0 || id <= s.at {
		return
	}
	if id > s.at+1 {
		if len(s.later) >= staleLater {
			s.keys, s.at, s.later = nil, 0, nil
			return
		}
		s.later[id] = changed
		return
	}
	for {
		for k, stale := range changed {
			if stale {
				s.keys[k] = struct{}{}
			} else {
				delete(s.keys, k)
			}
		}
		s.at++
		next, ok := s.later[s.at+1]
		if !ok {
			return
		}
		delete(s.later, s.at+1)
		changed = next
	}
}

// stale answers whether a key is stale in the state committed by
// transaction at; known is false when the set is not of that state.
func (s *staleSet) stale(at uint64, k []byte) (stale, known bool) {
	s.Lock()
	defer s.Unlock()
	if s.at == 0 || s.at != at {
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
