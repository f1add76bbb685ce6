package referee

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// All or none (issue 25: a START that failed midway left 14 games running
// and the tournament still in sign-up). bbolt has no savepoints, so a unit
// of work cannot take back half of itself: instead, an operation that
// fails after it changed something returns a redoError (work.undo), the
// whole transaction rolls back, and the unit of work runs again from the
// start with that operation marked undone (work.undone): this time it
// answers with the failure and changes nothing. The other commands of the
// mail run again as they ran (the random bytes drawn are read again, the
// clock is the same), so their effects are committed once.
//
// The operations: an organiser's command line that failed after it
// changed anything through the desk ("org line <i>": the run goes on to
// the end of the mail, so that the next run leaves out every line that
// failed, in one go; a line that failed only because an earlier failed
// line had half-changed something is left out too, answered with its
// failure), and the desk's own
// steps that span many writes (opening a round, closing sign-up; see
// bymail.Host.Undo).

// maxRedo bounds the runs of one unit of work (each run adds an undone
// operation, so it only stops a bug's loop).
const maxRedo = 64

// redoError rolls a unit of work back to run it again with its operations
// undone: operation -> the failure its next run answers with.
type redoError struct{ undo map[string]string }

func (e *redoError) Error() string {
	keys := make([]string, 0, len(e.undo))
	for k, msg := range e.undo {
		keys = append(keys, k+": "+msg)
	}
	sort.Strings(keys)
	return "referee: undone " + strings.Join(keys, "; ")
}

// undo returns the error that rolls the unit of work back and runs it
// again with key undone (err itself when it already does so).
func (w *work) undo(key string, err error) error {
	var re *redoError
	if errors.As(err, &re) {
		return err
	}
	return &redoError{undo: map[string]string{key: err.Error()}}
}

// redo runs a unit of work (fn, on a view of the Referee whose random
// source keeps what it drew) until it does not ask to be run again.
func (r *Referee) redo(fn func(ar *Referee) error) error {
	undone := map[string]string{}
	for run := 1; ; run++ {
		ar := *r
		ar.bind()
		tape := &tapeReader{src: r.random}
		ar.opt.Random, ar.undone = tape, undone
		err := fn(&ar)
		var re *redoError
		if !errors.As(err, &re) {
			return err
		}
		r.random.unread(tape.drawn)
		for key, msg := range re.undo {
			if _, again := undone[key]; again || run >= maxRedo {
				return fmt.Errorf("referee: cannot undo %s: %w", key, err)
			}
			undone[key] = msg
		}
	}
}
