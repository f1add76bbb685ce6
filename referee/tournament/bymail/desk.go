package bymail

// The desk's unit of work and the tournament's record (see doc.go).

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
)

// tourWakePrefix marks a tournament's entry in the store's wake index (game
// ids never hold a colon).
const tourWakePrefix = "t:"

// desk is one unit of work of the desk: the host, its records and time.
type desk struct {
	h   Host
	rec Records
	now time.Time
	// repair, set by REPAIR around its opening of the round drawn again,
	// puts the audit line in the round mails (one mail a player, repair.go).
	repair *repairNote
	// batch is the later batch of a round opening openBatch opened, when
	// it changed nothing of the tournament but those matches' games
	// (OpenDue notes it in Kept: Kept.noteBatch).
	batch *batchSpan
	// shaped is the shape OpenDue loaded the tournament with, when this
	// unit of work had not found it before (its standings of the rounds
	// before are kept there: shape.done).
	shaped *shape
}

func newDesk(h Host) *desk { return &desk{h: h, rec: h.Records(), now: h.Now()} }

// loadTour decodes tournament id (its record and match records), its
// shape not read (a draw outside the lock, a page, the core's read).
func loadTour(tx Records, id string) (*tournament.Tournament, error) {
	t, _, _, err := decodeTour(tx, id)
	return t, err
}

// loadShaped decodes tournament id from its record and its match records
// (overlay), and reads its shape off the bytes decoded (shapeOf).
func loadShaped(tx Records, id string) (*tournament.Tournament, *shape, error) {
	t, raw, over, err := decodeTour(tx, id)
	if err != nil {
		return nil, nil, err
	}
	return t, shapeOf(raw, t, over), nil
}

// decodeTour decodes tournament id from its record (raw, as read) and
// its match records laid over it (over: overlay).
func decodeTour(tx Records, id string) (t *tournament.Tournament, raw []byte, over map[[2]int][]byte, err error) {
	raw, err = tx.Tournament(id)
	if err != nil {
		return nil, nil, nil, err
	}
	t = &tournament.Tournament{}
	if err := json.Unmarshal(raw, t); err != nil {
		return nil, nil, nil, fmt.Errorf("tournament %s: %w", id, err)
	}
	if over, err = overlay(tx, t); err != nil {
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

// pageTour returns tournament id for a public page, to read and never
// change: as the store keeps it decoded for the pages while its record
// and match records are the ones it was decoded from, else decoded now
// and kept so (issue 24: every page decoded the whole record, 85,000
// allocations at 5,000 entrants; TestPagesShareTheDecodedTournament_Issue24).
// Every page's data is made without changing the tournament it reads.
func pageTour(tx Records, id string) (*tournament.Tournament, error) {
	pt, ok := tx.(pageTours)
	if !ok {
		return loadTour(tx, id)
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

// decoded is a tournament kept decoded with its shape.
type decoded struct {
	t *tournament.Tournament
	s *shape
}

// keepDecoded keeps t, as this unit of work leaves it (shape s; its whole
// record as stored s.stored, overlaid with its match records now), for
// the next unit of work (store.Tx.KeepDecodedTournament).
func keepDecoded(rec Records, t *tournament.Tournament, s *shape) error {
	if dt, ok := rec.(decodedTours); ok && s != nil {
		return dt.KeepDecodedTournament(t.ID, s.stored, &decoded{t, s})
	}
	return nil
}

// load returns tournament id as this unit of work left it: from Kept,
// else as the unit of work before kept it decoded (the batches of a
// round opening), else decoded from its record and its match records
// (then Kept notes how it was, to write only what changes: Kept.Flush).
func (d *desk) load(id string) (*tournament.Tournament, error) {
	k := d.h.Kept()
	if t := k.get(id); t != nil {
		return t, nil
	}
	if dt, ok := d.rec.(decodedTours); ok {
		if v, ok := dt.TakeDecodedTournament(id); ok {
			if dec, ok := v.(*decoded); ok {
				k.loaded(id, dec.s)
				return dec.t, nil
			}
		}
	}
	t, s, err := loadShaped(d.rec, id)
	if err != nil {
		return nil, err
	}
	k.loaded(id, s)
	return t, nil
}

// saveTour keeps a changed tournament for the rest of the unit of work;
// its record is written when the unit of work ends (Kept.Flush). A new
// tournament's record is written at once, so the commands after it in the
// same mail find it.
func (d *desk) saveTour(t *tournament.Tournament) error {
	if !d.rec.HasTournament(t.ID) {
		if err := writeTour(d.rec, t, d.now); err != nil {
			return err
		}
	}
	d.h.Kept().keep(t)
	return nil
}

// tourWake is when a tournament next needs the clock: sign-up closing, the
// next round's date, the warning before a round's deadline, the deadline.
func tourWake(t *tournament.Tournament, now time.Time) time.Time {
	return t.Wake(now)
}
