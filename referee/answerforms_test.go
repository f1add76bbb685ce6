package referee

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/referee/reading"
	"github.com/pbem-referee/referee/templates"
)

// answerLang is how a player of one language writes around an answer: the
// word before an option number, a greeting, a thanks and a please (issue
// 20; the referee reads them from templates/referee/<lang>/answers.txt,
// these are a person's choices, written here independently).
type answerLang struct {
	option, hello, thanks, please string
}

// asks are the words of the question asked about a word one edit from
// several keywords (answer.ask).
var asks = map[string]string{"en": "did you mean", "it": "intendevi", "fr": "vouliez-vous dire", "nl": "bedoelde je"}

// reads start the note on a typo read as a keyword (answer.read_as).
var reads = map[string]string{"en": `I read "`, "it": `ho letto "`, "fr": "j'ai lu « ", "nl": `ik las "`}

var answerLangs = map[string]answerLang{
	"en": {"option", "Hi!", "thanks", "please"},
	"it": {"opzione", "Ciao,", "grazie", "per favore"},
	"fr": {"choix", "Bonjour,", "merci", "svp"},
	"nl": {"optie", "Hallo,", "bedankt", "alsjeblieft"},
}

// numberForms are the ways a person answers "option n" of a numbered menu
// (issue 20): n and the menu line as shown (command and description).
var numberForms = []struct {
	name string
	make func(l answerLang, n int, line string) string
}{
	{"bare", func(_ answerLang, n int, _ string) string { return fmt.Sprint(n) }},
	{"dot", func(_ answerLang, n int, _ string) string { return fmt.Sprintf("%d.", n) }},
	{"paren", func(_ answerLang, n int, _ string) string { return fmt.Sprintf("%d)", n) }},
	{"hash", func(_ answerLang, n int, _ string) string { return fmt.Sprintf("#%d", n) }},
	{"brackets", func(_ answerLang, n int, _ string) string { return fmt.Sprintf("(%d)", n) }},
	{"smartquotes", func(_ answerLang, n int, _ string) string { return fmt.Sprintf("“%d”", n) }},
	{"quotes", func(_ answerLang, n int, _ string) string { return fmt.Sprintf("\"%d\"", n) }},
	{"word", func(l answerLang, n int, _ string) string { return fmt.Sprintf("%s %d", l.option, n) }},
	{"Word", func(l answerLang, n int, _ string) string { return fmt.Sprintf("%s %d", title(l.option), n) }},
	{"WORD", func(l answerLang, n int, _ string) string { return fmt.Sprintf("%s %d", strings.ToUpper(l.option), n) }},
	{"please", func(l answerLang, n int, _ string) string { return fmt.Sprintf("%d %s", n, l.please) }},
	{"dash-thanks", func(l answerLang, n int, _ string) string { return fmt.Sprintf("%d - %s", n, l.thanks) }},
	{"hello", func(l answerLang, n int, _ string) string { return fmt.Sprintf("%s %d", l.hello, n) }},
	{"glued-hello", func(l answerLang, n int, _ string) string { return fmt.Sprintf("%s%d", l.hello, n) }},
	{"emoji", func(_ answerLang, n int, _ string) string { return fmt.Sprintf("%d 👍", n) }},
	{"bang", func(_ answerLang, n int, _ string) string { return fmt.Sprintf("%d!", n) }},
	{"copied", func(_ answerLang, n int, line string) string { return fmt.Sprintf("%d) %s", n, line) }},
	{"copied-indented", func(_ answerLang, n int, line string) string { return fmt.Sprintf("  %d) %s", n, line) }},
	{"copied-bare", func(_ answerLang, n int, line string) string {
		cmd, _, _ := strings.Cut(line, "#")
		return fmt.Sprintf("%d) %s", n, strings.TrimSpace(cmd))
	}},
	{"word-hello-thanks", func(l answerLang, n int, _ string) string {
		return fmt.Sprintf("%s %s %d - %s", l.hello, l.option, n, l.thanks)
	}},
}

