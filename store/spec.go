package store

import (
	"bytes"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/pbem-referee/referee/store/group"
	bolt "go.etcd.io/bbolt"
)

// ErrConflict: a speculation read something that changed before it could
// be committed (or read what it cannot check); run the work again in a
// write transaction.
var ErrConflict = errors.New("store: speculation conflicts with a later commit")

// Spec is a unit of work run on a snapshot, outside the write lock (issue
// 13.3: the referee renders and composes its mails there, so concurrent
// games no longer queue behind one another's templates). Its reads are
// recorded, key by key, and its writes kept; Commit replays the writes in
// a write transaction if every value read is still the same, and fails
// with ErrConflict otherwise. Only a few methods are speculative: the
// reads Game, Seen, Token, Player, Ruleset, GameTournament, Log and
// LogLen, and the writes AppendLog, PutGame, SetWake, PutVERP, Enqueue
// and MarkInbound. Any other access makes the speculation "wide": it can
// still run (reads see the snapshot; writes fail as in a read-only
// transaction) but it never commits.
type Spec struct {
	reads map[string]specRead
	logs  map[string]*specLog
	games map[string][]byte
	// stamps are the stored values of the games put (Tx.GameStamp), and
	// snaps the snapshots they were encoded against when new.
	stamps map[string][]byte
	snaps  map[string][]byte
	ops    []func(tx *Tx) error
	wide   bool
}

type specRead struct {
	bucket, key []byte
	present     bool
	value       []byte
}

// specLog is a game's log as the speculation sees it: the length in the
// snapshot (checked at commit) and the entries appended since.
type specLog struct {
	base    uint64
	entries [][]byte
}

func newSpec() *Spec {
	return &Spec{reads: map[string]specRead{}, logs: map[string]*specLog{}, games: map[string][]byte{}, stamps: map[string][]byte{}, snaps: map[string][]byte{}}
}

// Wide reports whether the speculation did something it cannot commit.
func (s *Spec) Wide() bool { return s.wide }

// Speculating reports whether tx is a speculation's (see Spec).
func (tx *Tx) Speculating() bool { return tx.spec != nil }

// Wide reports whether tx is a speculation's that can no longer commit
// (the caller may stop early).
func (tx *Tx) Wide() bool { return tx.spec != nil && tx.spec.wide }

// Speculate runs fn on a snapshot of the store (a read transaction, no
// write lock): see Spec. fn's error is returned as it is.
func (db *DB) Speculate(fn func(tx *Tx) error) (*Spec, error) {
	s := newSpec()
	err := db.bolt.View(func(btx *bolt.Tx) error {
		defer trimIn(db.mapped, btx)
		return fn(&Tx{tx: btx, db: db, spec: s})
	})
	return s, err
}

// Commit applies a speculation in one write transaction: if a value it
// read changed since its snapshot, or it was wide, or check (run inside
// the transaction, before the writes; nil for none) returns false, it
// writes nothing and returns ErrConflict.
//
// Commits are grouped: the speculations that arrive while a commit is
// being written (its fsync) are committed together in the next
// transaction, one after the other, each checked against what the ones
// before it wrote; a conflict drops that one only. An error of the store
// fails the whole group (nothing of it is written).
func (db *DB) Commit(s *Spec, check func() bool) error {
	return db.group.Enqueue(groupWork{s: s, check: check}, false)
}

// LaterWithin bounds how long a GroupLater call waits for a commit to
// ride in before it has one written for it.
const LaterWithin = group.LaterWithin

// GroupLater is Group for writes that need not be durable at once (a
// delivery's outcome, issue 25): fn rides in the next group that another
// caller's commit starts, and only when none starts within LaterWithin
// (or Hurry is called) is a group written for it. It returns, like
// Group, when the transaction that holds fn's writes is committed. What
// waits meanwhile is the caller's to bound: the writes are lost if the
// process dies before.
func (db *DB) GroupLater(fn func(tx *Tx) error) error {
	return db.group.Enqueue(groupWork{fn: fn}, true)
}

// Hurry has the commits waiting in GroupLater written now, in a group of
// their own unless one is being written (they then ride in the next), on
// a goroutine of the store's own: it does not wait for them.
func (db *DB) Hurry() { db.group.Hurry() }

// commitGroup gathers the speculations waiting for a commit (store/group).
type commitGroup struct {
	group.Group[groupWork]
	// commits counts every write transaction committed, data the log
	// entries and queue rows they wrote (WriteStats).
	commits atomic.Int64
	data    atomic.Int64
}

func (g *commitGroup) counted(tx *Tx) {
	g.commits.Add(1)
	g.data.Add(tx.data)
}

// groupWork is a commit's: a speculation and its check, or fn, for Group, run
// in the transaction instead.
type groupWork struct {
	s     *Spec
	check func() bool
	fn    func(tx *Tx) error
}

// Group runs fn in a write transaction like Update, but grouped with the
// concurrent Group and Commit calls: those that arrive while a commit is
// being written (its fsync) share the next transaction, so that n small
// updates cost one commit instead of n. It returns when the transaction
// that holds fn's writes is committed (durable as with Update), or fn's
// error. A failing fn fails alone: its group is rolled back and written
// again without it, so fn may run more than once and must do nothing but
// read and write the store and set its own results.
func (db *DB) Group(fn func(tx *Tx) error) error { return db.group.Enqueue(groupWork{fn: fn}, false) }

