package referee

import (
	"github.com/pbem-referee/referee/referee/tell"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/templates"
)

// elsePassWords are ELSE PASS as a reader of each language writes it.
var elsePassWords = map[string]string{"en": "ELSE PASS", "it": "ALTRIMENTI PASSA", "fr": "SINON PASSE", "nl": "ANDERS PAS"}

// placeTurn plays the default of whatever Dice Brewing asks before a
// placement turn (the W0 token window) and returns the address of the seat
// whose placement turn it is.
func placeTurn(t *testing.T, h *harness, id string) string {
	t.Helper()
	for i := 0; i < 10; i++ {
		tb := h.table(id)
		for s, p := range tb.Prompts {
			if p == nil {
				continue
			}
			addr := h.game(id).Seats[s].Address
			if p.Decision.Kind == "place" {
				return addr
			}
			h.send(id, addr, p.Decision.Default, -1)
			h.mails()
		}
	}
	t.Fatal("no placement turn")
	return ""
}

// Issue 12.6 through the referee, in four languages: what is known to fail
// is told when the mail arrives, with the rule's sentence (never "ok" that
// later turns into "dropped", never a raw code), and a queued line that
// ELSE PASS turned into a pass says why.
func TestGoldenForeseenFailures(t *testing.T) {
	eachLanguage(t, "foresee", func(g *golden) {
		h, l := g.h, g.lang
		h.org("NEW dicebrewing id=d1 seed=fs1 deadline=48h\n" +
			"PLAYER ann@example.test Ann " + l + "\n" +
			"PLAYER bob@example.test Bob " + l)
		h.send("d1", ann, "JOIN", -1)
		h.send("d1", bob, "JOIN", -1)
		h.mails()
		first := placeTurn(t, h, "d1")
		other := ann
		if first == ann {
			other = bob
		}
		before := h.table("d1").Token()
		// One seed, two seed items: the second fails whatever happens,
		// as the first resolves without a roll (DB-5.3.4).
		h.send("d1", first, "PLACE MH1 SEED, HP1 SEED", -1)
		m := g.take("a two-item PLACE whose second item the first makes illegal", first)
		// A queued line that no position makes legal: HP1 takes a seed.
		h.send("d1", other, "PLACE HP1 G6 "+elsePassWords[l], -1)
		m2 := g.take("a queued PLACE ... ELSE PASS that can never be played", other)
		if h.table("d1").Token() != before || len(h.table("d1").Queues[0])+len(h.table("d1").Queues[1]) != 0 {
			g.t.Fatalf("%s: a refused line was applied or queued", l)
		}
		for _, body := range []string{g.pick(m, first).Body, g.pick(m2, other).Body} {
			if !strings.Contains(body, "(DB-") {
				g.t.Errorf("%s: no rule cited:\n%s", l, body)
			}
			for _, raw := range []string{"no_seed", "wrong_item", "building_closed", "space_full", "space_used"} {
				if strings.Contains(body, raw) {
					g.t.Errorf("%s: raw code %s:\n%s", l, raw, body)
				}
			}
		}
		if !strings.Contains(g.pick(m2, other).Body, "(DB-5.5.4)") {
			g.t.Errorf("%s: HP1's rule is not cited:\n%s", l, g.pick(m2, other).Body)
		}
		// A line that may still be legal is queued; when its turn comes
		// the space is full, and its ELSE PASS passes, with the rule.
		h.send("d1", other, "PLACE MH1 SEED "+elsePassWords[l], -1)
		h.mails()
		h.send("d1", first, "PLACE MH1 SEED", -1)
		ms := g.take("the queued line became a pass: why, with the rule", other, "update", "reply", "news")
		body := g.pick(ms, other).Body
		if !strings.Contains(body, "(DB-5.4.3)") || strings.Contains(body, "space_full") {
			g.t.Errorf("%s: the pass does not cite DB-5.4.3:\n%s", l, body)
		}
	})
}

// A line played in part (Dice Brewing's second item dropped after a roll,
// DB-5.3.4) has a word of its own in every language, with the reason
// under it: never "ok".
func TestPartialLineWording(t *testing.T) {
	r, err := NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range templates.Languages {
		d := &tell.MailData{Game: "d1", Title: "Dice Brewing", Name: "Ann", Token: 7, Status: "running", Kind: "reply",
			Reply: &tell.ReplyView{Lines: []tell.ReplyLineView{{Status: "partial", Text: "PLACE SS1 B4 REROLL Y3, MH3 Y3",
				Errors: []string{"No Y3 die. (DB-5.3.4)"}}}}}
		out, err := r.T.Render("referee", lang, "mail.game", templates.Ctx{Lang: lang, Seats: []string{"Ann", "Bob"}, Data: d})
		if err != nil {
			t.Fatal(err)
		}
		line := ""
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "PLACE SS1") {
				line = l
			}
		}
		if f := strings.Fields(line); len(f) == 0 || f[0] == "ok" || f[0] == "partial" || !strings.Contains(out, "(DB-5.3.4)") {
			t.Errorf("%s: %q\n%s", lang, line, out)
		}
	}
}
