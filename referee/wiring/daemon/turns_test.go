package daemon

import (
	"testing"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
)

// TestComposeYieldsFirst_Issue25: the daemon's composer gives its
// processor away before it composes (yielding; referee/edge/mailin's
// rule on the intake's turn): on one processor another goroutine has had
// a turn when the composition begins, for at least half of 50 mails
// (all of them but under the race detector, whose scheduler shuffles who
// runs next; with no yield, none).
func TestComposeYieldsFirst_Issue25(t *testing.T) {
	short := 0
	for range 50 {
		testkit.Turns(func(soFar func() int) {
			compose := yielding(func(*referee.Outgoing) ([]byte, error) {
				if soFar() == 0 {
					short++
				}
				return nil, nil
			})
			_, _ = compose(&referee.Outgoing{})
		})
	}
	if short > 25 {
		t.Errorf("%d of 50 compositions began with no turn given away", short)
	}
}
