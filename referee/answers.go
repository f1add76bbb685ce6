package referee

import (
	"fmt"
	"strings"
	"sync"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/templates"
)

// Answers as the player meant them (issue 20): every line of a seat's
// mail is read by mailfmt.AnswerReader with the game's keywords, the
// referee's, and the answer words of every language
// (templates/referee/<lang>/answers.txt). Each line then is, and the reply
// says which:
//
//   - a command or an option number, given to the engine and echoed as
//     applied, queued or refused with its reason; a keyword read from a
//     typo ("paas") is said in the reply (answer.read_as);
//   - chat ("Hi!", "thanks", a sentence), listed as ignored; a chat line
//     that holds what may be an answer says so (answer.hint: `line 3 "I
//     take option 2 please": did you mean 2?`);
//   - a word one edit from several keywords: left to the engine, which
//     refuses it, and the reply asks which was meant (answer.ask).
//
// A copied menu line ("2) PLACE HP1 SEED") is option 2 only when option 2
// is that command; when the number and the text disagree, neither is
// played (engine.CodeCopiedOption).

// answerReaders caches the reader of each game's answers, per template set.
var answerReaders sync.Map // answerKey -> *mailfmt.AnswerReader

type answerKey struct {
	set  *templates.Set
	game string
}

// answerReader returns the reader of a game's answers: the game's keywords
// and the referee's, with their aliases in every language.
func (r *Referee) answerReader(eg engine.Game, game string) *mailfmt.AnswerReader {
	t := r.render.T
	key := answerKey{t, game}
	if ar, ok := answerReaders.Load(key); ok {
		return ar.(*mailfmt.AnswerReader)
	}
	v := mailfmt.AnswerVocab{Keywords: map[string]string{}, FreeText: func(kw string) bool { return freeText[kw] }}
	for kw := range refereeCommands {
		v.Keywords[kw] = kw
	}
	for kw := range blockWords {
		v.Keywords[kw] = kw
	}
	for _, c := range eg.Info().Commands {
		v.Keywords[strings.ToUpper(c)] = strings.ToUpper(c)
	}
	for _, lang := range templates.Languages {
		v.Chat = append(v.Chat, t.List("referee", lang, "chat")...)
		v.Words = append(v.Words, t.List("referee", lang, "words")...)
		for _, scope := range []string{"common", "referee", game} {
			for alias, kw := range t.Aliases(scope, lang) {
				if _, ok := v.Keywords[alias]; !ok {
					v.Keywords[alias] = kw
				}
			}
		}
	}
	ar, _ := answerReaders.LoadOrStore(key, mailfmt.NewAnswerReader(v))
	return ar.(*mailfmt.AnswerReader)
}

// answers is what the reader made of a seat's mail.
type answers struct {
	// text is the mail's lines as the engine reads them (line numbers
	// kept); ignored the chat, in order; notes the reply's remarks about
	// single lines.
	text    string
	ignored []string
	notes   []string
	// lines are the lines read.
	lines []mailfmt.AnswerLine
}

