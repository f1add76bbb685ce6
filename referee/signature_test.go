package referee

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
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

// A signature typed under a sign-off without "-- " (mailfmt doc.go rule
// 6), with the lines that once left the reply refused: a company, a
// title in capitals, streets starting with a keyword ("Piazza" is PLACE
// in Italian) or a number, a building letter, a '|' line, in five
// languages' sign-offs: the move above is played in every language, and
// a command typed below the sign-off is still read.
func TestSignatureUnderSignOffPlaysTheMove_Issue25(t *testing.T) {
	tails := []string{
		"Best regards,\nAnna Keller\nACME GmbH\nCEO\n221 Baker St\nLondon",
		"Ciao!\nAnna\nPiazza Duomo 1, 20121 Milano",
		"Bien à vous\nAnna\nBâtiment B, 3e étage",
		"Groetjes\nAnna\nKerkstraat 12\n1017 GM Amsterdam",
		"Grüße,\nAnna\nHauptstr. 12\n10115 Berlin",
		"Cheers\nAnna\nBrewers' Circle | Milano",
	}
	for _, lang := range []string{"en", "it", "fr", "nl"} {
		t.Run(lang, func(t *testing.T) {
			for i, tail := range tails {
				h, tb, d, opts := firstDecision(t, lang, "sig2")
				answer := []string{opts[0].Cmd, "Hi! " + opts[0].Cmd}[i%2]
				// The text as the mail edge gives it (mailfmt.CommandsFor
				// with the referee's keywords), then the core.
				text, _ := h.r.Keywords().ExtractCommands(answer+"\n\n"+tail, mailmsg.Address{Name: "Anna Keller", Addr: ann})
				out := h.send("w1", h.game("w1").Seats[d.Seat].Address, text, tb.Token())
				if out.Status != "applied" && out.Status != "queued" {
					t.Errorf("%q under %q: %s %s", answer, tail, out.Status, out.Detail)
				}
			}
		})
	}
}

// A signature with no sign-off, "-- " or sender's name above it, decided
// by its place (mailfmt doc.go rule 6, session 13): a company, a title, a
// street starting with a keyword or a number, a '|' line, below the move
// in the last paragraph; and a street under "-- ". The move is played in
// every language, with chat words after it ("thanks"), and no line of the
// signature comes back in a mail as ignored or refused.
func TestSignatureByItsPlacePlaysTheMove(t *testing.T) {
	tails := []string{
		"ACME GmbH\nCEO\n221 Baker St",
		// "Birrificio", "Brew" are keywords of a game (the edge reads
		// with every game's keywords): a company's name all the same,
		// by its legal form (mailfmt doc.go rule 6, session 14).
		"Birrificio Rossi S.r.l.\nAmministratore delegato\nPiazza Duomo 1",
		"Anna Keller\nBrew Co Ltd",
		"ACME SARL\nPDG\n12 rue de la Paix",
		"Anna Keller | ACME Ltd | London",
		"-- \nAnna Keller\nCEO\nACME GmbH\nPiazza Duomo 1, 20121 Milano",
	}
	for _, lang := range []string{"en", "it", "fr", "nl"} {
		t.Run(lang, func(t *testing.T) {
			for i, tail := range tails {
				h, tb, d, opts := firstDecision(t, lang, "sig3")
				answer := []string{opts[0].Cmd, opts[0].Cmd + " thanks", "1", "1."}[i%4]
				text, _ := h.r.Keywords().ExtractCommands(answer+"\n\n"+tail, mailmsg.Address{Name: "Anna Keller", Addr: ann})
				out := h.send("w1", h.game("w1").Seats[d.Seat].Address, text, tb.Token())
				if out.Status != "applied" && out.Status != "queued" {
					t.Errorf("%q above %q: %s %s", answer, tail, out.Status, out.Detail)
				}
				for _, m := range h.mails() {
					for _, l := range strings.Split(tail, "\n") {
						if l = strings.TrimSpace(l); len(l) > 3 && strings.Contains(m.Body, l) {
							t.Errorf("%q above %q: the mail to %s quotes %q:\n%s", answer, tail, m.To, l, m.Body)
						}
					}
				}
			}
		})
	}
}

// firstDecision starts a Dice Brewing game of two players of lang (seed
// given) and returns the first decision waited for and its legal
// options, two minutes later.
func firstDecision(t *testing.T, lang, seed string) (*harness, *engine.Table, engine.Decision, []engine.Option) {
	h := newHarness(t)
	h.org("NEW dicebrewing id=w1 deadline=48h seed=" + seed + "\nPLAYER ann@example.test Ann " + lang + "\nPLAYER bob@example.test Bob " + lang)
	h.send("w1", ann, "JOIN", -1)
	h.send("w1", bob, "JOIN", -1)
	h.mails()
	tb := h.table("w1")
	d := tb.Prompts[tb.Waiting()[0].Seat].Decision
	opts := tb.State.Legal(d)
	h.clock.Advance(2 * time.Minute)
	return h, tb, d, opts
}
