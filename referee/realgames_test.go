package referee

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pbem-referee/referee/engine"
	_ "github.com/pbem-referee/referee/engine/brewcrafters"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	_ "github.com/pbem-referee/referee/engine/fromage"
	_ "github.com/pbem-referee/referee/engine/heavenale"
	"github.com/pbem-referee/referee/templates"
)

// Whole games of the real games through the referee: every seat's answer
// goes through Process as a player's message would (the greedy bot picks
// it), every mail is rendered in the players' languages, and at the end the
// published log replays.
func TestRealGamesThroughTheReferee(t *testing.T) {
	for _, c := range []struct {
		game    string
		players []string
		options string
		max     int
	}{
		{"dicebrewing", []string{"ann@example.test Ann en", "bob@example.test Bob it"}, "", 5000},
		{"fromage", []string{"ann@example.test Ann fr", "bob@example.test Bob nl", "cat@example.test Cat en"}, "", 3000},
		{"heavenale", []string{"ann@example.test Ann it", "bob@example.test Bob en", "cat@example.test Cat fr", "dan@example.test Dan nl"}, "", 3000},
		{"brewcrafters", []string{"ann@example.test Ann en", "bob@example.test Bob it", "cat@example.test Cat nl"}, "", 3000},
	} {
		t.Run(c.game, func(t *testing.T) {
			if testing.Short() {
				t.Skip("short")
			}
			h := newHarness(t)
			text := fmt.Sprintf("NEW %s id=r1 deadline=none %s\n", c.game, c.options)
			for _, p := range c.players {
				text += "PLAYER " + p + "\n"
			}
			h.org(text)
			for _, p := range c.players {
				h.send("r1", strings.Fields(p)[0], "JOIN", -1)
			}
			eg, _ := engine.Lookup(c.game)
			bot, err := eg.(engine.BotMaker).NewBot(eg.Info().Bots[1])
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			mails := 0
			for n := 0; h.game("r1").Status == StatusRunning; n++ {
				if n > c.max {
					t.Fatalf("no end after %d messages", n)
				}
				batch := h.mails()
				mails += len(batch)
				if c.game == "heavenale" {
					checkMailWidth(t, batch)
				}
				tb := h.table("r1")
				w := tb.Waiting()
				if len(w) == 0 {
					t.Fatalf("nobody waited at token %d", tb.Token())
				}
				d := tb.Prompts[w[0].Seat].Decision
				opts := tb.State.Legal(d)
				cmd := opts[bot.Choose(tb.State, d, opts, rng)].Cmd
				g := h.game("r1")
				h.clock.Advance(2 * time.Minute) // players take their time (and the rate limit holds)
				out := h.send("r1", g.Seats[d.Seat].Address, cmd, tb.Token())
				if out.Status != "applied" && out.Status != "queued" {
					t.Fatalf("%s: %q for %s: %+v", c.game, cmd, d.Kind, out)
				}
			}
			ms := h.mails()
			g := h.game("r1")
			if g.Status != StatusOver {
				t.Fatalf("status %s", g.Status)
			}
			for _, s := range g.Seats {
				m := h.mailTo(ms, s.Address)
				if len(m.Attachments) != 1 || !strings.Contains(m.Body, g.Seed) {
					t.Fatalf("final mail to %s lacks the log or the seed:\n%s", s.Address, m.Body)
				}
				var lg engine.Log
				if err := json.Unmarshal(m.Attachments[0].Data, &lg); err != nil {
					t.Fatal(err)
				}
				if _, err := engine.Replay(eg, lg); err != nil {
					t.Fatalf("replay: %v", err)
				}
			}
			t.Logf("%s: %d moves, %d mails", c.game, h.table("r1").Token(), mails+len(ms))
		})
	}
}

// checkMailWidth: every line of every mail fits the mail width (Heaven &
// Ale, issue 14: tested over a whole game in four languages).
func checkMailWidth(t *testing.T, ms []*Outgoing) {
	t.Helper()
	for _, m := range ms {
		if m.Kind == "org" || m.Kind == "invite" {
			continue // organiser mails quote hashes and addresses
		}
		for _, l := range strings.Split(m.Body, "\n") {
			if n := utf8.RuneCountInString(strings.TrimRight(l, "\r")); n > templates.Width {
				t.Fatalf("mail to %s: line of %d columns:\n%s", m.To, n, l)
			}
		}
	}
}
