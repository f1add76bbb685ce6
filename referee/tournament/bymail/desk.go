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
}

func newDesk(h Host) *desk { return &desk{h: h, rec: h.Records(), now: h.Now()} }

func loadTour(tx Records, id string) (*tournament.Tournament, error) {
	raw, err := tx.Tournament(id)
	if err != nil {
		return nil, err
	}
	var t tournament.Tournament
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("tournament %s: %w", id, err)
	}
	return &t, nil
}

func (d *desk) saveTour(t *tournament.Tournament) error {
	raw, err := json.Marshal(t)
	if err != nil {
		return err
	}
	if err := d.rec.PutTournament(t.ID, raw); err != nil {
		return err
	}
	return d.rec.SetWake(tourWakePrefix+t.ID, tourWake(t, d.now))
}

// tourWake is when a tournament next needs the clock: sign-up closing, the
// next round's date, the warning before a round's deadline, the deadline.
func tourWake(t *tournament.Tournament, now time.Time) time.Time {
	return t.Wake(now)
}
