package reading

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/templates"
)

// Vocab is what the reading knows of a game: its template set (aliases,
// argument words, answer words of every language), the game and its
// template scope, and the referee's own keywords (its command table and
// the script's block words).
type Vocab struct {
	T       *templates.Set
	Game    engine.Game
	Name    string
	Referee map[string]bool
}

// answerReaders caches the reader of each game's answers, per template set.
var answerReaders sync.Map // readerKey -> *mailfmt.AnswerReader

type readerKey struct {
	set  *templates.Set
	game string
}

// Reader returns the reader of a game's answers: the game's keywords and
// the referee's, with their aliases in every language.
func Reader(v Vocab) *mailfmt.AnswerReader {
	key := readerKey{v.T, v.Name}
	if ar, ok := answerReaders.Load(key); ok {
		return ar.(*mailfmt.AnswerReader)
	}
	av := mailfmt.AnswerVocab{Keywords: map[string]string{}, FreeText: func(kw string) bool { return freeText[kw] }}
	for kw := range v.Referee {
		av.Keywords[kw] = kw
	}
	if v.Game != nil { // nil: the referee's words alone (a player's mail)
		for _, c := range v.Game.Info().Commands {
			av.Keywords[strings.ToUpper(c)] = strings.ToUpper(c)
		}
	}
	for _, lang := range templates.Languages {
		av.Chat = append(av.Chat, v.T.List("referee", lang, "chat")...)
		av.Words = append(av.Words, v.T.List("referee", lang, "words")...)
		for _, scope := range []string{"common", "referee", v.Name} {
			for alias, kw := range v.T.Aliases(scope, lang) {
				if _, ok := av.Keywords[alias]; !ok {
					av.Keywords[alias] = kw
				}
			}
		}
	}
	ar, _ := answerReaders.LoadOrStore(key, mailfmt.NewAnswerReader(av))
	return ar.(*mailfmt.AnswerReader)
}

// NoteKind is what a note about one line says.
type NoteKind string

const (
	// NoteAsk: the line's first word is one edit from several keywords
	// (Candidates); the player is asked which.
	NoteAsk NoteKind = "answer.ask"
	// NoteReadAs: a typo (Typo) was read as a keyword (Keyword).
	NoteReadAs NoteKind = "answer.read_as"
	// NoteHint: a line read as chat or left as written may have meant
	// Hint (a command line in the engine's words).
	NoteHint NoteKind = "answer.hint"
)

// Note is a remark of the reply about one line, as data: its Kind is the
// name of the template (templates/referee/<lang>/) that says it.
type Note struct {
	Kind NoteKind
	// Line is the 1-based line; Raw the line as written, clipped.
	Line int
	Raw  string
	// Candidates (NoteAsk) and Keyword (NoteReadAs) are keywords in the
	// engine's words, Typo the word as written.
	Candidates []string
	Typo       string
	Keyword    string
	Hint       string
}

// Answers is what the reading made of a seat's mail.
type Answers struct {
	// Orders are the orders for the engine: keywords and argument words
	// in the engine's words, a written ELSE PASS read, the command a
	// number was copied with attached, each order's Text the line as the
	// player wrote it (chat around an answer cut).
	Orders []engine.Order
	// Ignored are the lines and parts of lines read as chat, with the
	// greeting and sign-off the edge took off, in order, clipped.
	Ignored []string
	// Notes are the reply's remarks about single lines, in line order.
	Notes []Note
	// ChatLines is how many whole lines were chat (not commands read).
	ChatLines int
}

type seatKey struct {
	set        *templates.Set
	game, lang string
}

// Answers reads a seat's mail with a game's vocabulary, the player's
// language first (issue 20, issue 12.7), and returns a copy of what it
// read.
func (m *Mail) Answers(v Vocab, lang string) *Answers {
	key := seatKey{v.T, v.Name, lang}
	var a *Answers
	switch {
	case m.seat.ans != nil && m.seat.key == key:
		a = m.seat.ans
	case m.moreSeat[key] != nil:
		a = m.moreSeat[key]
	default:
		a = m.readSeat(v, lang)
		m.reads.seat++
		m.hook("seat", v.Name, "/", lang)
		switch {
		case m.seat.ans == nil:
			m.seat = seatRead{key, a}
		case m.moreSeat == nil:
			m.moreSeat = map[seatKey]*Answers{key: a}
		default:
			m.moreSeat[key] = a
		}
	}
	c := *a
	c.Orders = cloneOrders(a.Orders)
	c.Ignored = append([]string(nil), a.Ignored...)
	c.Notes = append([]Note(nil), a.Notes...)
	return &c
}

