package tell

import (
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/templates"
)

// TestMailsYieldBeforeEachSeat_Issue25: Mails gives its processor away
// before each seat's mail (doc.go, the rule on the turns), over random
// games of the four games, 2 and 3 seats, every language and both
// formats: on one processor another goroutine gets at least a turn a
// seat while Mails runs, in at least half the runs (all of them but under
// the race detector, whose scheduler shuffles who runs next; with no
// yield, 3 of 96).
func TestMailsYieldBeforeEachSeat_Issue25(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	te := &Teller{Render: &Renderer{T: set}, Domain: "example.test", ReceiptWindow: time.Minute}
	runs, short := 0, 0
	playedMails(t, allGames, set.Languages(), 3, 12, func(in *Input) (*Told, error) {
		var told *Told
		var err error
		turns := testkit.Turns(func(func() int) { told, err = te.Mails(in) })
		runs++
		if err == nil && turns < len(in.Game.Seats) {
			short++
			if short <= 3 {
				t.Logf("%s %s: %d turns given away for %d seats", in.Game.Game, in.Game.ID, turns, len(in.Game.Seats))
			}
		}
		return told, err
	})
	if short*2 > runs {
		t.Errorf("%d of %d runs of Mails gave fewer turns away than seats", short, runs)
	}
}
