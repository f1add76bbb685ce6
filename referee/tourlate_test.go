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
// the other wins (matching the waiting names made both lose). In every
// other draw the organiser's FORFEIT names the shared name instead: refused
// (err.same_name; it took the last entrant of that name), then by the
// substitute's address: that seat alone loses.
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
			lost := late[0]
			if draw%2 == 1 {
				// FORFEIT by the shared name is refused; by address it
				// names the one seat.
				h.org(fmt.Sprintf("FORFEIT %s %s", game, other.Name))
				contains(t, orgResults(t, h), "names more than one player of game "+game)
				for _, x := range h.tour("lf").Rounds[0].Matches {
					if x.GameID == game && x.Decided() {
						t.Fatal("FORFEIT by a shared name decided the game")
					}
				}
				lost = gone
				h.org(fmt.Sprintf("FORFEIT %s zed@p.test", game))
			} else {
				h.clock.Advance(24*time.Hour + time.Minute)
				h.tick()
			}
			h.mails()
			got := h.tour("lf").Rounds[0].Matches
			for _, x := range got {
				if x.GameID != game {
					continue
				}
				want := []int{1, 1}
				want[lost] = 2
				if x.State != tournament.MatchForfeit || fmt.Sprint(x.Rank) != fmt.Sprint(want) {
					t.Fatalf("losing seat %d (of two named %q): the match is %s ranked %v, want forfeit %v", lost, other.Name, x.State, x.Rank, want)
				}
				return
			}
			t.Fatalf("game %s is gone from round 1", game)
		})
	}
}
