package referee

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/store"
	"github.com/pbem-referee/referee/templates"
)

// readingLayouts are the ways a player's own text is laid out around the
// answers (issue 25: the reading of a mail must not change when it moves
// rooms): alone, after a greeting and before a sign-off the transport
// took off, between chat lines, with a second answer, with a line the
// reader asks about or hints at, and with a free-text SAY.
var readingLayouts = []struct {
	name string
	make func(l answerLang, answer, cmd string) (string, *ReadInfo)
}{
	{"alone", func(_ answerLang, a, _ string) (string, *ReadInfo) { return a, nil }},
	{"greeted", func(l answerLang, a, _ string) (string, *ReadInfo) {
		return a, &ReadInfo{Lines: 1, Quote: true, Greeting: []string{l.hello}, SignOff: []string{l.thanks, "Ann"}}
	}},
	{"chat-around", func(l answerLang, a, _ string) (string, *ReadInfo) {
		return l.hello + "\n" + a + "\n" + l.thanks + ", see you soon", &ReadInfo{Lines: 3}
	}},
	{"two-answers", func(_ answerLang, a, cmd string) (string, *ReadInfo) { return a + "\n\n" + cmd + " # again", nil }},
	{"else-pass", func(l answerLang, _, cmd string) (string, *ReadInfo) {
		return cmd + " " + elseWords[l.option] + " # or pass", nil
	}},
	{"hint", func(l answerLang, a, _ string) (string, *ReadInfo) {
		return "I take " + l.option + " 2 " + l.please + "\n" + a, nil
	}},
	{"ask", func(_ answerLang, a, _ string) (string, *ReadInfo) { return "PASE\n" + a, nil }},
	{"say", func(l answerLang, a, _ string) (string, *ReadInfo) {
		return a + "\nSAY " + l.hello + " option 2 PASS", nil
	}},
}

// elseWords is ELSE PASS as a player of each language writes it, by the
// language's option word.
var elseWords = map[string]string{"option": "ELSE PASS", "opzione": "ALTRIMENTI PASSA", "choix": "SINON PASSE", "optie": "ANDERS PAS"}

// TestSeatReadingGolden reads a generated variety of seat mails (every
// game x language x answer form x layout) at a game's first decision and
// compares what the reading made of each (the orders for the engine, the
// lines ignored, the notes) with testdata/reading.golden, written from
// the reading before it moved to its own package (issue 25): the answers
// are read the same. -update rewrites the file.
func TestSeatReadingGolden(t *testing.T) {
	var b strings.Builder
	cases := 0
	for _, g := range engine.Games() {
		game := g.Info().Name
		if game == "toy" {
			continue
		}
		for _, lang := range templates.Languages {
			h := newHarness(t)
			h.org("NEW " + game + " id=w1 deadline=48h seed=read1\nPLAYER ann@example.test Ann " + lang + "\nPLAYER bob@example.test Bob " + lang)
			h.send("w1", ann, "JOIN", -1)
			h.send("w1", bob, "JOIN", -1)
			tb := h.table("w1")
			d := tb.Prompts[tb.Waiting()[0].Seat].Decision
			p := tb.Prompts[d.Seat]
			gm := h.game("w1")
			rd := Reader{Game: game, Lang: lang, Seat: d.Seat, Seats: gm.Names()}
			opts := tb.State.Legal(d)
			i := min(1, len(opts)-1)
			cmd := h.r.render.ctx(rd, nil).KwLine(opts[i].Cmd)
			line := cmd
			if p.Numbered {
				text, err := h.r.render.Prompt(rd, p, tb.State.View(d.Seat))
				if err != nil {
					t.Fatal(err)
				}
				if l := wholeOption(text, i+1); l != "" {
					line = l
				}
			}
			l := answerLangs[lang]
			var answers [][2]string
			for _, f := range numberForms {
				answers = append(answers, [2]string{"number/" + f.name, f.make(l, i+1, line)})
			}
			for _, f := range commandForms {
				answers = append(answers, [2]string{"command/" + f.name, f.make(l, cmd)})
			}
			err := h.db.View(func(tx *store.Tx) error {
				w := h.r.newWork(tx, h.clock.Now())
				gw, err := w.game("w1")
				if err != nil {
					return err
				}
				for _, a := range answers {
					for _, lay := range readingLayouts {
						text, info := lay.make(l, a[1], cmd)
						req := &Request{Kind: KindSeat, Game: "w1", Seat: d.Seat, Text: text, Read: info}
						fmt.Fprintf(&b, "== %s %s %s %s\n%q\n%s", game, lang, a[0], lay.name, text, dumpSeatReading(seatMail{gw}, d.Seat, req))
						cases++
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if cases < 5*4*30*len(readingLayouts) {
		t.Fatalf("only %d cases read", cases)
	}
	path := filepath.Join("testdata", "reading.golden")
	if *updateGolden {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for k := range min(len(gl), len(wl)) {
			if gl[k] != wl[k] {
				t.Fatalf("%d cases; the reading differs from %s at line %d:\n got %s\nwant %s", cases, path, k+1, gl[k], wl[k])
			}
		}
		t.Fatalf("the reading differs from %s in length: %d lines, want %d", path, len(gl), len(wl))
	}
	t.Logf("%d cases read as before", cases)
}

// dumpSeatReading is what the reading made of a seat's mail, one fact a
// line.
func dumpSeatReading(gw seatMail, seat int, req *Request) string {
	ans := gw.readAnswers(seat, req)
	orders := ans.Orders
	var b strings.Builder
	for _, o := range orders {
		fmt.Fprintf(&b, "order %d %q alts=%q copied=%q else=%v\n", o.Line, o.Text, o.Alts, o.Copied, o.ElsePass)
	}
	for _, s := range ans.Ignored {
		fmt.Fprintf(&b, "ignored %q\n", s)
	}
	for _, s := range gw.noteTexts(seat, ans.Notes) {
		fmt.Fprintf(&b, "note %q\n", s)
	}
	if req.Read != nil {
		fmt.Fprintf(&b, "lines %d\n", req.Read.Lines)
	}
	return b.String()
}
