package referee

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
)

// TestTournamentRoundTableNamesWhoPlayedTheGame_Issue24: a generated
// entrant's place of a toy tournament (Swiss or tables) is handed on
// during round 1's game, before any move or after a generated number of
// moves. The place's stint records that its first holder played that
// game in part exactly when a move was made (Into), and the tournament
// page's round 1 table names them, then the newcomer, at that place's
// seat only (every language's words: pages'
// TestRoundTableNamesWhoPlayedTheGame_Issue24); the next round names
// the newcomer alone.
func TestTournamentRoundTableNamesWhoPlayedTheGame_Issue24(t *testing.T) {
	for draw := 0; draw < 8; draw++ {
		format := []string{"swiss", "tables"}[draw%2]
		t.Run(fmt.Sprintf("%s/%d", format, draw), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(2425, uint64(draw)))
			h := toyTournament(t, format, 2)
			who := rng.IntN(6)
			tr := h.tour("sub")
			var game string
			for _, m := range tr.Rounds[0].Matches {
				if slices.Contains(m.Seats, who) && m.State != tournament.MatchBye {
					game = m.GameID
				}
			}
			if game == "" {
				t.Skip("a bye")
			}
			moves := []int{0, 1 + rng.IntN(4)}[draw/2%2]
			eg, _ := engine.Lookup("toy")
			bot, _ := eg.(engine.BotMaker).NewBot(eg.Info().Bots[0])
			for h.table(game).Token() < moves {
				tb := h.table(game)
				d := tb.Waiting()[0]
				opts := tb.State.Legal(d)
				h.send(game, h.game(game).Seats[d.Seat].Address, opts[bot.Choose(tb.State, d, opts, rng)].Cmd, tb.Token())
			}
			h.org(fmt.Sprintf("REPLACE sub p%d@p.test zed@p.test Zed", who))
			h.mails()
			tr = h.tour("sub")
			e := tr.Entrants[who]
			if len(e.Before) != 1 || e.Before[0].Through != 0 || (e.Before[0].Into == 1) != (moves > 0) {
				t.Fatalf("after %d moves, the place's stints are %+v", moves, e.Before)
			}
			p, err := h.r.TournamentPage(tr.ID+"-"+tr.Key, "en")
			if err != nil {
				t.Fatal(err)
			}
			named := 0
			for _, pr := range p.Pairings {
				for j, m := range pr.Matches {
					for i, x := range tr.Rounds[pr.N-1].Matches[j].Seats {
						part := m.Part[i]
						if x == who && pr.N == 1 && moves > 0 {
							named++
							if fmt.Sprint(part) != "[P"+fmt.Sprint(who)+"]" || m.Players[i] != "Zed" {
								t.Errorf("round 1: the place is named %q after %q, want Zed after P%d", m.Players[i], part, who)
							}
						} else if part != nil {
							t.Errorf("round %d table %d: seat %d names %q as playing in part", pr.N, m.Table, i, part)
						}
					}
				}
			}
			if (named == 1) != (moves > 0) {
				t.Fatalf("after %d moves the round's table named the first holder %d times", moves, named)
			}
		})
	}
}
