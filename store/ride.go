package store

import (
	"sync"
	"sync/atomic"
)

// Rides: the writes of a transport that go into the commit of the input
// they concern (issue 25: one write transaction per player mail at
// intake). A transport that hands an input over (the IMAP watcher: the
// end of the input's intake attempt and its cursor past the message; the
// webhook: the end of the attempt) registers those writes under one of
// the input's de-duplication keys (DB.Ride) before the hand-over. The
// transaction that records the input (Tx.MarkInbound with that key) runs
// them, whoever commits it: Process, a speculation's commit, the
// set-aside paths. Ride.Done says afterwards whether they were committed;
// when not (a duplicate, which writes nothing; an error; a handler that
// does not use the store) the transport writes them itself. The rider
// must not know what the input did, and the input's code never sees the
// rider: the store joins the two at MarkInbound.

// Ride is a transport's writes waiting for the commit of an input.
type Ride struct {
	db        *DB
	key       string
	fn        func(tx *Tx) error
	committed atomic.Bool
}

type rides struct {
	mu sync.Mutex
	m  map[string]*Ride
}

// Ride registers fn to run in the write transaction that records the
// input with de-duplication key key (Tx.MarkInbound), before it commits.
// fn must only write the store (it runs again if that transaction is
// retried). Call Done once the input was handed over.
func (db *DB) Ride(key string, fn func(tx *Tx) error) *Ride {
	r := &Ride{db: db, key: key, fn: fn}
	db.rides.mu.Lock()
	defer db.rides.mu.Unlock()
	if db.rides.m == nil {
		db.rides.m = map[string]*Ride{}
	}
	db.rides.m[key] = r
	return r
}

// Done forgets the ride and reports whether its writes were committed.
func (r *Ride) Done() bool {
	r.db.rides.mu.Lock()
	if r.db.rides.m[r.key] == r {
		delete(r.db.rides.m, r.key)
	}
	r.db.rides.mu.Unlock()
	return r.committed.Load()
}

// Committed reports whether the ride's writes were committed, without
// forgetting it (a transport that hands several inputs over at once reads
// its other rides while they run: imapin's lanes).
func (r *Ride) Committed() bool { return r.committed.Load() }

// ride runs the rides of an input's keys in tx.
func (tx *Tx) ride(keys []string) error {
	if tx.db == nil {
		return nil
	}
	tx.db.rides.mu.Lock()
	var due []*Ride
	for _, k := range keys {
		if r := tx.db.rides.m[k]; r != nil {
			due = append(due, r)
		}
	}
	tx.db.rides.mu.Unlock()
	for _, r := range due {
		if err := r.fn(tx); err != nil {
			return err
		}
		tx.tx.OnCommit(func() { r.committed.Store(true) })
	}
	return nil
}