// readAnswers reads a seat's mail (issue 20) and returns it for the
// engine, with the greetings and sign-offs the mail reader removed and
// every chat part of a line listed as ignored.
func (gw seatMail) readAnswers(seat int, req *Request) *answers {
	ar := gw.w.r.answerReader(gw.eg, gw.g.Game)
	a := &answers{lines: ar.Read(req.Text)}
	out := make([]string, len(a.lines))
	var chat []string
	for i, l := range a.lines {
		switch l.Kind {
		case mailfmt.AnswerCommand:
			out[i] = l.Text
		case mailfmt.AnswerOption:
			out[i] = fmt.Sprint(l.Option)
		case mailfmt.AnswerAsk:
			out[i] = l.Raw
			a.notes = append(a.notes, gw.text(seat, "answer.ask", map[string]any{"line": l.Line, "raw": clipLine(l.Raw, 40),
				"candidates": gw.localWords(seat, l.Candidates)}))
		case mailfmt.AnswerChat:
			chat = append(chat, l.Raw)
		}
		if l.Kind == mailfmt.AnswerCommand || l.Kind == mailfmt.AnswerOption {
			chat = append(chat, l.Chat...)
		}
		if l.Typo != "" {
			a.notes = append(a.notes, gw.text(seat, "answer.read_as", map[string]any{"line": l.Line, "typo": l.Typo,
				"kw": gw.localWords(seat, []string{l.Keyword})[0]}))
		}
		if l.Hint != "" {
			a.notes = append(a.notes, gw.text(seat, "answer.hint", map[string]any{"line": l.Line, "raw": clipLine(l.Raw, 40),
				"hint": gw.localLine(seat, l.Hint)}))
		}
	}
	a.text = strings.Join(out, "\n")
	if rd := req.Read; rd != nil {
		a.ignored = append(a.ignored, rd.Greeting...)
		a.ignored = append(a.ignored, chat...)
		a.ignored = append(a.ignored, rd.SignOff...)
		if n := countChatLines(a.lines); n > 0 {
			c := *rd
			c.Lines = max(0, c.Lines-n)
			req.Read = &c
		}
	} else {
		a.ignored = chat
	}
	for i, l := range a.ignored {
		a.ignored[i] = clipLine(l, 70)
	}
	return a
}

func countChatLines(lines []mailfmt.AnswerLine) int {
	n := 0
	for _, l := range lines {
		if l.Kind == mailfmt.AnswerChat {
			n++
		}
	}
	return n
}

// attach gives the orders read from option lines the command copied with
// their number, in the engine's words, and the line as written for the
// echo.
func (a *answers) attach(gw seatMail, lang string, orders []engine.Order) {
	for i := range orders {
		n := orders[i].Line - 1
		if n < 0 || n >= len(a.lines) {
			continue
		}
		l := a.lines[n]
		if l.Kind == mailfmt.AnswerOption && l.Copied != "" {
			orders[i].Copied = gw.canonLine(lang, l.Copied)
		}
		if l.Kind == mailfmt.AnswerOption || l.Typo != "" {
			orders[i].Text = clipLine(cutChat(l), 70)
		}
	}
}

// cutChat is a line as written without the chat around its answer
// ("option 2", "2) PLACE HP1 SEED", "paas").
func cutChat(l mailfmt.AnswerLine) string {
	s := l.Raw
	if k := strings.Index(s, " #"); k >= 0 {
		s = strings.TrimSpace(s[:k])
	}
	for _, c := range l.Chat {
		if strings.HasPrefix(s, c) {
			s = strings.TrimSpace(s[len(c):])
		}
		if strings.HasSuffix(s, c) {
			s = strings.TrimSpace(strings.TrimSuffix(s, c))
		}
	}
	s = strings.TrimRight(strings.TrimSpace(s), " -–—,")
	if s == "" {
		return l.Raw
	}
	return s
}

// canonLine is a command line in the engine's words: its keyword and
// argument words as the player may write them in any language, mapped.
func (gw seatMail) canonLine(lang, line string) string {
	word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	up := strings.ToUpper(word)
	for _, lg := range append([]string{lang}, templates.Languages...) {
		if kw := gw.w.r.render.T.Alias(gw.g.Game, lg, up); kw != up {
			up = kw
			break
		}
	}
	if rest = strings.TrimSpace(rest); rest != "" {
		return up + " " + gw.localArgs(lang, up, rest)
	}
	return up
}

// localWords are keywords as the seat's reader writes them.
func (gw seatMail) localWords(seat int, kws []string) []string {
	rd := gw.reader(seat)
	out := make([]string, len(kws))
	for i, kw := range kws {
		out[i] = gw.w.r.render.ctx(rd, nil).Kw(kw)
	}
	return out
}

// localLine is a command line as the seat's reader writes it.
func (gw seatMail) localLine(seat int, line string) string {
	return gw.w.r.render.ctx(gw.reader(seat), nil).KwLine(line)
}

// answerNotes adds the reply's remarks about single lines.
func (gw seatMail) answerNotes(seat int, a *answers) {
	if len(a.notes) == 0 {
		return
	}
	rep := gw.reply(seat)
	rep.Info = append(rep.Info, gw.text(seat, "info.answers", map[string]any{"notes": a.notes}))
}
