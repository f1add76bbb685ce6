package bymail

// Rounds drawn outside the write lock (issue 24: a Swiss round of 5,000
// entrants took seconds of CPU inside the transaction that closed the
// round before it, and every game waited).

import (
	"crypto/sha256"
	"encoding/json"
	"errors"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/tournament/bymail/tourrec"
)

// Drawn is a round drawn on a snapshot of the store, outside the write
// lock (Predraw), with the fingerprint of the record it was drawn from
// (drawSum): the unit of work that opens the round uses it when its own
// record still has that fingerprint, and draws again when it changed (a
// late entry, a result, a correction in between).
type Drawn struct {
	sum   [32]byte
	round tournament.Round
	err   error
}

// Predraw draws on rec (a snapshot, read only) the next round tournament
// id would open now: round 1 of a tournament in sign-up (START), or the
// round after a complete one. It returns nil when no round is to be
// drawn. The draw is the seed's, the same the unit of work would make.
func Predraw(rec Records, id string) *Drawn {
	t, err := tourrec.Load(rec, id)
	if err != nil {
		return nil
	}
	n := len(t.Rounds)
	switch {
	case t.Status == tournament.StatusSignup:
	case t.Status == tournament.StatusRunning && (n == 0 || t.Rounds[n-1].Complete()):
	default:
		return nil
	}
	rd, err := t.NextRound()
	return &Drawn{sum: drawSum(t), round: rd, err: err}
}

// drawSum is the fingerprint of what a draw reads of the record: the
// entrants, the rounds and their results, the seed and the settings. Its
// encoding goes straight into the digest (issue 24: json.Marshal copied
// it out, 5.5 MB at 10,000 entrants, twice a round).
func drawSum(t *tournament.Tournament) [32]byte {
	h := sha256.New()
	if err := json.NewEncoder(h).Encode(struct {
		E []tournament.Entrant
		R []tournament.Round
		S string
		X tournament.Settings
	}{t.Entrants, t.Rounds, t.Seed, t.Settings}); err != nil {
		return [32]byte{} // never equal to a snapshot's: drawn again
	}
	return [32]byte(h.Sum(nil))
}

// draw is the next round of t: the one drawn outside the write lock when
// the record is still the one it was drawn from, else drawn now.
func (d *desk) draw(t *tournament.Tournament) (tournament.Round, error) {
	if p := d.h.Predrawn(t.ID); p != nil && p.sum != ([32]byte{}) && p.sum == drawSum(t) {
		rd := p.round
		rd.Matches = append([]tournament.Match(nil), rd.Matches...) // openRound sets their games
		return rd, p.err
	}
	return t.NextRound()
}

// openLater leaves t's next round to be drawn outside this unit of work's
// write lock and opened in a unit of work of its own (OpenDue, which the
// core runs once this one commits, or the tournament's clock if it did
// not: Opening makes its wake entry due now).
func (d *desk) openLater(t *tournament.Tournament) error {
	t.Opening = true
	d.h.OpenLater(t.ID, true)
	return nil
}

// OpenDue opens tournament id's next round when it is due (Opening): in
// the core's unit of work after the one that completed the round before,
// with the round the core drew outside the write lock (Host.Predrawn).
// All or none, as any opening: a round that cannot open leaves nothing
// and the organiser hears why.
func OpenDue(h Host, id string) error {
	d := newDesk(h)
	k := d.h.Kept()
	kept := k.Has(id) // else this unit of work loads it now: the batch's alone
	t, err := d.load(id)
	if err != nil {
		if d.h.IsNotFound(err) {
			return nil
		}
		return err
	}
	if !t.Opening {
		return nil
	}
	if !kept {
		d.shaped = k.Base(id)
	}
	if err := d.openDue(t); err != nil {
		return err
	}
	if err := d.saveTour(t); err != nil {
		return err
	}
	if d.batch != nil && !kept {
		k.NoteBatch(id, *d.batch)
	}
	return nil
}

// openDue opens t's due round (Opening): the next batch of a round still
// opening (openBatch), else the round drawn now. A round that cannot be
// drawn, or whose first batch cannot open, is told to the organiser and
// Opening is over; a later batch that fails is the unit of work's failure
// (it rolls back alone, the round stays opening and the next Tick runs
// the batch again).
func (d *desk) openDue(t *tournament.Tournament) error {
	if t.Status != tournament.StatusRunning {
		t.Opening = false
		return nil
	}
	if opening(t) {
		if t.Stuck != nil && d.now.Before(t.Stuck.Retry) {
			return nil // tried again at Stuck.Retry (stuck), not before
		}
		return d.openBatch(t, "")
	}
	t.Opening = false
	if err := d.openRound(t); errors.Is(err, errNoRound) {
		d.tourOrgMail(t, d.orgText(t, "nodraw", map[string]any{"error": d.word(orgLang(t), err).Error()}))
	} else if err != nil {
		return err
	}
	return nil
}
