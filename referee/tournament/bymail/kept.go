package bymail

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
// A tournament enters Kept when it is saved (desk.saveTour), never when
// it is only read: a command that changes a tournament it loaded and then
// fails leaves no trace unless it saved. A tournament found in Kept is
// shared by the rest of the unit of work, so a command that fails after
// it loaded one from Kept may have changed it: Hit is called then (the
// core counts it as a change, and an organiser's line that fails after a
// change is undone and its mail run again without it; undo.go).
type Kept struct {
	tours map[string]*tournament.Tournament
	// Hit is called when a tournament is found in Kept.
	Hit func()
}

// get returns the tournament id kept, or nil.
func (k *Kept) get(id string) *tournament.Tournament {
	t := k.tours[id]
	if t != nil && k.Hit != nil {
		k.Hit()
	}
	return t
}

// keep holds t until Flush.
func (k *Kept) keep(t *tournament.Tournament) {
	if k.tours == nil {
		k.tours = map[string]*tournament.Tournament{}
	}
	k.tours[t.ID] = t
}

// Flush writes the tournaments kept, in the order of their ids, and
// their wake entries (as of now); Kept is then empty. The core calls it
// when the unit of work ends, before its transaction commits.
func (k *Kept) Flush(rec Records, now time.Time) error {
	ids := make([]string, 0, len(k.tours))
	for id := range k.tours {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if err := writeTour(rec, k.tours[id], now); err != nil {
			return err
		}
	}
	k.tours = nil
	return nil
}

// writeTour encodes and writes a tournament's record and its wake entry.
func writeTour(rec Records, t *tournament.Tournament, now time.Time) error {
	raw, err := json.Marshal(t)
	if err != nil {
		return err
	}
	if err := rec.PutTournament(t.ID, raw); err != nil {
		return err
	}
	return rec.SetWake(tourWakePrefix+t.ID, tourWake(t, now))
}
