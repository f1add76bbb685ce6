package store

import (
	"sync"

	bolt "go.etcd.io/bbolt"
)

// The stale wake-up keys, kept in memory (2026-12-07, issue 25: the
// daemon's ticker runs after every commit, and its questions, TickWakes
// and NextWake, read each key's game beside the log to tell a stale key
// from a live one: up to ~770 point reads a kick in a "wake" of more than
// one leaf). The set is built by the first read transaction that asks
// (DueWakes, NextWake, StaleWakes: one read a key of "wake"; Open reads
// none, issue 25: 0.3-0.4 s at 100,000 games) and kept by the commits
// that change it: each write transaction records the keys it made stale
// and those it made live again or deleted (SetWake, DropStaleWakes), and
// its commit hands them to the set, in the order of the commits (bbolt
// runs a commit's handlers after it lets the next writer in, so a later
// commit's may come first: it waits for the one before). A build reads
// the state of its transaction: the commits after it that hand their
// changes over while it reads wait for it, and a state older than a
// commit handed over already is never built (the next reader builds).
// A transaction uses the set only when the set is of the very state it
// reads (its snapshot's transaction id; a writer's, the one before its
// own, plus what it changed itself); otherwise (a snapshot older or
// newer than the set, a set not built) it reads as before. Nothing is
// woken or dropped by the set that the reads would not wake or drop
// (TestStaleWakeKeysLeftForTheTick_Issue25 checks the set against the
// reference after every step; TestStaleSetBuiltWhileCommitsHandOver_Issue25
// a build with commits on both sides of it).

// staleSet is the DB's set of stale wake-up keys.
type staleSet struct {
	sync.Mutex
	// keys are the stale keys of "wake" as committed by transaction at
	// (at 0: no set, the reads answer; keys nil and at set: a build of
	// the state at runs).
	keys map[string]struct{}
	at   uint64
	// later are the changes of commits that came before the one after
	// at (or during a build), by transaction id.
	later map[uint64]map[string]bool
	// handed is the last commit handed over: a state before it is never
	// built (its changes would be missed).
	handed uint64
	// builds numbers the builds begun (a build dropped is not kept).
	builds uint64
}

// staleLater bounds the commits whose changes wait for an earlier one: a
// commit that never hands its changes over (a write outside Update and
// Commit) leaves the set behind, the set is dropped, and the next reader
// that asks builds it again.
const staleLater = 64

// needStale builds the set in a read transaction that asks about stale
// keys when there is none (the first tick after Open, or after a drop).
func (tx *Tx) needStale() {
	if tx.db == nil || tx.spec != nil || tx.tx.Writable() {
		return
	}
	s := &tx.db.stale
	at := uint64(tx.tx.ID())
	s.Lock()
	if s.at != 0 || s.handed > at {
		s.Unlock()
		return
	}
	s.at, s.keys, s.later = at, nil, map[uint64]map[string]bool{}
	s.builds++
	build := s.builds
	s.Unlock()
	keys, read := map[string]struct{}{}, false
	defer func() { s.built(build, keys, read) }()
	if tx.db.staleReading != nil {
		tx.db.staleReading()
	}
	c := tx.bucket(bWake).Cursor()
	for k, _ := c.First(); k != nil && k[0] != wakeByPrefix; k, _ = c.Next() {
		if !tx.wakeLive(k) {
			keys[string(k)] = struct{}{}
		}
	}
	read = true
}

// built keeps the keys a build read (all of them: read), and applies
// the changes of the commits handed over while it read, in order.
func (s *staleSet) built(build uint64, keys map[string]struct{}, read bool) {
	s.Lock()
	defer s.Unlock()
	if s.builds != build || s.keys != nil || s.at == 0 {
		return
	}
	if !read {
		s.drop()
		return
	}
	s.keys = keys
	if next, ok := s.later[s.at+1]; ok {
		delete(s.later, s.at+1)
		s.apply(s.at+1, next)
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
			return
		}
		s.later[id] = changed
		return
	}
	s.apply(id, changed)
}

// apply applies the changes of commit id, the one after at, and those
// of the commits after it that wait.
func (s *staleSet) apply(id uint64, changed map[string]bool) {
	for {
		for k, stale := range changed {
			if stale {
				s.keys[k] = struct{}{}
			} else {
				delete(s.keys, k)
			}
		}
		s.at = id
		id++
		next, ok := s.later[id]
		if !ok {
			return
		}
		delete(s.later, id)
		changed = next
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
