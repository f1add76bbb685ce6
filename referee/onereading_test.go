package referee

import (
	"fmt"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/reading"
	"github.com/pbem-referee/referee/templates"
)

// readOnce sends a request with a Mail of its own and returns the Mail's
// parser runs: Process must read through that one Mail (a Mail made
// anywhere else leaves it unread), each form at most once.
func readOnce(h *harness, req Request) (Outcome, map[string]int) {
	h.t.Helper()
	var greeting, signOff []string
	if req.Read != nil {
		greeting, signOff = req.Read.Greeting, req.Read.SignOff
	}
	req.reading = reading.New(req.Text, greeting, signOff)
	out := h.sendAs(req)
	reads := req.reading.Reads()
	for form, n := range reads {
		if n > 1 {
			h.t.Errorf("%q (%s): the %s form read %d times (%v)", req.Text, out.Status, form, n, reads)
		}
	}
	return out, reads
}

// Rule (issue 25, one reading): a request's text is read once, by the
// reading room, into the one Mail every stage uses, whatever runs the
// unit of work again. A seat's mail whose speculation conflicts is
// processed twice (on the snapshot, then in the write transaction) and
// read once; the seat's mails of every game and language, in every answer
// form and layout, a player's and an untagged mail each read every form
// they need exactly once.
func TestOneReading(t *testing.T) {
	t.Run("speculation-rerun", func(t *testing.T) {
		h := newHarness(t)
		h.newToyGame("g1", ann, bob)
		h.mails()
		runs := 0
		h.r.specHook = func() {
			if runs++; runs == 1 {
				h.send("g1", bob, "SAY all: from bob", -1)
			}
		}
		g := h.game("g1")
		_, reads := readOnce(h, Request{From: ann, Kind: KindSeat, Game: "g1", Seat: 0, Secret: g.Seats[0].Secret, Token: -1,
			Text: "SAY all: from ann"})
		if runs < 2 {
			t.Fatalf("the speculation ran %d times: no rerun to test", runs)
		}
		if reads["seat"] != 1 || reads["digest"] != 1 {
			t.Errorf("reads %v: the seat's reading must be made once and shared by both runs", reads)
		}
	})
	t.Run("seat-mails", func(t *testing.T) {
		sent := 0
		for _, g := range engine.Games() {
			game := g.Info().Name
			for li, lang := range templates.Languages {
				h := newHarness(t)
				h.org("NEW " + game + " id=w1 deadline=48h seed=once1\nPLAYER ann@example.test Ann " + lang + "\nPLAYER bob@example.test Bob " + lang)
				h.send("w1", ann, "JOIN", -1)
				h.send("w1", bob, "JOIN", -1)
				l := answerLangs[lang]
				for k, lay := range readingLayouts {
					if h.game("w1").Status != StatusRunning {
						break
					}
					tb := h.table("w1")
					d := tb.Prompts[tb.Waiting()[0].Seat].Decision
					gm := h.game("w1")
					rd := Reader{Game: game, Lang: lang, Seat: d.Seat, Seats: gm.Names()}
					opts := tb.State.Legal(d)
					cmd := h.r.render.ctx(rd, nil).KwLine(opts[0].Cmd)
					answer := commandForms[(k+li)%len(commandForms)].make(l, cmd)
					if k%2 == 1 {
						answer = numberForms[(k+li)%len(numberForms)].make(l, 1, cmd)
					}
					text, info := lay.make(l, answer, cmd)
					out, reads := readOnce(h, Request{From: gm.Seats[d.Seat].Address, Kind: KindSeat, Game: "w1", Seat: d.Seat,
						Secret: gm.Seats[d.Seat].Secret, Token: tb.Token(), Text: text, Read: info})
					if reads["seat"] != 1 || reads["digest"] != 1 {
						t.Errorf("%s %s %s %q (%s): reads %v", game, lang, lay.name, text, out.Status, reads)
					}
					sent++
				}
			}
		}
		if sent < 4*4*len(readingLayouts) {
			t.Fatalf("only %d mails sent", sent)
		}
	})
	t.Run("player-and-untagged", func(t *testing.T) {
		h := newHarness(t)
		_, reads := readOnce(h, Request{From: dan, FromName: "Dan", Text: "REGISTER Dan en", Authenticated: true})
		if reads["script"] != 1 {
			t.Errorf("untagged: reads %v", reads)
		}
		secret := h.mailTo(h.mails(), dan).Tag.Secret
		for i, text := range []string{"LIST", "Hello!\nLIST\nthanks", "I am away until Monday.", fmt.Sprintf("LIST\nLIST\nHELP %d", 2)} {
			out, reads := readOnce(h, Request{From: dan, Kind: KindPlayer, Secret: secret, Text: text})
			if reads["script"] != 1 || reads["prose"] != 1 {
				t.Errorf("player mail %d %q (%s): reads %v", i, text, out.Status, reads)
			}
		}
	})
}
