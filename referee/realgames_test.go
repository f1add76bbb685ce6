package referee

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
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
			mails := 0
			var ms []*Outgoing // the last batch: the end of the game
			bg := h.newBotGame("r1", 1, 1, 2)
			bg.Limit = c.max
			bg.Mails = func(batch []*Outgoing) {
				mails += len(batch)
				if c.game == "heavenale" {
					checkMailWidth(t, batch)
				}
				ms = batch
			}
			bg.play()
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
			t.Logf("%s: %d moves, %d mails", c.game, h.table("r1").Token(), mails)
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
