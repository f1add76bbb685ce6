package reading

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/referee/guard"
)

// Mail is one mail's own text, read once: each form of it (the script,
// the prose, the answers of a game's vocabulary, the digest) is read at
// most once, the first time a stage asks, and kept. A Mail belongs to one
// request: it is not safe for concurrent use.
type Mail struct {
	text string
	// greeting and signOff are the lines the edge took off the text
	// (referee.ReadInfo), listed with the chat the reading ignores.
	greeting, signOff []string

	reads      reads
	digest     string
	script     []engine.Order
	scriptRead bool
	cmds       string
	prose      []string
	proseRead  bool
	// lines are the answers of the first reader asked, more the others'
	// (HasCommand asks every game's); seat the seat's reading of the
	// first vocabulary and language asked, more the others'.
	lines     readLines
	moreLines map[*mailfmt.AnswerReader][]mailfmt.AnswerLine
	seat      seatRead
	moreSeat  map[seatKey]*Answers
}

// ReadHook, set by tests only (nil otherwise), is told of every parser
// run on a mail's text, whichever Mail runs it: the Mail and the form read
// ("script", "prose", "digest", "answers <reader>", "seat <game>/<lang>").
// A test counts them per mail over whole games by mail
// (TestEveryMailReadOnce, referee/edge/mailin): a second Mail of one
// mail's text, or a form read twice, is a second reading, which
// Mail.Reads alone cannot see.
var ReadHook func(m *Mail, form string)

// hook tells ReadHook of a parser run.
func (m *Mail) hook(form string, args ...any) {
	if ReadHook != nil {
		if len(args) > 0 {
			form += " " + fmt.Sprint(args...)
		}
		ReadHook(m, form)
	}
}

// reads counts the parser runs of each form.
type reads struct{ script, prose, digest, answers, seat int }

type readLines struct {
	ar    *mailfmt.AnswerReader
	lines []mailfmt.AnswerLine
}

type seatRead struct {
	key seatKey
	ans *Answers
}

// New reads nothing yet: it holds the text of a mail and the greeting and
// sign-off lines the edge took off it.
func New(text string, greeting, signOff []string) *Mail {
	return &Mail{text: text, greeting: greeting, signOff: signOff}
}

// Text is the mail's own text as the edge gave it.
func (m *Mail) Text() string { return m.text }

// Reads are the parser runs so far, by form ("script", "prose", "digest",
// "answers", "seat"): each is at most 1 for a text read once per form and
// vocabulary.
func (m *Mail) Reads() map[string]int {
	r := m.reads
	return map[string]int{"script": r.script, "prose": r.prose, "digest": r.digest, "answers": r.answers, "seat": r.seat}
}

// Script is the mail's orders (engine.ParseScript), a copy.
func (m *Mail) Script() []engine.Order {
	if !m.scriptRead {
		m.script, m.scriptRead = engine.ParseScript(m.text), true
		m.reads.script++
		m.hook("script")
	}
	return cloneOrders(m.script)
}

// Prose separates the prose lines of the text from the commands
// (mailfmt.SplitProse) with the first keywords given.
func (m *Mail) Prose(kw *mailfmt.Keywords) (cmds string, prose []string) {
	if !m.proseRead {
		m.cmds, m.prose = kw.SplitProse(m.text)
		m.proseRead = true
		m.reads.prose++
		m.hook("prose")
	}
	return m.cmds, append([]string(nil), m.prose...)
}

// Lines are the text's lines as a reader read them (one reading per
// reader); the caller must not change them.
func (m *Mail) Lines(ar *mailfmt.AnswerReader) []mailfmt.AnswerLine {
	if m.lines.ar == ar {
		return m.lines.lines
	}
	if ls, ok := m.moreLines[ar]; ok {
		return ls
	}
	ls := ar.Read(m.text)
	m.reads.answers++
	m.hook("answers", fmt.Sprintf("%p", ar))
	switch {
	case m.lines.ar == nil:
		m.lines = readLines{ar, ls}
	case m.moreLines == nil:
		m.moreLines = map[*mailfmt.AnswerReader][]mailfmt.AnswerLine{ar: ls}
	default:
		m.moreLines[ar] = ls
	}
	return ls
}

// Digest identifies the text for loop and resend detection
// (guard.Digest: the same commands, whatever their case and spacing, have
// the same digest, the one stored in the seats' records).
func (m *Mail) Digest() string {
	if m.digest == "" {
		m.digest = guard.Digest(m.text)
		m.reads.digest++
		m.hook("digest")
	}
	return m.digest
}

// Logged is the text as the game's log keeps it (guard.ClipInput: at most
// guard.MaxLoggedInput bytes, cut at a character boundary).
func (m *Mail) Logged() string { return guard.ClipInput(m.text) }

// HasCommand reports whether some line looks like a command: an option
// number, a first word known (known: a keyword or alias of the referee or
// a game, in any language), or, for a text of at most 8 KiB, a line read
// with one of the vocabularies as an option or a keyword ("2.", "Hi!
// PASS", "option 2", issue 20).
func (m *Mail) HasCommand(known func(kw string) bool, vocabs func() []Vocab) bool {
	orders := m.Script()
	if len(orders) > 200 {
		orders = orders[:200]
	}
	for _, o := range orders {
		if o.Number() > 0 || known(strings.ToUpper(o.Keyword())) {
			return true
		}
	}
	if len(m.text) > 8<<10 {
		return false
	}
	for _, v := range vocabs() {
		for _, l := range m.Lines(Reader(v)) {
			if l.Kind == mailfmt.AnswerOption || l.Kind == mailfmt.AnswerCommand && l.Keyword != "" {
				return true
			}
		}
	}
	return false
}

// Script reads lines that are no mail's (a bot's answer to its prompt)
// as orders, each line once (engine.Script).
func Script(lines []string) []engine.Order {
	var sc engine.Script
	for i, l := range lines {
		sc.Line(i+1, l)
	}
	return sc.Orders()
}

// CommandKey is the de-duplication id of a command text posted without a
// Message-ID (the webhook): the same text from the same seat for the same
// state is the same request.
func CommandKey(seat, token int, text string) string {
	d := sha256.Sum256(fmt.Appendf(nil, "%d\x00%d\x00%s", seat, token, text))
	return "sha256:" + hex.EncodeToString(d[:16])
}

// cloneOrders copies orders deep enough that a caller may change their
// texts and alternatives.
func cloneOrders(orders []engine.Order) []engine.Order {
	if orders == nil {
		return nil
	}
	out := make([]engine.Order, len(orders))
	for i, o := range orders {
		out[i] = o
		out[i].Alts = make([][]string, len(o.Alts))
		for a, alt := range o.Alts {
			out[i].Alts[a] = append([]string(nil), alt...)
		}
	}
	return out
}