// commandForms are the ways a person writes a command line: the case of
// the keyword, punctuation, a greeting or thanks on the line, emoji.
var commandForms = []struct {
	name string
	make func(l answerLang, cmd string) string
}{
	{"as-is", func(_ answerLang, c string) string { return c }},
	{"lower", func(_ answerLang, c string) string { return strings.ToLower(c) }},
	{"Title", func(_ answerLang, c string) string { return titleKeyword(c) }},
	{"dot", func(_ answerLang, c string) string { return c + "." }},
	{"bang", func(_ answerLang, c string) string { return c + "!" }},
	{"hello", func(l answerLang, c string) string { return l.hello + " " + c }},
	{"glued-hello", func(l answerLang, c string) string { return l.hello + c }},
	{"dash-thanks", func(l answerLang, c string) string { return c + " - " + l.thanks }},
	{"emoji", func(_ answerLang, c string) string { return c + " 🙂" }},
	{"typo", func(_ answerLang, c string) string { return typoKeyword(c) }},
}

func title(s string) string {
	r := []rune(s)
	return string(unicode.ToUpper(r[0])) + string(r[1:])
}

// titleKeyword writes the keyword of a command in Title case ("Pass").
func titleKeyword(c string) string {
	kw, rest, _ := strings.Cut(c, " ")
	kw = title(strings.ToLower(kw))
	if rest != "" {
		return kw + " " + rest
	}
	return kw
}

// typoKeyword swaps the 2nd and 3rd letters of a keyword of 4 letters or
// more ("PSAS"), a transposition: one edit.
func typoKeyword(c string) string {
	kw, rest, _ := strings.Cut(c, " ")
	r := []rune(kw)
	if len(r) < 4 || r[1] == r[2] {
		return c
	}
	r[1], r[2] = r[2], r[1]
	if rest != "" {
		return string(r) + " " + rest
	}
	return string(r)
}

// formRun plays one whole two-player game through the referee's mail
// pipeline, every answer written in the next form (numbered prompts:
// numberForms; others, and the moves a bot makes without a menu:
// commandForms), and returns how many answers of each form were applied.
// Every answer must be applied or queued; a typo must be said in the echo.
func formRun(t *testing.T, game, lang string, moves int) map[string]int {
	t.Helper()
	h := newHarness(t)
	h.org("NEW " + game + " id=w1 deadline=48h seed=forms1\nPLAYER ann@example.test Ann " + lang + "\nPLAYER bob@example.test Bob " + lang)
	h.send("w1", ann, "JOIN", -1)
	h.send("w1", bob, "JOIN", -1)
	h.mails()
	eg, _ := engine.Lookup(game)
	bot, err := eg.(engine.BotMaker).NewBot(eg.Info().Bots[0])
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	l := answerLangs[lang]
	done, failed := map[string]int{}, map[string]string{}
	nf, cf := 0, 0
	for n := 0; n < moves && h.game("w1").Status == StatusRunning; n++ {
		tb := h.table("w1")
		d := tb.Prompts[tb.Waiting()[0].Seat].Decision
		p := tb.Prompts[d.Seat]
		gm := h.game("w1")
		opts := tb.State.Legal(d)
		i := bot.Choose(tb.State, d, opts, rng)
		cmd, form, shownCmd := opts[i].Cmd, "", ""
		rd := Reader{Game: game, Lang: lang, Seat: d.Seat, Seats: gm.Names()}
		if p.Numbered && n%2 == 0 {
			text, err := h.r.render.Prompt(rd, p, tb.State.View(d.Seat))
			if err != nil {
				t.Fatal(err)
			}
			if line := wholeOption(text, i+1); line != "" {
				f := numberForms[nf%len(numberForms)]
				nf++
				cmd, form = f.make(l, i+1, line), "number/"+f.name
			}
		}
		if form == "" {
			f := commandForms[cf%len(commandForms)]
			cf++
			shown := h.r.render.ctx(rd, nil).KwLine(cmd)
			if p.Numbered {
				// The menu's command, as shown (its description left out).
				text, err := h.r.render.Prompt(rd, p, tb.State.View(d.Seat))
				if err != nil {
					t.Fatal(err)
				}
				if line := wholeOption(text, i+1); line != "" {
					c, _, _ := strings.Cut(line, "#")
					shown = strings.TrimSpace(c)
				}
			}
			cmd, form, shownCmd = f.make(l, shown), "command/"+f.name, shown
		}
		h.clock.Advance(2 * time.Minute)
		addr := gm.Seats[d.Seat].Address
		out := h.send("w1", addr, cmd, tb.Token())
		body := ""
		if m := h.mails(); len(m) > 0 {
			for _, x := range m {
				if x.To == addr {
					body += x.Body
				}
			}
		}
		for _, bl := range strings.Split(body, "\n") {
			if n := len([]rune(bl)); n > 80 {
				t.Errorf("%s %s %q: a line of %d columns: %q", lang, form, cmd, n, bl)
			}
		}
		if lang != "en" {
			for _, en := range []string{"I read \"", "did you mean", "About some lines", "I ignored"} {
				if strings.Contains(body, en) {
					t.Errorf("%s %s %q: English %q in the reply:\n%s", lang, form, cmd, en, body)
				}
			}
		}
		if form == "command/typo" && cmd != shownCmd {
			typo, _, _ := strings.Cut(cmd, " ")
			if out.Status == "rejected" && strings.Contains(body, typo) && strings.Contains(body, asks[lang]) {
				// One edit from several keywords: asked, nothing played.
				done["command/typo-asked"]++
				continue
			}
			if !strings.Contains(body, reads[lang]+typo) {
				t.Errorf("%s: the echo of %q does not say how the typo was read:\n%s", lang, cmd, body)
			}
		}
		if out.Status != "applied" && out.Status != "queued" {
			if failed[form] == "" {
				failed[form] = fmt.Sprintf("%q: %s %s\n%s", cmd, out.Status, out.Detail, body)
			}
			done["FAILED"]++
			continue
		}
		done[form]++
	}
	for form, why := range failed {
		t.Errorf("%s %s %s not played: %s", game, lang, form, why)
	}
	return done
}

