package referee

import (
	"errors"
	"io"
	"sort"
	"strings"

	"github.com/pbem-referee/referee/referee/spec"
)

// All or none (issue 25): an operation that fails after it changed
// something (an organiser's command line that changed anything through
// the desk, "org line <i>": the run goes on to the end of the mail, so
// that the next run leaves out every line that failed, in one go; or a
// step of the desk's that spans many writes, see bymail.Host.Undo)
// returns a redoError (work.undo), the transaction rolls back, and the
// unit of work runs again from the start with that operation undone
// (work.undone), answering with the failure (spec.Redo runs it).

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

// Undone implements spec.Undoer.
func (e *redoError) Undone() map[string]string { return e.undo }

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
	return spec.Redo(r.random, func(random io.Reader, undone map[string]string) error {
		ar := *r
		ar.bind()
		ar.opt.Random, ar.undone = random, undone
		return fn(&ar)
	})
}
