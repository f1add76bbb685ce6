package referee

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbem-referee/referee/engine"
)

// Issue 22, menus that fit a decision: every legal option of every
// decision is numbered by the Table (none is cut to an example, engine
// doc.go), grouped by kind of action. For positions of random games of
// every game (each position of more than 48 options, and a sample of the
// others), the menu of the mail, in every language in turn, shows every
// number once, within 80 columns; and each option, answered by its
// number, by its menu line as copied (description included) and by its
// command, plays that very option (checked on a copy of the table, in
// English, whose commands are the canonical ones; the other languages'
// words are played whole games long by the reader bot).
func TestEveryOptionReachable_Issue22(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	if raceEnabled {
		t.Skip("random games in one goroutine: make check runs them without -race (make content)")
	}
	h := newHarness(t)
	langs := []string{"en", "it", "fr", "nl"}
	for _, game := range []string{"dicebrewing", "heavenale", "brewcrafters", "fromage"} {
		g, err := engine.Lookup(game)
		if err != nil {
			t.Fatal(err)
		}
		bot, err := g.(engine.BotMaker).NewBot(g.Info().BestBot())
		if err != nil {
			t.Fatal(err)
		}
		var big, bigChecked, checked, maxCount, maxLines, maxWidth, maxBytes int
		for i := 0; i < 3; i++ {
			seats := []string{"Ann", "Bob", "Cat", "Dan"}[:g.Info().NearestPlayers(2+i)]
			tb, _, _, err := engine.NewTable(g, engine.Config{Seats: seats, Seed: fmt.Sprint("reach", i)})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(i), 22))
			for n := 0; n < 3000 && tb.State.Result() == nil; n++ {
				w := tb.Waiting()
				if len(w) == 0 {
					t.Fatalf("%s: nobody to move", game)
				}
				seat := w[0].Seat
				p := tb.Prompts[seat]
				if !p.Numbered || len(p.Options) != p.Count {
					t.Fatalf("%s: %d options, %d numbered (%v)", game, p.Count, len(p.Options), p.Numbered)
				}
				if p.Count > 48 {
					big++
				}
				if p.Count > 48 && bigChecked < 30 || n%40 == 0 {
					checked++
					if p.Count > 48 {
						bigChecked++
					}
					lang := langs[checked%len(langs)]
					text := renderedMenu(t, h, game, lang, tb, p)
					lines, width := menuSize(text)
					maxCount, maxLines, maxWidth = max(maxCount, p.Count), max(maxLines, lines), max(maxWidth, width)
					maxBytes = max(maxBytes, len(text))
					if width > 80 {
						t.Errorf("%s %s: a line of %d columns:\n%s", game, lang, width, text)
					}
					if ng := checkGroupsInOrder(t, game, lang, p, text); p.Count > 48 && ng < 2 {
						t.Errorf("%s %s: %d options in %d group", game, lang, p.Count, ng)
					}
					menu := readMenu(text)
					if len(menu) != p.Count {
						t.Fatalf("%s %s: the mail shows %d of %d options:\n%s", game, lang, len(menu), p.Count, text)
					}
					if lang != "en" {
						text = renderedMenu(t, h, game, "en", tb, p)
						menu = readMenu(text)
					}
					for k, o := range p.Options {
						if menu[k].n != k+1 {
							t.Fatalf("%s: option %d shown as %d", game, k+1, menu[k].n)
						}
						for _, as := range []string{fmt.Sprint(k + 1), menu[k].line, menu[k].cmd} {
							if got := playedAs(t, g, tb, seat, p, as); got != o.Cmd && !sameCmd(tb, seat, got, o.Cmd) {
								t.Fatalf("%s: option %d (%s) answered %q plays %q\n%s", game, k+1, o.Cmd, as, got, text)
							}
						}
					}
				}
				opts := tb.State.Legal(p.Decision)
				pick := 0
				switch {
				case len(opts) > 1 && rng.IntN(5) == 0:
					pick = rng.IntN(len(opts)) // odd corners too
				case len(opts) > 1:
					pick = bot.Choose(tb.State, p.Decision, opts, rng)
				}
				if rep, err := tb.Submit(seat, engine.ParseScript(opts[pick].Cmd), tb.Token()); err != nil || rep.Rejected {
					t.Fatalf("%s: %s refused: %v %+v", game, opts[pick].Cmd, err, rep)
				}
			}
		}
		t.Logf("%s: %d positions checked (%d of the %d of more than 48 options); largest menu %d options, %d lines, %d bytes, widest line %d columns",
			game, checked, bigChecked, big, maxCount, maxLines, maxBytes, maxWidth)
		if game == "dicebrewing" && big == 0 {
			t.Errorf("%s: no position of more than 48 options", game)
		}
	}
}

