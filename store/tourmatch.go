package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// Per-match tournament records (issues 24 and 25: the write path writes
// only what changed). A game's end used to rewrite its tournament's whole
// record (every entrant, every round, every match: at 5,000 entrants the
// largest write of a move); its match's new state is now written alone,
// in "tournaments.matches":
//
//	tournament id NUL round (4-byte big-endian) match (4-byte
//	big-endian) -> the match's record (opaque)
//
// The caller reads a tournament as its record overlaid with its match
// records (TournamentMatches), and a whole record written (PutTournament)
// holds them: it deletes the tournament's match records (the fold). The
// bucket is made by the first match record, so a store without it (an
// older file) reads as having none, and no schema change is needed.
var bTourMatches = []byte("tournaments.matches")

// tourMatchPrefix is the common start of a tournament's match keys.
func tourMatchPrefix(id string) []byte { return append([]byte(id), 0) }

func tourMatchKey(id string, round, match int) []byte {
	k := tourMatchPrefix(id)
	k = binary.BigEndian.AppendUint32(k, uint32(round))
	return binary.BigEndian.AppendUint32(k, uint32(match))
}

// PutTournamentMatch stores the record of one match of a tournament
// (round and match are the caller's indexes), replacing the one before;
// the tournament's next whole record (PutTournament) deletes it.
func (tx *Tx) PutTournamentMatch(id string, round, match int, rec []byte) error {
	if id == "" || round < 0 || match < 0 || uint64(round) > 1<<32-1 || uint64(match) > 1<<32-1 {
		return fmt.Errorf("store: tournament match %q/%d/%d", id, round, match)
	}
	if rec == nil {
		return errors.New("store: empty tournament match record")
	}
	tx.widen()
	b, err := createBucket(tx.tx, bTourMatches)
	if err != nil {
		return err
	}
	return b.Put(tourMatchKey(id, round, match), rec)
}

// TournamentMatches calls fn for every match record of a tournament not
// yet folded into its record, in round and match order.
func (tx *Tx) TournamentMatches(id string, fn func(round, match int, rec []byte) error) error {
	b := tx.b(bTourMatches)
	if b == nil {
		return nil
	}
	prefix := tourMatchPrefix(id)
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		rest := k[len(prefix):]
		if len(rest) != 8 {
			return fmt.Errorf("store: tournament match key %q", k)
		}
		r, m := binary.BigEndian.Uint32(rest), binary.BigEndian.Uint32(rest[4:])
		if err := fn(int(r), int(m), bytes.Clone(v)); err != nil {
			return err
		}
	}
	return nil
}

// deleteTournamentMatches deletes a tournament's match records (its whole
// record now holds them). With none, it writes nothing. After each delete
// the cursor seeks the key it deleted, which lands in that key's leaf: a
// seek to the prefix walked every leaf emptied before it (bbolt merges
// them at the commit), quadratic in the leaves (issue 24: the first batch
// of round 2 of 5,000 games folded 5,000 records in 0.25 s of CPU;
// BenchmarkFoldTournamentMatches_Issue24, TestFoldOfManyLeaves_Issue24).
func (tx *Tx) deleteTournamentMatches(id string) error {
	b := tx.b(bTourMatches)
	if b == nil {
		return nil
	}
	prefix := tourMatchPrefix(id)
	last := make([]byte, 0, len(prefix)+8)
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Seek(last) {
		last = append(last[:0], k...)
		if err := c.Delete(); err != nil {
			return err
		}
	}
	return nil
}
