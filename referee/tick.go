package referee

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/pbem-referee/referee/referee/tournament/bymail"
	"github.com/pbem-referee/referee/store"
)

// Tick handles every game whose wake-up time has come: expired deadlines
// (the default move, counted as missed; a bot after too many), reminders and
// digests. The games are handled tickBatch to a transaction (issue 25: a
// tick over 10,000 games due at once took one transaction, one fsync, per
// game); when a batch fails, its games are handled again one transaction
// each, so that one game's failure holds back no other (the first failure
// is returned once every other game was handled); each drops the stale
// wake-up keys due (store.TickWakes: alone only when no game is due, and
// a failure of that drop is returned too: TestTickReportsAFailedStaleDrop_Issue25).
func (r *Referee) Tick(ctx context.Context) (int, error) {
	now := r.clock.Now()
	due, stale := []string(nil), false
	if err := r.db.View(func(tx *store.Tx) error {
		due, stale = tx.TickWakes(now, 500)
		return nil
	}); err != nil {
		return 0, err
	}
	var failed error
	for rest := due; len(rest) > 0 || stale; stale = false {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		batch := rest[:min(len(rest), tickBatch)]
		rest = rest[len(batch):]
		if _, err := r.updateAs("tick", func(w *work) error { return r.tickUnit(w, batch) }); err == nil {
			continue
		} else if len(batch) == 0 && failed == nil { // the stale keys' own drop (the next tick drops them again)
			failed = fmt.Errorf("tick: drop the stale wake-up keys due: %w", err)
		}
		for _, id := range batch {
			if _, err := r.updateAs("tick", func(w *work) error { return r.tickUnit(w, []string{id}) }); err != nil && failed == nil {
				failed = fmt.Errorf("tick %s: %w", id, err)
			}
		}
	}
	if failed != nil {
		return 0, failed
	}
	return len(due), nil
}

// tickBatch is the most games one transaction of Tick handles.
const tickBatch = 100

// tickGames handles the wake-ups of games (and tournaments) in one unit
// of work, whose commit drops the stale wake-up keys due.
func tickGames(w *work, ids []string) error {
	w.tx.DropStaleWakesAtCommit(w.now)
	for _, id := range ids {
		if tid, ok := strings.CutPrefix(id, bymail.WakePrefix); ok {
			if err := bymail.Tick(w.desk(), tid); err != nil {
				return err
			}
			continue
		}
		gw, err := w.game(id)
		if err != nil {
			return err
		}
		if err := (settling{gw}).tick(); err != nil {
			return err
		}
	}
	return nil
}

// NextWake returns when Tick should next run (false: nothing scheduled).
func (r *Referee) NextWake() (time.Time, bool, error) {
	t, ok := time.Time{}, false
	err := r.db.View(func(tx *store.Tx) error {
		t, ok = tx.NextWake()
		return nil
	})
	return t, ok, err
}

// Prune deletes what the referee keeps only for a while (issue 11, item
// 9): de-duplication records and VERP bounce ids older than
// Options.KeepInbound, and expired webhook replay tokens. bbolt reuses the
// freed pages; the file itself does not shrink (compact it offline with a
// backup and restore when that matters). It returns the records deleted.
func (r *Referee) Prune(ctx context.Context) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	now := r.clock.Now()
	n := 0
	err := r.db.Update(func(tx *store.Tx) error {
		n = 0
		for _, prune := range []func() (int, error){
			func() (int, error) { return tx.PruneInbound(now.Add(-r.opt.KeepInbound)) },
			func() (int, error) { return tx.PruneVERP(now.Add(-r.opt.KeepInbound)) },
			func() (int, error) { return tx.PruneReplay(now) },
		} {
			k, err := prune()
			if err != nil {
				return err
			}
			n += k
		}
		return nil
	})
	return n, err
}
