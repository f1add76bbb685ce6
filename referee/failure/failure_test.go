package failure

import (
	"errors"
	"fmt"
	"testing"
)

type shaped struct{ transient bool }

func (s shaped) Error() string   { return fmt.Sprintf("shaped(transient=%v)", s.transient) }
func (s shaped) Transient() bool { return s.transient }

// TestFailureShape: the one shape of permanent versus transient failures
// reads through wrapping and joins, and anything that does not
// say otherwise is transient.
func TestFailureShape(t *testing.T) {
	for _, c := range []struct {
		name      string
		err       error
		permanent bool
	}{
		{"nil", nil, false},
		{"plain", errors.New("disk full"), false},
		{"PermanentError", Permanent("no header"), true},
		{"wrapped PermanentError", fmt.Errorf("intake: %w", Permanent("no header")), true},
		{"Transienter false", shaped{transient: false}, true},
		{"Transienter true", shaped{transient: true}, false},
		{"wrapped Transienter false", fmt.Errorf("smtp: %w", shaped{false}), true},
		{"joined, one permanent", errors.Join(errors.New("a"), shaped{false}), true},
		{"joined, none permanent", errors.Join(errors.New("a"), shaped{true}), false},
	} {
		if got := IsPermanent(c.err); got != c.permanent {
			t.Errorf("%s: IsPermanent = %v, want %v", c.name, got, c.permanent)
		}
		if got := IsTransient(c.err); got != (c.err != nil && !c.permanent) {
			t.Errorf("%s: IsTransient = %v", c.name, got)
		}
	}
	var tr Transienter = &PermanentError{Reason: "x"}
	if tr.Transient() {
		t.Error("a *PermanentError says it is transient")
	}
}
