package dicebrewing

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// TestRoundLimitLastPurchase_DB10_1a plays 2- to 4-player games with
// round_limit 3 to 6 (the demo's 4 players and limit 3 first) through the table as the referee's bots do (BotAnswer, one message per
// prompt). A BUY that ends the last purchase turn can end the game (the
// brewing turns after it are forced), and the NOBUY that Route appends to
// the message must then do nothing (DB-10.1a), not refuse the whole message
// with "the game is over" (DB-7.1) while the referee still prompts for it.
func TestRoundLimitLastPurchase_DB10_1a(t *testing.T) {
	t.Parallel()
	bot, err := Game.(engine.BotMaker).NewBot("greedy")
	if err != nil {
		t.Fatal(err)
	}
	for g := 0; g < 120; g++ {
		n, limit := 2+g%3, []string{"3", "4", "5", "6"}[(g/3)%4]
		if g < 40 {
			n, limit = 4, "3" // the demo's tournament
		}
		seats := []string{"a", "b", "c", "d"}[:n]
		cfg := engine.Config{Seats: seats, Seed: fmt.Sprint("rl", g), Options: map[string]string{"round_limit": limit}}
		tb, _, _, err := engine.NewTable(Game, cfg)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(g), 1))
		for n := 0; tb.State.Result() == nil; n++ {
			if n > 5000 {
				t.Fatalf("game %d stalls", g)
			}
			w := tb.Waiting()
			d := w[rng.IntN(len(w))]
			p := tb.Prompts[d.Seat]
			lines, err := engine.BotAnswer(tb.State, d.Seat, p.Decision.Group, bot, rng)
			if err != nil {
				t.Fatal(err)
			}
			if len(lines) == 0 {
				if _, err := tb.Expire(d.Seat); err != nil {
					t.Fatal(err)
				}
				continue
			}
			rep, err := tb.Submit(d.Seat, engine.ParseScript(strings.Join(lines, "\n")), tb.Token())
			if err != nil {
				t.Fatal(err)
			}
			if rep.Rejected {
				t.Fatalf("game %d seat %d: %q (%s) rejected: %+v", g, d.Seat, lines, p.Decision.Kind, rep.Results)
			}
		}
	}
}