func (m *Mail) readSeat(v Vocab, lang string) *Answers {
	lines := m.Lines(Reader(v))
	a := &Answers{}
	var chat []string
	for _, l := range lines {
		switch l.Kind {
		case mailfmt.AnswerAsk:
			a.Notes = append(a.Notes, Note{Kind: NoteAsk, Line: l.Line, Raw: mailfmt.ClipLine(l.Raw, 40), Candidates: l.Candidates})
		case mailfmt.AnswerChat:
			chat = append(chat, l.Raw)
			a.ChatLines++
		}
		if l.Kind == mailfmt.AnswerCommand || l.Kind == mailfmt.AnswerOption {
			chat = append(chat, l.Chat...)
		}
		if isComment(l) {
			// The engine reads nothing in it, so the reply lists it as
			// ignored (issue 25: nothing silently dropped).
			chat = append(chat, l.Raw)
		}
		if l.Typo != "" {
			a.Notes = append(a.Notes, Note{Kind: NoteReadAs, Line: l.Line, Typo: l.Typo, Keyword: l.Keyword})
		}
		if l.Hint != "" {
			a.Notes = append(a.Notes, Note{Kind: NoteHint, Line: l.Line, Raw: mailfmt.ClipLine(l.Raw, 40), Hint: l.Hint})
		}
	}
	a.Ignored = append(append(append(a.Ignored, m.greeting...), chat...), m.signOff...)
	for i, l := range a.Ignored {
		a.Ignored[i] = mailfmt.ClipLine(l, 70)
	}
	a.Orders = v.orders(lang, lines)
	return a
}

// Said is a mail's lines as the answer reader of v read them (a Vocab
// without a Game: the referee's words alone, for a player's mail), by
// line number: each line as written, trimmed, and whether it is chat
// (mailfmt.AnswerChat: a greeting, thanks, a sentence). Issue 25: an
// answer quotes the lines no command acted on, never chat.
func (m *Mail) Said(v Vocab) func(line int) (raw string, chat bool) {
	lines := m.Lines(Reader(v))
	return func(n int) (string, bool) {
		i, ok := slices.BinarySearchFunc(lines, n, func(l mailfmt.AnswerLine, n int) int { return l.Line - n })
		if !ok {
			return "", false
		}
		return lines[i].Raw, lines[i].Kind == mailfmt.AnswerChat
	}
}

// Line is one line as the answer reader of v reads it: for a text that is
// not a player's mail (an organiser's commands, package organise, which
// tells chat and a mistyped keyword by it; issue 25).
func (v Vocab) Line(line string) mailfmt.AnswerLine { return Reader(v).Line(line) }

// Comments are a mail's whole lines of comment ("# my note": the engine
// reads nothing in them) as the answer reader of v read them, each as
// written, trimmed, by line number. Issue 25: nothing is silently
// dropped, a player's answer quotes them with the lines no command acted
// on (TestPlayerCommentLinesQuoted_Issue25 in referee/edge/mailin).
func (m *Mail) Comments(v Vocab) map[int]string {
	out := map[int]string{}
	for _, l := range m.Lines(Reader(v)) {
		if isComment(l) {
			out[l.Line] = l.Raw
		}
	}
	return out
}

// isComment reports a whole line of comment ("# my note", #begin, #end):
// the answer reader leaves it as written for the engine, which reads
// nothing in it.
func isComment(l mailfmt.AnswerLine) bool {
	return l.Kind == mailfmt.AnswerCommand && strings.HasPrefix(l.Text, "#")
}

// orders are the orders of the lines as the answer reader read them: each
// line's answer (a command's text, an option's number, a line asked about
// as written; nothing for chat) goes to the engine's script reader as it
// is, once (engine.Script: the lines are never joined into a text to be
// split and parsed again, issue 25), with a written ELSE PASS of any
// language read as the engine's and the player's words kept for the echo,
// each command line in the engine's words, the copied commands attached.
func (v Vocab) orders(lang string, lines []mailfmt.AnswerLine) []engine.Order {
	var sc engine.Script
	var written map[int][2]string // line -> its text as written and as read, bare
	for i, l := range lines {
		var s string
		switch l.Kind {
		case mailfmt.AnswerCommand:
			s = l.Text
		case mailfmt.AnswerOption:
			s = strconv.Itoa(l.Option)
		case mailfmt.AnswerAsk:
			s = l.Raw
		default:
			continue
		}
		read := v.localElseLine(s)
		if read != s {
			if written == nil {
				written = map[int][2]string{}
			}
			written[i+1] = [2]string{bare(s), bare(read)}
		}
		sc.Line(i+1, read)
	}
	orders := sc.Orders()
	for i := range orders {
		if w, ok := written[orders[i].Line]; ok && orders[i].Text == w[1] {
			orders[i].Text = w[0]
		}
		for k := range orders[i].Alts {
			for j, line := range orders[i].Alts[k] {
				orders[i].Alts[k][j] = v.CanonLine(lang, line)
			}
		}
	}
	attach(v, lang, lines, orders)
	return orders
}

// attach gives the orders read from option lines the command copied with
// their number, in the engine's words, and the line as written for the
// echo.
func attach(v Vocab, lang string, lines []mailfmt.AnswerLine, orders []engine.Order) {
	for i := range orders {
		n := orders[i].Line - 1
		if n < 0 || n >= len(lines) {
			continue
		}
		l := lines[n]
		if l.Kind == mailfmt.AnswerOption && l.Copied != "" {
			orders[i].Copied = v.CanonLine(lang, l.Copied)
		}
		if l.Kind == mailfmt.AnswerOption || l.Typo != "" {
			orders[i].Text = mailfmt.ClipLine(cutChat(l), 70)
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