// Issue 20: every answer form (numbered-menu forms and command forms) in
// every language over whole games of all four games, through the referee's
// mail pipeline: each is applied or queued.
func TestEveryAnswerFormIsPlayed(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	if raceEnabled {
		t.Skip("whole games by mail in one goroutine: make check runs it without -race (make content)")
	}
	total := 0
	for _, game := range []string{"dicebrewing", "heavenale", "brewcrafters", "fromage"} {
		for _, lang := range []string{"en", "it", "fr", "nl"} {
			t.Run(game+"/"+lang, func(t *testing.T) {
				done := formRun(t, game, lang, 160)
				n := 0
				for _, c := range done {
					n += c
				}
				total += n
				t.Logf("%d answers: %v", n, done)
			})
		}
	}
	t.Logf("%d answers in all", total)
}

// The cost of reading a typical reply's lines with a game's whole
// vocabulary (every keyword and alias of four languages), once the reader
// is built.
func BenchmarkAnswerReading(b *testing.B) {
	h := newHarness(b)
	eg, _ := engine.Lookup("dicebrewing")
	ar := reading.Reader(h.r.vocab(eg, "dicebrewing"))
	text := "Hi!\nplcae HP1 SEED\n2) PLACE HP1 SEED   # costs 2\nopzione 3 - grazie\nPASS - cheers\n\nThanks a lot, see you"
	b.ReportAllocs()
	for b.Loop() {
		ar.Read(text)
	}
}

// The chat and common words of every language (answers.txt) are never
// read as a mistyped keyword of any game, alone on a line or with a comma
// or "!" after them, in any case; and a keyword of the game is never chat.
func TestChatAndCommonWordsAreNoTypos(t *testing.T) {
	h := newHarness(t)
	for _, g := range engine.Games() {
		ar := reading.Reader(h.r.vocab(g, g.Info().Name))
		for _, lang := range templates.Languages {
			for _, kind := range []string{"chat", "words"} {
				for _, w := range h.r.render.T.List("referee", lang, kind) {
					for _, line := range []string{w, title(w) + ",", strings.ToUpper(w) + "!"} {
						if l := ar.Line(line); l.Typo != "" || l.Kind == mailfmt.AnswerAsk || kind == "chat" && l.Kind != mailfmt.AnswerChat {
							t.Errorf("%s: %s %s word %q read as %+v", g.Info().Name, lang, kind, line, l)
						}
					}
				}
			}
		}
		for _, c := range g.Info().Commands {
			if l := ar.Line(c); l.Kind != mailfmt.AnswerCommand || l.Keyword != strings.ToUpper(c) {
				t.Errorf("%s: keyword %q read as %+v", g.Info().Name, c, l)
			}
		}
	}
}