// writeGroup writes a group of commits in one transaction (store/group:
// Group.Write): a Group function that fails is the one failed, a
// speculation that conflicts fails alone and writes nothing.
func (db *DB) writeGroup(batch []*group.Commit[groupWork]) (failed *group.Commit[groupWork], err error) {
	err = db.commit(func(btx *bolt.Tx) error {
		tx := db.writeTx(btx)
		for _, c := range batch {
			if c.Work.fn != nil {
				if c.Err = c.Work.fn(tx); c.Err != nil {
					failed = c
					return c.Err
				}
				continue
			}
			c.Err = tx.apply(c.Work.s, c.Work.check)
			if c.Err != nil && !errors.Is(c.Err, ErrConflict) {
				return c.Err
			}
		}
		return tx.flushCounts()
	})
	return failed, err
}

// MeasureGroupCPU has the store count the CPU time of the groups of
// commits it writes on goroutines of its own (the groups that arrive
// while another is being written: Commit, Group), which no caller's
// thread sees: threadCPU reads the calling thread's CPU time (the
// bench's, RUSAGE_THREAD), and the goroutine is locked to its thread
// while it writes. nil stops counting. GroupCPU reports the sum.
func (db *DB) MeasureGroupCPU(threadCPU func() time.Duration) { db.group.MeasureCPU(threadCPU) }

// GroupCPU is the CPU time counted since MeasureGroupCPU was called: the
// groups written on the store's own goroutines, whoever's commits they
// held (the referee's, the senders' delivery records).
func (db *DB) GroupCPU() time.Duration { return db.group.CPU() }

// apply checks a speculation against the transaction and replays its
// writes.
func (tx *Tx) apply(s *Spec, check func() bool) error {
	if s.wide {
		return fmt.Errorf("%w: an access that cannot be checked", ErrConflict)
	}
	for _, r := range s.reads {
		b := tx.bucket(r.bucket)
		var v []byte
		if b != nil {
			v = getValue(b, r.key)
		}
		if (v != nil) != r.present || !bytes.Equal(v, r.value) {
			return fmt.Errorf("%w: %s %q changed", ErrConflict, r.bucket, r.key)
		}
	}
	for game, l := range s.logs {
		if n := tx.logSeq(game); n != l.base {
			return fmt.Errorf("%w: the log of %s grew", ErrConflict, game)
		}
	}
	if check != nil && !check() {
		return fmt.Errorf("%w: checked by the caller", ErrConflict)
	}
	for _, op := range s.ops {
		if err := op(tx); err != nil {
			return err
		}
	}
	return nil
}

// get reads a key (recording it in a speculation).
func (tx *Tx) get(bucket, key []byte) []byte {
	var v []byte
	if b := tx.bucket(bucket); b != nil {
		v = getValue(b, key)
	}
	if s := tx.spec; s != nil {
		k := string(bucket) + "\x00" + string(key)
		if _, ok := s.reads[k]; !ok {
			s.reads[k] = specRead{bucket: bucket, key: bytes.Clone(key), present: v != nil, value: bytes.Clone(v)}
		}
	}
	return v
}

// logSeq is the last sequence number of a game's stored log.
func (tx *Tx) logSeq(game string) uint64 {
	return lastLogSeq(tx.bucket(bLogFlat), game)
}

// specLog returns the speculation's view of a game's log.
func (tx *Tx) specLog(game string) *specLog {
	l := tx.spec.logs[game]
	if l == nil {
		l = &specLog{base: tx.logSeq(game)}
		tx.spec.logs[game] = l
	}
	return l
}

func (tx *Tx) specAppendLog(game string, entry []byte) (uint64, error) {
	l := tx.specLog(game)
	l.entries = append(l.entries, bytes.Clone(entry))
	seq := l.base + uint64(len(l.entries))
	tx.spec.ops = append(tx.spec.ops, func(tx *Tx) error {
		got, err := tx.AppendLog(game, entry)
		if err == nil && got != seq {
			err = fmt.Errorf("%w: log entry %d of %s written as %d", ErrConflict, seq, game, got)
		}
		return err
	})
	return seq, nil
}

// specPutGame keeps a game's record and the values encoded for it: the
// snapshot they were encoded against was read through get, so the commit
// writes them only if it is still the one stored.
func (tx *Tx) specPutGame(id string, rec, val, snap []byte, e gameEncoding) error {
	tx.spec.games[id] = rec
	tx.spec.stamps[id] = val
	var stored []byte
	if snap != nil {
		tx.spec.snaps[id] = snap
		stored = encodeSnap(snap) // compressed here, outside the write lock
	}
	tx.spec.ops = append(tx.spec.ops, func(tx *Tx) error { return tx.writeGame(id, val, snap, stored, e) })
	return nil
}

func (tx *Tx) specOp(op func(tx *Tx) error) error {
	tx.spec.ops = append(tx.spec.ops, op)
	return nil
}

func (tx *Tx) specSetWake(game string, at time.Time) error {
	return tx.specOp(func(tx *Tx) error { return tx.SetWake(game, at) })
}
