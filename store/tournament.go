package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/pbem-referee/referee/store/kept"
	bolt "go.etcd.io/bbolt"
)

// Tournaments live in their own buckets: "tournaments" (id -> record),
// "tournaments.by_game" (game id -> tournament id, so a game's end finds its
// tournament) and "ratings" (game NUL address -> record).
var (
	bTournaments = []byte("tournaments")
	bTourByGame  = []byte("tournaments.by_game")
	bRatings     = []byte("ratings")
)

// migrateTournaments adds the tournament and rating buckets.
func migrateTournaments(tx *bolt.Tx) error {
	for _, b := range [][]byte{bTournaments, bTourByGame, bRatings} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	return nil
}

// Tournament returns the record of a tournament.
func (tx *Tx) Tournament(id string) ([]byte, error) {
	v := tx.b(bTournaments).Get([]byte(id))
	if v == nil {
		return nil, fmt.Errorf("%w: tournament %q", ErrNotFound, id)
	}
	return bytes.Clone(v), nil
}

// PutTournament stores the whole record of a tournament. The record holds
// its matches as they are: the tournament's match records
// (PutTournamentMatch, tourmatch.go) are deleted (folded into it).
func (tx *Tx) PutTournament(id string, rec []byte) error {
	if id == "" {
		return errors.New("store: empty tournament id")
	}
	if err := tx.b(bTournaments).Put([]byte(id), rec); err != nil {
		return err
	}
	return tx.deleteTournamentMatches(id)
}

// HasTournament reports whether a tournament exists.
func (tx *Tx) HasTournament(id string) bool { return tx.b(bTournaments).Get([]byte(id)) != nil }

// Tournaments calls fn for every tournament, in id order.
func (tx *Tx) Tournaments(fn func(id string, rec []byte) error) error {
	return tx.b(bTournaments).ForEach(func(k, v []byte) error { return fn(string(k), bytes.Clone(v)) })
}

// SetGameTournament records that a game is played for a tournament.
func (tx *Tx) SetGameTournament(game, tournament string) error {
	return tx.b(bTourByGame).Put([]byte(game), []byte(tournament))
}

// GameTournament returns the tournament a game is played for ("" none).
func (tx *Tx) GameTournament(game string) string {
	return string(tx.get(bTourByGame, []byte(game)))
}

func ratingKey(game, addr string) []byte { return []byte(game + "\x00" + lowerASCII(addr)) }

// Rating returns a player's rating record in a game.
func (tx *Tx) Rating(game, addr string) ([]byte, error) {
	v := tx.b(bRatings).Get(ratingKey(game, addr))
	if v == nil {
		return nil, fmt.Errorf("%w: rating %s/%s", ErrNotFound, game, addr)
	}
	return bytes.Clone(v), nil
}

// PutRating stores a player's rating record in a game.
func (tx *Tx) PutRating(game, addr string, rec []byte) error {
	if game == "" || addr == "" {
		return errors.New("store: empty rating key")
	}
	return tx.b(bRatings).Put(ratingKey(game, addr), rec)
}

// Ratings calls fn for every rating of a game ("" every game).
func (tx *Tx) Ratings(game string, fn func(game, addr string, rec []byte) error) error {
	c := tx.b(bRatings).Cursor()
	prefix := []byte(nil)
	if game != "" {
		prefix = []byte(game + "\x00")
	}
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		g, a, _ := bytes.Cut(k, []byte{0})
		if err := fn(string(g), string(a), bytes.Clone(v)); err != nil {
			return err
		}
	}
	return nil
}

// Decoded tournaments (issue 24: a round of 5,000 games opens in 20
// batches, each a transaction of its own, and each decoded the whole
// record of 10,000 entrants again: 200 MB and 0.4 s of a START). As
// games' (decoded.go), a decoded tournament is kept once the transaction
// that wrote it commits, and taken out by the next one, which uses it
// only while the tournament is still as written: its whole record the one
// kept and its match records the ones there were when it was kept (a
// batch of a round opening writes its games' matches as match records,
// tourmatch.go); else it decodes the record. The record is its own stamp:
// no copy is made, the bytes compared in place; the match records are
// stamped by a digest of their keys and values.

// tourKept is a decoded tournament kept with the digest of its match
// records (matchesDigest) when it was kept.
type tourKept struct {
	matches [sha256.Size]byte
	v       any
}

// TakeDecodedTournament returns the decoded form kept for tournament
// id's stored record and match records (KeepDecodedTournament) and
// forgets it; ok is false when none is kept for them.
func (tx *Tx) TakeDecodedTournament(id string) (v any, ok bool) {
	tx.widen() // a tournament's records are read outside a speculation's tracking
	if tx.db == nil || tx.db.noDecoded {
		return nil, false
	}
	return tx.keptTour(id, tx.db.tours.Take(id))
}

// keptTour is e's decoded tournament when tournament id is still as it
// was kept (its whole record e's stamp, compared in place, and its match
// records those digested then); ok is false otherwise, or for no e.
func (tx *Tx) keptTour(id string, e *kept.Entry) (v any, ok bool) {
	if e == nil {
		return nil, false
	}
	k, isKept := e.V.(tourKept)
	if !isKept || !bytes.Equal(tx.b(bTournaments).Get([]byte(id)), e.Stamp) || tx.matchesDigest(id) != k.matches {
		return nil, false
	}
	return k.v, true
}

// KeepDecodedTournament keeps v, the decoded form of tournament id as
// this transaction leaves it, once the transaction commits: rec is its
// whole record as stored (the one this transaction put, or the one it
// found there, PutTournament), overlaid with its match records as they
// are now (call it after the last PutTournamentMatch of id). rec must not
// change after.
func (tx *Tx) KeepDecodedTournament(id string, rec []byte, v any) error {
	tx.widen()
	if tx.db == nil || tx.db.noDecoded {
		return nil
	}
	db, k := tx.db, tourKept{matches: tx.matchesDigest(id), v: v}
	tx.tx.OnCommit(func() { db.tours.Put(id, rec, k) })
	return nil
}

// matchesDigest is a digest of tournament id's match records, keys and
// values (that of none when it has none).
func (tx *Tx) matchesDigest(id string) [sha256.Size]byte {
	h := sha256.New()
	if b := tx.b(bTourMatches); b != nil {
		prefix := tourMatchPrefix(id)
		c := b.Cursor()
		var n [8]byte
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			h.Write(k)
			binary.BigEndian.PutUint64(n[:], uint64(len(v)))
			h.Write(n[:])
			h.Write(v)
		}
	}
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}
