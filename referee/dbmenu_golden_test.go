package referee

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// Issue 22 for Dice Brewing, in four languages: the mails that ask each
// kind of decision (placement, second item, purchases, brewing, token
// window, reroll, reward), and the first placement of more than 48
// options, every option numbered, grouped under a heading that says what
// it costs and gives, with the codes explained once in a legend. The
// seats answer as the greedy bot chooses.
func TestGoldenDiceBrewingMenus(t *testing.T) {
	if raceEnabled {
		t.Skip("150 moves of a whole game in one goroutine: make check runs it without -race (make content)")
	}
	eachLanguage(t, "dbmenus", func(g *golden) {
		h, l := g.h, g.lang
		h.org("NEW dicebrewing id=d1 deadline=48h seed=dbmenus3\n" +
			"PLAYER ann@example.test Ann " + l + "\n" +
			"PLAYER bob@example.test Bob " + l + "\n" +
			"PLAYER cat@example.test Cat " + l)
		h.send("d1", ann, "JOIN", -1)
		h.send("d1", bob, "JOIN", -1)
		h.mails()
		h.send("d1", cat, "JOIN", -1)
		ms := h.mails()
		eg, _ := engine.Lookup("dicebrewing")
		bot, _ := eg.(engine.BotMaker).NewBot("greedy")
		rng := rand.New(rand.NewPCG(22, 1))
		shown, big := map[string]bool{}, false
		for step := 0; step < 1500 && h.game("d1").Status == StatusRunning; step++ {
			tb := h.table("d1")
			d := tb.Waiting()[0]
			p := tb.Prompts[d.Seat]
			addr := h.game("d1").Seats[d.Seat].Address
			if !shown[d.Kind] || (p.Count > 48 && !big) {
				caption := fmt.Sprintf("%s, %d options", d.Kind, p.Count)
				if p.Count > 48 && !big {
					big = true
					caption = fmt.Sprintf("the first decision of more than 48 options (%s, %d)", d.Kind, p.Count)
				}
				shown[d.Kind] = true
				g.record(caption, h.mailTo(ms, addr))
			}
			if big && len(shown) >= 6 {
				return
			}
			opts := tb.State.Legal(d)
			j := 0
			if len(opts) > 1 {
				j = bot.Choose(tb.State, d, opts, rng)
			}
			h.send("d1", addr, opts[j].Cmd, -1)
			ms = h.mails()
		}
		g.t.Errorf("%s: kinds met %v, a menu of more than 48: %v", l, shown, big)
	})
}
