package tourrec

// Reading a tournament's record: decoded from the whole record and its
// match records, kept decoded by the store for the pages and for the
// next batch of a round opening.

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
)

// WakePrefix marks a tournament's entry in the store's wake index (game
// ids never hold a colon).
const WakePrefix = "t:"

// Records are the store's tournament records of one unit of work (one
// transaction), as this package reads and writes them: a subset of
// bymail.Records.
type Records interface {
	Tournament(id string) ([]byte, error)
	// PutTournament writes a tournament's whole record and deletes its
	// match records (the record holds them).
	PutTournament(id string, rec []byte) error
	// PutTournamentMatch writes one match's record; TournamentMatches
	// reads a tournament's, in round and match order.
	PutTournamentMatch(id string, round, match int, rec []byte) error
	TournamentMatches(id string, fn func(round, match int, rec []byte) error) error
	SetWake(key string, at time.Time) error
	Wake(key string) time.Time
}

// Load decodes tournament id (its record and match records), its shape
// not read (a draw outside the lock, a page, the core's read).
func Load(tx Records, id string) (*tournament.Tournament, error) {
	t, _, _, err := decodeTour(tx, id)
	return t, err
}

// LoadShaped decodes tournament id from its record and its match records
// (Overlay), and reads its shape off the bytes decoded (ShapeOf).
func LoadShaped(tx Records, id string) (*tournament.Tournament, *Shape, error) {
	t, raw, over, err := decodeTour(tx, id)
	if err != nil {
		return nil, nil, err
	}
	return t, ShapeOf(raw, t, over), nil
}

// decodeTour decodes tournament id from its record (raw, as read) and
// its match records laid over it (over: Overlay).
func decodeTour(tx Records, id string) (t *tournament.Tournament, raw []byte, over map[[2]int][]byte, err error) {
	raw, err = tx.Tournament(id)
	if err != nil {
		return nil, nil, nil, err
	}
	t = &tournament.Tournament{}
	if err := json.Unmarshal(raw, t); err != nil {
		return nil, nil, nil, fmt.Errorf("tournament %s: %w", id, err)
	}
	if over, err = Overlay(tx, t); err != nil {
		return nil, nil, nil, err
	}
	return t, raw, over, nil
}

// pageTours are the store's decoded tournaments for the public pages
// (store.Tx.PageTournament): shared, read only.
type pageTours interface {
	PageTournament(id string) (any, bool)
	KeepPageTournament(id string, rec []byte, v any)
}

// ForPage returns tournament id for a public page, to read and never
// change: as the store keeps it decoded for the pages while its record
// and match records are the ones it was decoded from, else decoded now
// and kept so (issue 24: every page decoded the whole record, 85,000
// allocations at 5,000 entrants; bymail's
// TestPagesShareTheDecodedTournament_Issue24). Every page's data is made
// without changing the tournament it reads.
func ForPage(tx Records, id string) (*tournament.Tournament, error) {
	pt, ok := tx.(pageTours)
	if !ok {
		return Load(tx, id)
	}
	if v, ok := pt.PageTournament(id); ok {
		if t, ok := v.(*tournament.Tournament); ok {
			return t, nil
		}
	}
	t, raw, _, err := decodeTour(tx, id)
	if err != nil {
		return nil, err
	}
	pt.KeepPageTournament(id, raw, t)
	return t, nil
}

// decodedTours are the store's decoded tournaments (the core's records
// have them; store.Tx.TakeDecodedTournament): a round opening in batches
// decodes its tournament once, not once a batch (issue 24).
type decodedTours interface {
	TakeDecodedTournament(id string) (any, bool)
	KeepDecodedTournament(id string, rec []byte, v any) error
}

// Decoded is a tournament kept decoded with its shape.
type Decoded struct {
	T *tournament.Tournament
	S *Shape
}

// KeepDecoded keeps t, as this unit of work leaves it (shape s; its
// whole record as stored s.stored, overlaid with its match records now),
// for the next unit of work (store.Tx.KeepDecodedTournament).
func KeepDecoded(rec Records, t *tournament.Tournament, s *Shape) error {
	if dt, ok := rec.(decodedTours); ok && s != nil {
		return dt.KeepDecodedTournament(t.ID, s.stored, &Decoded{t, s})
	}
	return nil
}

// TakeDecoded is tournament id as the unit of work before kept it
// decoded (KeepDecoded), with its shape; ok false when none was kept.
func TakeDecoded(rec Records, id string) (*Decoded, bool) {
	if dt, ok := rec.(decodedTours); ok {
		if v, ok := dt.TakeDecodedTournament(id); ok {
			dec, ok := v.(*Decoded)
			return dec, ok
		}
	}
	return nil, false
}
