package referee

import (
	"strings"
	"testing"
)

// Issue 12 point 8 with a real Fromage position (arrangement A of the
// engine's tests: venues CFDB, fixed boards, the second seat facing the
// Dairy Shop): the second seat mails "MAKE D7 / GATHER 1 hard / DONE".
// D7's shelf asks for resources once the first step is revealed, a
// question the plan does not answer: the queued GATHER stops (every
// reason is wrong_decision). The player did nothing wrong, and the mail
// says so in every language: never "could not be played".
func TestGoldenFromageUnforeseenQuestion(t *testing.T) {
	eachLanguage(t, "unforeseen", func(g *golden) {
		h, l := g.h, g.lang
		h.org("NEW fromage id=f1 seed=arrangement-a venues=CFDB tile=structure boards=fixed deadline=24h\n" +
			"PLAYER ann@example.test Ann " + l + "\n" +
			"PLAYER bob@example.test Bob " + l)
		h.send("f1", ann, "JOIN", -1)
		h.send("f1", bob, "JOIN", -1)
		h.mails()
		gm := h.game("f1")
		p0, p1 := gm.Seats[0].Address, gm.Seats[1].Address
		h.send("f1", p1, "MAKE D7\nGATHER 1 hard\nDONE", -1)
		g.take("a whole turn whose first step raises a question", p1)
		h.send("f1", p0, "DONE", -1)
		ms := h.mails()
		m := g.pick(ms, p1)
		g.record("after the reveal: a question the plan does not answer", m)
		tb := h.table("f1")
		hl := tb.Halts[1]
		if hl == nil || len(hl.Errors) == 0 {
			g.t.Fatalf("%s: no halt for the second seat: %+v", l, tb.Prompts[1])
		}
		for _, e := range hl.Errors {
			if e.Code != "wrong_decision" {
				g.t.Fatalf("%s: the halt is a rule's refusal (%s), not a question", l, e.Code)
			}
		}
		if p := tb.Prompts[1]; p == nil || p.Decision.Kind != "take" {
			g.t.Fatalf("%s: the second seat is not asked to take resources: %+v", l, p)
		}
		if strings.Contains(m.Body, couldNotBePlayed[l]) || strings.Contains(m.Body, "wrong_decision") {
			g.t.Errorf("%s: error wording for a question the plan did not answer:\n%s", l, m.Body)
		}
		if !strings.Contains(m.Body, "GATHER 1 hard") || !strings.Contains(m.Body, unforeseenWords[l]) {
			g.t.Errorf("%s: the mail does not say what happened:\n%s", l, m.Body)
		}
		// The player answers the question and sends the rest again.
		h.send("f1", p1, "TAKE NONE\nGATHER 1 hard\nDONE", -1)
		g.take("the question answered, the rest sent again", p1)
	})
}

var unforeseenWords = map[string]string{"en": "nothing wrong on your part", "it": "nessun errore da parte tua",
	"fr": "aucune erreur de votre part", "nl": "je hebt niets fout gedaan"}
