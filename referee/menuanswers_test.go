package referee

import (
	"testing"
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
	shown := 0
	bg := h.newBotGame("w1", 1, g.rng[0], g.rng[1])
	bg.Moves = g.moves
	bg.Answer = func(tn *botTurn) string {
		p := tn.Table.Prompts[tn.D.Seat]
		if !p.Numbered {
			return tn.Line
		}
		rd := Reader{Game: g.game, Lang: g.lang, Seat: tn.D.Seat, Seats: h.game("w1").Names()}
		text, err := h.r.render.Prompt(rd, p, tn.Table.State.View(tn.D.Seat))
		if err != nil {
			t.Fatal(err)
		}
		as := g.option(text, tn.Pick+1)
		if as == "" && g.required {
			t.Fatalf("option %d (%s) not in the menu:\n%s", tn.Pick+1, tn.Line, text)
		}
		if as == "" {
			return tn.Line
		}
		if g.shown != nil {
			g.shown(text, as)
		}
		shown++
		return as
	}
	bg.After = func(tn *botTurn, out Outcome) {
		ms := h.mails()
		if out.Status != "applied" && out.Status != "queued" {
			t.Fatalf("%q as shown: %+v\n%s", tn.Line, out, h.mailTo(ms, tn.Addr).Body)
		}
	}
	bg.play()
	return shown
}
