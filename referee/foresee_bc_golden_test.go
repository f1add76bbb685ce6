package referee

import (
	"strings"
	"testing"
)

// collabWords are "B COLLAB H" as a reader of each language writes it.
var collabWords = map[string]string{"en": "B COLLAB H", "it": "BIRRIFICIO COLLABORA H",
	"fr": "BRASSERIE COLLABORER H", "nl": "BROUWERIJ SAMENWERK H"}

// Issue 12.6 for Brew Crafters, in four languages: a Brewery action sent
// while the other seat places, which can never be played (Collaboration
// does not exist with 2 players, BC-3.4), is refused when the mail
// arrives, with the rule's sentence and never the raw code, and nothing is
// queued; written in the reader's words (issue 12.7).
func TestGoldenBrewCraftersForeseen(t *testing.T) {
	eachLanguage(t, "foresee_bc", func(g *golden) {
		h, l := g.h, g.lang
		h.org("NEW brewcrafters id=b1 seed=fg1 deadline=48h\n" +
			"PLAYER ann@example.test Ann " + l + "\n" +
			"PLAYER bob@example.test Bob " + l)
		h.send("b1", ann, "JOIN", -1)
		h.send("b1", bob, "JOIN", -1)
		h.mails()
		tb := h.table("b1")
		gm := h.game("b1")
		waiting := tb.Waiting()[0].Seat
		other := gm.Seats[1-waiting].Address
		before := tb.Token()
		h.send("b1", other, collabWords[l], -1)
		m := g.take("a Brewery action that can never be played, refused at arrival", other)
		body := g.pick(m, other).Body
		if !strings.Contains(body, "(BC-3.4)") || strings.Contains(body, "no_collab_2p") {
			g.t.Errorf("%s: no rule sentence, or the raw code:\n%s", l, body)
		}
		if h.table("b1").Token() != before || len(h.table("b1").Queues[1-waiting]) != 0 {
			g.t.Errorf("%s: a refused line was applied or queued", l)
		}
	})
}
