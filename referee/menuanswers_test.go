package referee

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
)

// menuGame is one whole two-player game (Ann and Bob, both reading lang)
// whose every answer is the second bot's choice sent back as the mail's
// menu shows it (issue 12.7).
type menuGame struct {
	game, lang, seed string
	moves            int       // at most this many answers
	rng              [2]uint64 // the bot's PCG seed
	// option returns option n of a rendered prompt as a person copies it
	// ("" when it is not there).
	option func(text string, n int) string
	// required: an option missing from a numbered menu fails the test
	// (else the canonical command is sent).
	required bool
	// shown, when set, checks each numbered prompt and the answer taken
	// from it.
	shown func(text, as string)
}

// playMenuAnswers plays g through the harness until it ends or g.moves
// answers are sent; every answer must be applied or queued. It returns
// how many answers were sent as a menu showed them.
func playMenuAnswers(t *testing.T, g menuGame) int {
	t.Helper()
	h := newHarness(t)
	h.org("NEW " + g.game + " id=w1 deadline=48h seed=" + g.seed + "\nPLAYER ann@example.test Ann " + g.lang + "\nPLAYER bob@example.test Bob " + g.lang)
	h.send("w1", ann, "JOIN", -1)
	h.send("w1", bob, "JOIN", -1)
	h.mails()
	eg, _ := engine.Lookup(g.game)
	bot, err := eg.(engine.BotMaker).NewBot(eg.Info().Bots[1])
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(g.rng[0], g.rng[1]))
	shown := 0
	for n := 0; n < g.moves && h.game("w1").Status == StatusRunning; n++ {
		tb := h.table("w1")
		d := tb.Prompts[tb.Waiting()[0].Seat].Decision
		p := tb.Prompts[d.Seat]
		gm := h.game("w1")
		opts := tb.State.Legal(d)
		i := bot.Choose(tb.State, d, opts, rng)
		cmd := opts[i].Cmd
		if p.Numbered {
			rd := Reader{Game: g.game, Lang: g.lang, Seat: d.Seat, Seats: gm.Names()}
			text, err := h.r.render.Prompt(rd, p, tb.State.View(d.Seat))
			if err != nil {
				t.Fatal(err)
			}
			as := g.option(text, i+1)
			if as == "" && g.required {
				t.Fatalf("option %d (%s) not in the menu:\n%s", i+1, cmd, text)
			}
			if as != "" {
				if g.shown != nil {
					g.shown(text, as)
				}
				shown++
				cmd = as
			}
		}
		h.clock.Advance(2 * time.Minute)
		out := h.send("w1", gm.Seats[d.Seat].Address, cmd, tb.Token())
		h.mails()
		if out.Status != "applied" && out.Status != "queued" {
			t.Fatalf("%q as shown: %+v\n%s", cmd, out, h.mailTo(h.mails(), gm.Seats[d.Seat].Address).Body)
		}
	}
	return shown
}
