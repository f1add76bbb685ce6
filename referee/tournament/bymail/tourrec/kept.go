package tourrec

// The tournaments of one unit of work, decoded once (issue 24: ENTER was
// quadratic, every line of an organiser's mail decoding and encoding the
// whole record: 10,000 ENTER lines took 184 s CPU).

import (
	"encoding/json"
	"sort"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
)

// Kept are the tournaments a unit of work changed, decoded: a command that
// names one again in the same unit of work (the next ENTER line, the next
// game's end) finds it here instead of decoding the record, and the
// records are encoded and written once, by Flush, when the unit of work
// ends. The core keeps one Kept per unit of work (Host.Kept), so a run
// that is rolled back and run again (Host.Undo) starts from the store.
//
// A tournament enters Kept when it is saved (bymail's desk.saveTour), never when
// it is only read: a command that changes a tournament it loaded and then
// fails leaves no trace unless it saved. A tournament found in Kept is
// shared by the rest of the unit of work, so a command that fails after
// it loaded one from Kept may have changed it: Hit is called then (the
// core counts it as a change, and an organiser's line that fails after a
// change is undone and its mail run again without it; undo.go).
//
// Kept also notes how each tournament loaded from the store was (its
// Shape, records.go), so that Flush writes a tournament whose matches
// alone changed as those matches' records, not as its whole record.
type Kept struct {
	tours map[string]*tournament.Tournament
	base  map[string]*Shape
	// batch are the tournaments whose unit of work changed nothing but
	// the games of a batch's matches (noteBatch): Flush encodes those
	// matches, not the whole record (writeBatch).
	batch map[string]Batch
	// Hit is called when a tournament is found in Kept.
	Hit func()
}

// Has reports whether tournament id is kept (Get would find it), without
// counting it found (Hit).
func (k *Kept) Has(id string) bool {
	_, ok := k.tours[id]
	return ok
}

// Base is how tournament id was when this unit of work loaded it (nil:
// not loaded, or it is written whole).
func (k *Kept) Base(id string) *Shape { return k.base[id] }

// Batch is a later batch of a round opening: round index R's matches
// [From, To), the only part of the tournament its unit of work changed.
type Batch struct{ R, From, To int }

// NoteBatch notes that tournament id, loaded by this unit of work and
// kept since, changed only in round r's matches [from, to) (OpenDue, a
// later batch of a round opening). Anything that finds it in Kept after
// (Get) drops the note: the rest of the unit of work may change any part.
func (k *Kept) NoteBatch(id string, b Batch) {
	if k.batch == nil {
		k.batch = map[string]Batch{}
	}
	k.batch[id] = b
}

// Loaded notes how tournament id was loaded from the store (before any
// change): its shape (nil: it is written whole).
func (k *Kept) Loaded(id string, s *Shape) {
	if k.base == nil {
		k.base = map[string]*Shape{}
	}
	k.base[id] = s
}

// Get returns the tournament id kept, or nil.
func (k *Kept) Get(id string) *tournament.Tournament {
	t := k.tours[id]
	if t != nil {
		delete(k.batch, id)
		if k.Hit != nil {
			k.Hit()
		}
	}
	return t
}

// Keep holds t until Flush.
func (k *Kept) Keep(t *tournament.Tournament) {
	if k.tours == nil {
		k.tours = map[string]*tournament.Tournament{}
	}
	k.tours[t.ID] = t
}

// Flush writes the tournaments kept, in the order of their ids, and
// their wake entries (as of now); Kept is then empty. The core calls it
// when the unit of work ends, before its transaction commits. A
// tournament loaded from the store whose matches alone changed (a game's
// result, an adjudication, a forfeit, the ratings kept with a match) is
// written as those matches' records (writeMatches); any other change (a
// round drawn or closed, an entrant, a setting, the status) writes the
// whole record, which folds the match records in.
func (k *Kept) Flush(rec Records, now time.Time) error {
	ids := make([]string, 0, len(k.tours))
	for id := range k.tours {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		t := k.tours[id]
		if b, ok := k.batch[id]; ok && BatchRecords && k.base[id] != nil {
			done, err := writeBatch(rec, t, k.base[id], b, now)
			if err != nil {
				return err
			}
			if done {
				continue
			}
		}
		raw, err := json.Marshal(t) // the one encoding: compared, then written
		if err != nil {
			return err
		}
		var cur *Shape
		if base := k.base[id]; base != nil {
			if cur = ShapeOf(raw, t, nil); cur != nil {
				done, err := writeMatches(rec, t, base, cur, now)
				if err != nil {
					return err
				}
				if done {
					if t.Opening && base.stored != nil {
						// Its whole record is the one loaded; the next
						// batch takes it decoded (store: with these match
						// records).
						cur.stored = base.stored
						if err := KeepDecoded(rec, t, cur); err != nil {
							return err
						}
					}
					continue
				}
			}
		}
		if err := putTour(rec, t, raw, now); err != nil {
			return err
		}
		if t.Opening {
			// The next batch of the round takes it decoded (KeepDecoded).
			if cur == nil {
				cur = ShapeOf(raw, t, nil)
			}
			if err := KeepDecoded(rec, t, cur); err != nil {
				return err
			}
		}
	}
	k.tours, k.base, k.batch = nil, nil, nil
	return nil
}

// Write encodes and writes a tournament's whole record (the store
// deletes its match records: the record holds them) and its wake entry.
func Write(rec Records, t *tournament.Tournament, now time.Time) error {
	raw, err := json.Marshal(t)
	if err != nil {
		return err
	}
	return putTour(rec, t, raw, now)
}

// putTour writes raw, t's whole record, and t's wake entry.
func putTour(rec Records, t *tournament.Tournament, raw []byte, now time.Time) error {
	if err := rec.PutTournament(t.ID, raw); err != nil {
		return err
	}
	return rec.SetWake(WakePrefix+t.ID, t.Wake(now))
}
