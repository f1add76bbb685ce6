package spec

import (
	"errors"
	"fmt"
	"io"
)

// maxRedo bounds the runs of one unit of work (each run adds an undone
// operation, so it only stops a bug's loop).
const maxRedo = 64

// Undoer is the error with which a run asks to be rolled back and run
// again: Undone names the operations to leave out, each with the failure
// its next run answers with.
type Undoer interface {
	error
	Undone() map[string]string
}

// Redo runs a unit of work (run, with a random source that keeps what it
// drew and the operations to leave out: operation -> the failure to
// answer with) until it returns no Undoer; the bytes a dropped run drew
// are read again by the next. An operation undone twice, or a run past
// maxRedo, is an error.
func Redo(r *Random, run func(random io.Reader, undone map[string]string) error) error {
	undone := map[string]string{}
	for n := 1; ; n++ {
		tape := r.Tape()
		err := run(tape, undone)
		var u Undoer
		if !errors.As(err, &u) {
			return err
		}
		r.Drop(tape)
		for key, msg := range u.Undone() {
			if _, again := undone[key]; again || n >= maxRedo {
				return fmt.Errorf("referee: cannot undo %s: %w", key, err)
			}
			undone[key] = msg
		}
	}
}
