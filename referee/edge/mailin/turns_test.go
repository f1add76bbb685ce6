package mailin

import (
	"fmt"
	"testing"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
)

// TestHandOverYieldsBeforeTheCore_Issue25: the intake gives its
// processor away between its reading of a mail and the core's processing
// (the package doc's rule on the intake's turn): on one processor
// another goroutine has had a turn when the core composes its answer,
// for at least half the answers (all of them but under the race
// detector, whose scheduler shuffles who runs next; with no yield,
// none).
// The mails are organisers' commands and strangers' mails in the four
// languages' words, answered without a game's mails (referee/tell's own
// turns do not count here).
func TestHandOverYieldsBeforeTheCore_Issue25(t *testing.T) {
	var soFar func() int
	composed, short := 0, 0
	h := newMailHarness(t, func(o *referee.Options) {
		compose := o.Compose
		o.Compose = func(m *referee.Outgoing) ([]byte, error) {
			if soFar != nil {
				composed++
				if soFar() == 0 {
					short++
				}
			}
			return compose(m)
		}
	})
	texts := []string{"HELP", "AIUTO", "AIDE", "HULP", "LIST", "what is this?", "NEW claim id=x1\r\nPLAYER ann@example.test Ann"}
	for i, text := range texts {
		for _, from := range []string{"Olga <olga@example.test>", "Stranger <s@elsewhere.test>"} {
			to := "referee@example.test"
			if from[0] == 'O' {
				to = "referee+org.orgsecretorgsecret@example.test"
			}
			raw := fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: hello\r\nMessage-ID: <turn%d.%c@example.test>\r\n"+
				"Date: Mon, 23 Nov 2026 08:00:00 +0000\r\n\r\n%s\r\n", from, to, i, from[0], text)
			testkit.Turns(func(f func() int) {
				soFar = f
				h.handle(raw)
				soFar = nil
			})
		}
	}
	if composed == 0 {
		t.Fatal("no mail composed")
	}
	if short*2 > composed {
		t.Errorf("%d of %d answers composed with no turn given away before", short, composed)
	}
	t.Logf("%d answers composed", composed)
}
