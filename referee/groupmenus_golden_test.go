package referee

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// Issue 22, menus that fit a decision: the largest menu of a whole game of
// Heaven & Ale, Brew Crafters and Fromage (the greedy bot at every seat),
// as its player gets it, in four languages: every option numbered, in
// groups by kind of action under headings in words (what the group's
// options take and give), then the legend.
func TestGoldenGroupedMenus_Issue22(t *testing.T) {
	if raceEnabled {
		t.Skip("whole games in one goroutine: make check runs it without -race (make content)")
	}
	for _, game := range []string{"heavenale", "brewcrafters", "fromage"} {
		t.Run(game, func(t *testing.T) {
			eachLanguage(t, "groupmenus."+game, func(g *golden) {
				h, l := g.h, g.lang
				h.org("NEW " + game + " id=m1 deadline=48h seed=groupmenus1\n" +
					"PLAYER ann@example.test Ann " + l + "\n" +
					"PLAYER bob@example.test Bob " + l)
				h.send("m1", ann, "JOIN", -1)
				h.mails()
				h.send("m1", bob, "JOIN", -1)
				ms := h.mails()
				eg, _ := engine.Lookup(game)
				bot, _ := eg.(engine.BotMaker).NewBot("greedy")
				rng := rand.New(rand.NewPCG(22, 2))
				var best *Outgoing
				most, kind := 0, ""
				for step := 0; step < 600 && h.game("m1").Status == StatusRunning; step++ {
					tb := h.table("m1")
					d := tb.Waiting()[0]
					p := tb.Prompts[d.Seat]
					addr := h.game("m1").Seats[d.Seat].Address
					if p.Count > most {
						for _, m := range ms {
							if m.To == addr {
								best, most, kind = m, p.Count, d.Kind
							}
						}
					}
					opts := tb.State.Legal(d)
					j := 0
					if len(opts) > 1 {
						j = bot.Choose(tb.State, d, opts, rng)
					}
					h.send("m1", addr, opts[j].Cmd, -1)
					ms = h.mails()
				}
				if best == nil {
					t.Fatalf("%s %s: no menu", game, l)
				}
				g.record(fmt.Sprintf("the largest menu of a game (%s, %d options)", kind, most), best)
			})
		})
	}
}
