package referee

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
)

// TestLateForfeitLosersBySeat_Issue24: with late=forfeit the seats a late
// game waits for lose at the deadline, found by seat, never by name. A
// place of a generated game is handed on (REPLACE) after a generated
// number of moves to a substitute named like the other seat's holder, so
// both seats read the same name: the seat the game waits for loses and
// the other wins (matching the waiting names made both lose).
func TestLateForfeitLosersBySeat_Issue24(t *testing.T) {
	for draw := 0; draw < 6; draw++ {
		t.Run(fmt.Sprint(draw), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(2424, uint64(draw)))
			h := newHarness(t)
			h.org("NEW TOURNAMENT lf game=toy rounds=2 table=2 deadline=1d late=forfeit")
			var enter strings.Builder
			for i := 0; i < 4; i++ {
				fmt.Fprintf(&enter, "ENTER lf p%d@p.test P%d\n", i, i)
			}
			h.org(enter.String() + "START lf")
			h.mails()
			tr := h.tour("lf")
			m := tr.Rounds[0].Matches[rng.IntN(len(tr.Rounds[0].Matches))]
			game := m.GameID
			eg, _ := engine.Lookup("toy")
			bot, _ := eg.(engine.BotMaker).NewBot(eg.Info().Bots[0])
			moves := 1 + rng.IntN(3)
			for h.table(game).Token() < moves {
				tb := h.table(game)
				d := tb.Waiting()[0]
				opts := tb.State.Legal(d)
				h.send(game, h.game(game).Seats[d.Seat].Address, opts[bot.Choose(tb.State, d, opts, rng)].Cmd, tb.Token())
			}
			gone := rng.IntN(2)
			other := tr.Entrants[m.Seats[1-gone]]
			h.org(fmt.Sprintf("REPLACE lf p%d@p.test zed@p.test %s", m.Seats[gone], other.Name))
			h.mails()
			if names := h.game(game).HoldingNames(); names[0] != names[1] {
				t.Fatalf("the seats are named %q: the test needs one name twice", names)
			}
			var late []int
			for _, d := range h.table(game).Waiting() {
				if !slices.Contains(late, d.Seat) {
					late = append(late, d.Seat)
				}
			}
			if len(late) != 1 {
				t.Fatalf("the game waits for seats %v", late)
			}
			h.clock.Advance(24*time.Hour + time.Minute)
			h.tick()
			h.mails()
			got := h.tour("lf").Rounds[0].Matches
			for _, x := range got {
				if x.GameID != game {
					continue
				}
				want := []int{1, 1}
				want[late[0]] = 2
				if x.State != tournament.MatchForfeit || fmt.Sprint(x.Rank) != fmt.Sprint(want) {
					t.Fatalf("late seat %d (of two named %q): the match is %s ranked %v, want forfeit %v", late[0], other.Name, x.State, x.Rank, want)
				}
				return
			}
			t.Fatalf("game %s is gone from round 1", game)
		})
	}
}