// renderedMenu is the prompt of p as the mail shows it to its seat.
func renderedMenu(t *testing.T, h *harness, game, lang string, tb *engine.Table, p *engine.Prompt) string {
	t.Helper()
	seats := tb.State.Head().Seats
	text, err := h.r.render.Prompt(Reader{Game: game, Lang: lang, Seat: p.Decision.Seat, Seats: seats}, p, tb.State.View(p.Decision.Seat))
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// menuSize returns the number of lines and the widest line of a text.
func menuSize(text string) (lines, width int) {
	for _, l := range strings.Split(text, "\n") {
		lines++
		width = max(width, utf8.RuneCountInString(l))
	}
	return lines, width
}

// playedAs answers the seat's prompt with text on a copy of the table and
// returns the command it played or queued ("" when refused).
func playedAs(t *testing.T, g engine.Game, tb *engine.Table, seat int, p *engine.Prompt, text string) string {
	t.Helper()
	c := engine.WrapTable(g, tb.State.Clone())
	rep, err := c.Submit(seat, engine.ParseScript(text), p.Token)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case rep.Rejected || len(rep.Results) == 0:
		return ""
	case len(rep.Results[0].Cmds) > 0:
		return rep.Results[0].Cmds[0]
	case len(c.Queues[seat]) > 0:
		// A sealed answer (Fromage) waits in the queue, the number
		// already read as its option.
		q := c.Queues[seat]
		return q[len(q)-1].Alts[0][0]
	}
	return ""
}

// sameCmd reports whether two commands of a seat are the same move.
func sameCmd(tb *engine.Table, seat int, a, b string) bool {
	ma, err := tb.State.Parse(seat, a)
	if err != nil {
		return false
	}
	mb, err := tb.State.Parse(seat, b)
	return err == nil && ma.String() == mb.String()
}

// Issue 12.6: a queued "... ELSE PASS" that cannot be played when its turn
// comes becomes a pass, and the player is told which line it was (never
// silently), in their language.
func TestQueuedElsePassIsTold(t *testing.T) {
	for _, lang := range []string{"en", "it", "fr", "nl"} {
		h := newHarness(t)
		h.org("NEW claim id=c1 seed=golden2\nPLAYER ann@example.test Ann " + lang + "\nPLAYER bob@example.test Bob " + lang + "\nPLAYER cat@example.test Cat " + lang)
		for _, p := range []string{ann, bob, cat} {
			h.send("c1", p, "JOIN", -1)
		}
		h.mails()
		gm := h.game("c1")
		p0, p1 := gm.Seats[0].Address, gm.Seats[1].Address
		h.send("c1", p1, "CLAIM 5 ELSE PASS", -1)
		contains(t, h.mailTo(h.mails(), p1).Body, "CLAIM 5 ELSE PASS")
		h.send("c1", p0, "CLAIM 5", -1)
		body := h.mailTo(h.mails(), p1).Body
		want := map[string]string{"en": `Your queued line "CLAIM 5 ELSE PASS" could not be played`,
			"it": `La tua riga in coda "CLAIM 5 ELSE PASS" non si poteva giocare`,
			"fr": "Votre ligne en attente « CLAIM 5 ELSE PASS » ne pouvait pas",
			"nl": `Je geplande regel "CLAIM 5 ELSE PASS" kon niet gespeeld`}[lang]
		if !strings.Contains(strings.Join(strings.Fields(body), " "), want) {
			t.Errorf("%s: the pass is not explained:\n%s", lang, body)
		}
		// The reason is the rule's sentence, with the rule (issue 12.6).
		if !strings.Contains(body, "(CL-2)") || strings.Contains(body, "space_taken") {
			t.Errorf("%s: the pass does not cite the rule:\n%s", lang, body)
		}
		for _, l := range strings.Split(body, "\n") {
			if n := len([]rune(l)); n > 80 {
				t.Errorf("%s: %d columns: %s", lang, n, l)
			}
		}
	}
}
