package referee

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// Issue 21 through the mail pipeline: every turn of every game sent as
// one mail of one command per line, forced choices written out (as the
// prompts ask); not one line may be refused, dropped, stopped or skipped,
// and every echo is read for it. The engine-level runs
// (TestSelfPlayOneMailTurns in each game) play thousands of games; this one
// plays whole games through intake, the Table, the echo and the mails.
func TestMailSelfPlayOneMailTurns(t *testing.T) {
	bad := []string{"REFUSED", "dropped", "stopped", "skipped", "partly", "Nothing of this message was applied"}
	for _, c := range []struct {
		game, opts string
		games      int
	}{
		{"heavenale", "", 2}, {"dicebrewing", " round_limit=6", 2}, {"brewcrafters", "", 1}, {"fromage", "", 2},
	} {
		t.Run(c.game, func(t *testing.T) {
			// One game each with -short or the race detector; a tenth of
			// -selfplay=N when set.
			n := max(1, enginetest.SelfPlayCount(c.games*10)/10)
			for k := 0; k < n; k++ {
				h := newHarness(t)
				id := fmt.Sprintf("m%d", k)
				h.org("NEW " + c.game + " id=" + id + " seed=mail" + id + " deadline=none" + c.opts +
					"\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob")
				h.send(id, ann, "JOIN", -1)
				h.send(id, bob, "JOIN", -1)
				h.mails()
				rng := rand.New(rand.NewPCG(uint64(k), 21))
				mails, lines, agreed := 0, 0, 0
				for ; ; mails++ {
					if mails > 3000 {
						t.Fatalf("%s: no end after %d mails", id, mails)
					}
					tb := h.table(id)
					if tb.State.Result() != nil {
						break
					}
					w := tb.Waiting()
					if len(w) == 0 {
						t.Fatalf("%s: nobody is asked anything", id)
					}
					turn, err := enginetest.TurnLines(tb.State, w[0], engine.RandomBot{}, rng)
					if err != nil || len(turn) == 0 {
						t.Fatalf("%s: %v %q", id, err, turn)
					}
					addr := h.game(id).Seats[w[0].Seat].Address
					text := strings.Join(turn, "\n")
					out := h.send(id, addr, text, -1)
					body := h.mailTo(h.mails(), addr).Body
					if out.Status == OutcomeRejected {
						t.Fatalf("%s: mail refused:\n%s\n----\n%s", id, text, body)
					}
					echo := body
					if i := strings.Index(echo, "YOUR MESSAGE"); i >= 0 {
						echo = echo[i:]
					}
					if j := strings.Index(echo, "\n\n"); j >= 0 {
						echo = echo[:j]
					}
					for _, b := range bad {
						if strings.Contains(echo, b) {
							t.Fatalf("%s: %q in the echo of\n%s\n----\n%s", id, b, text, body)
						}
					}
					lines += len(turn)
					agreed += strings.Count(echo, "  agreed  ")
				}
				t.Logf("%s %s: %d mails, %d lines (%d agreed), every one played as written", c.game, id, mails, lines, agreed)
			}
		})
	}
}
