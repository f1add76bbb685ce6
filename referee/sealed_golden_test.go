package referee

import (
	"github.com/pbem-referee/referee/referee/tell"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/templates"
)

// Fromage sealed turns say the truth (issue 12 point 8): a seat whose moves
// were revealed and who ended the turn with DONE is told that its turn is
// played and ended, not shown a lone "sealed answer so far: DONE"; a line
// that a rule refuses still says it could not be played.
func TestGoldenFromageSealedTurn(t *testing.T) {
	eachLanguage(t, "sealed", func(g *golden) {
		h, l := g.h, g.lang
		h.org("NEW fromage id=f1 seed=x1 deadline=24h\n" +
			"PLAYER ann@example.test Ann " + l + "\n" +
			"PLAYER bob@example.test Bob " + l)
		h.send("f1", ann, "JOIN", -1)
		h.mails()
		h.send("f1", bob, "JOIN", -1)
		h.mails()
		// Ann's MAKE D4 needs the soft worker her GATHER sends away: her
		// own mistake, found at the reveal.
		h.send("f1", ann, "GATHER 2 soft\nMAKE D4\nDONE", -1)
		g.take("a whole sealed turn", ann)
		h.send("f1", bob, "GATHER 2 soft\nDONE", -1)
		ms := h.mails()
		bm := g.pick(ms, bob)
		g.record("after the reveal: moves played, the turn ended with DONE", bm)
		am := g.pick(ms, ann)
		g.record("after the reveal: a line refused by a rule", am)
		if !strings.Contains(bm.Body, "DONE") || strings.Contains(bm.Body, sealedSoFar[l]+" DONE") {
			g.t.Errorf("%s: Bob's mail still shows a lone sealed DONE:\n%s", l, bm.Body)
		}
		if !strings.Contains(am.Body, couldNotBePlayed[l]) {
			g.t.Errorf("%s: a refused line must say it could not be played:\n%s", l, am.Body)
		}
		h.send("f1", ann, "DONE", -1)
		ms = h.mails()
		g.record("the turn report after the last DONE", g.pick(ms, bob))
	})
}

var sealedSoFar = map[string]string{"en": "Your sealed answer so far:", "it": "La tua risposta segreta finora:",
	"fr": "Votre réponse scellée jusqu'ici :", "nl": "Je geheime antwoord tot nu toe:"}

var couldNotBePlayed = map[string]string{"en": "could not be played", "it": "Non è stato possibile giocare",
	"fr": "n'a pas pu être jouée", "nl": "kon niet gespeeld worden"}

// A queued line stopped because the game asks something the plan could not
// foresee (every reason is wrong_decision) is not worded as an error, in
// every language; the set-aside lines are still listed.
func TestUnforeseenQuestionIsNotAnError(t *testing.T) {
	r, err := NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range templates.Languages {
		for _, unforeseen := range []bool{true, false} {
			d := &tell.MailData{Game: "f1", Title: "Fromage", Name: "Ann", Token: 7, Status: "running", Kind: "update",
				Prompt: "Take a resource.", Halt: &tell.HaltView{Line: "MAKE D7", Errors: []string{"That does not answer the question."},
					SetAside: []string{"DONE"}, Unforeseen: unforeseen}}
			out, err := r.T.Render("referee", lang, "mail.game", templates.Ctx{Lang: lang, Seats: []string{"Ann", "Bob"}, Data: d})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(out, couldNotBePlayed[lang]); got == unforeseen {
				t.Errorf("%s unforeseen=%v: error wording shown=%v:\n%s", lang, unforeseen, got, out)
			}
			if !strings.Contains(out, "MAKE D7") || !strings.Contains(out, "  DONE") {
				t.Errorf("%s: the line or the set-aside lines are missing:\n%s", lang, out)
			}
			for _, line := range strings.Split(out, "\n") {
				if n := len([]rune(line)); n > 80 {
					t.Errorf("%s: %d columns: %q", lang, n, line)
				}
			}
		}
	}
}
