package referee

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
)

// A reply whose signature has no "-- " (Outlook) and holds digits and
// capitals ("Brauerei Straße 5, Zürich", "Tel. +49 30 123456"
// "Sent from my iPhone 15"): the move above it is played, in every language
// (mailfmt.IsProse, doc.go "# Answers").
func TestOutlookSignatureWithNumbersPlaysTheMove(t *testing.T) {
	for _, lang := range []string{"en", "it", "fr", "nl"} {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			h.org("NEW dicebrewing id=w1 deadline=48h seed=sig1\nPLAYER ann@example.test Ann " + lang + "\nPLAYER bob@example.test Bob " + lang)
			h.send("w1", ann, "JOIN", -1)
			h.send("w1", bob, "JOIN", -1)
			h.mails()
			eg, _ := engine.Lookup("dicebrewing")
			bot, err := eg.(engine.BotMaker).NewBot(eg.Info().Bots[0])
			if err != nil {
				t.Fatal(err)
			}
			tb := h.table("w1")
			d := tb.Prompts[tb.Waiting()[0].Seat].Decision
			opts := tb.State.Legal(d)
			cmd := opts[bot.Choose(tb.State, d, opts, rand.New(rand.NewPCG(1, 2)))].Cmd
			h.clock.Advance(2 * time.Minute)
			body := cmd + "\n\nMit freundlichen Grüßen\nAnna Keller\nBrauerei Straße 5, Zürich\nTel. +49 30 123456\nSent from my iPhone 15"
			out := h.send("w1", h.game("w1").Seats[d.Seat].Address, body, tb.Token())
			if out.Status != "applied" && out.Status != "queued" {
				t.Fatalf("%q with an Outlook signature: %s %s", cmd, out.Status, out.Detail)
			}
		})
	}
}
