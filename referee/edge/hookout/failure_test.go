package hookout

import (
	"errors"
	"testing"

	"github.com/pbem-referee/referee/referee"
)

// TestCallErrorShape: a refused call is permanent in the core's one shape
// (referee.IsPermanent); a network failure is transient.
func TestCallErrorShape(t *testing.T) {
	if e := permanent("not an http(s) URL"); !referee.IsPermanent(e) {
		t.Errorf("%v: not permanent", e)
	}
	if e := (&callError{err: errors.New("connection reset")}); referee.IsPermanent(e) || !referee.IsTransient(e) {
		t.Errorf("%v: not transient", e)
	}
}
