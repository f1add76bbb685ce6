package bymail

// The desk's unit of work and the tournament's record (see doc.go).

import (
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/tournament/bymail/tourrec"
)

// tourWakePrefix marks a tournament's entry in the store's wake index
// (tourrec.WakePrefix).
const tourWakePrefix = tourrec.WakePrefix

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
	// (OpenDue notes it in Kept: Kept.NoteBatch).
	batch *tourrec.Batch
	// shaped is the shape OpenDue loaded the tournament with, when this
	// unit of work had not found it before (its standings of the rounds
	// before are kept there: tourrec.Shape.Done).
	shaped *tourrec.Shape
}

func newDesk(h Host) *desk { return &desk{h: h, rec: h.Records(), now: h.Now()} }

// load returns tournament id as this unit of work left it: from Kept,
// else as the unit of work before kept it decoded (the batches of a
// round opening), else decoded from its record and its match records
// (then Kept notes how it was, to write only what changes: Kept.Flush;
// package tourrec).
func (d *desk) load(id string) (*tournament.Tournament, error) {
	k := d.h.Kept()
	if t := k.Get(id); t != nil {
		return t, nil
	}
	if dec, ok := tourrec.TakeDecoded(d.rec, id); ok {
		k.Loaded(id, dec.S)
		return dec.T, nil
	}
	t, s, err := tourrec.LoadShaped(d.rec, id)
	if err != nil {
		return nil, err
	}
	k.Loaded(id, s)
	return t, nil
}

// saveTour keeps a changed tournament for the rest of the unit of work;
// its record is written when the unit of work ends (Kept.Flush). A new
// tournament's record is written at once, so the commands after it in the
// same mail find it.
func (d *desk) saveTour(t *tournament.Tournament) error {
	if !d.rec.HasTournament(t.ID) {
		if err := tourrec.Write(d.rec, t, d.now); err != nil {
			return err
		}
	}
	d.h.Kept().Keep(t)
	return nil
}
