package engine

import (
	"strings"
	"unicode"
)

// Order is one instruction of a player's message: one or more alternatives,
// tried left to right when the order's turn comes, each made of one or more
// command lines applied together (all or nothing).
type Order struct {
	// Line is the 1-based number of the message line the order starts on.
	Line int `json:"line"`
	// Text is the order as written (comment removed), for quoting in replies.
	Text string `json:"text"`
	// Alts are the alternatives; each is a sequence of command lines.
	Alts [][]string `json:"alts"`
	// ElsePass: when no alternative is legal, play the decision's pass move
	// instead of halting the queue.
	ElsePass bool `json:"else_pass,omitempty"`
	// Slot is the queue slot the order answers (set by State.Route).
	Slot string `json:"slot,omitempty"`
	// Now marks an order applied on receipt (set by State.Route).
	Now bool `json:"now,omitempty"`
	// Tag numbers the order when the Table receives it, so that its fate
	// (applied, queued, halted) can be reported back.
	Tag int `json:"tag,omitempty"`
	// Copied is the command a bare option number came with, copied from
	// the menu line ("2) PLACE HP1 SEED" is option 2 with Copied "PLACE
	// HP1 SEED"): the option is played only when it is that command (see
	// SameCommand), else the order is refused (CodeCopiedOption, issue 20).
	Copied string `json:"copied,omitempty"`
	// Always marks a standing order (set by State.Route, Brew Crafters'
	// ALWAYS, BC-10.2 point 4): it is never used up. It answers every
	// decision of its slot that no one-shot order of the slot answers
	// first, and when its slot closes the State routes it again to the
	// next slot of its kind; it stays until the seat clears its queue.
	Always bool `json:"always,omitempty"`
}

// SameCommand reports whether two command lines are the same command:
// the same words (see Fields), whatever their case, spacing and commas.
func SameCommand(a, b string) bool {
	fa, fb := Fields(a), Fields(b)
	if len(fa) != len(fb) {
		return false
	}
	for i := range fa {
		if fa[i] != fb[i] {
			return false
		}
	}
	return true
}

// copiedMismatch is the refusal of a numbered order whose copied menu
// line is not meant, the command its option n stands for (nil when it is,
// or when nothing was copied).
func (o Order) copiedMismatch(n int, meant string) *RuleError {
	if o.Copied == "" || SameCommand(o.Copied, meant) {
		return nil
	}
	return Reject("", CodeCopiedOption, "n", n, "copied", o.Copied, "option", meant)
}

// Keyword returns the upper-cased first word of the order's first command.
func (o Order) Keyword() string {
	if len(o.Alts) == 0 || len(o.Alts[0]) == 0 {
		return ""
	}
	return FirstWord(o.Alts[0][0])
}

// Number returns n when the order is a bare option number ("3"), else 0.
func (o Order) Number() int {
	if len(o.Alts) != 1 || len(o.Alts[0]) != 1 {
		return 0
	}
	s := o.Alts[0][0]
	if s == "" || len(s) > 3 {
		return 0
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// FirstWord returns the upper-cased first word of a command line.
func FirstWord(line string) string {
	f := strings.Fields(line)
	if len(f) == 0 {
		return ""
	}
	return strings.ToUpper(f[0])
}

// CanonicalWord is a command's first word in capitals, or the canonical
// keyword it stands for in a game's aliases (words of the players'
// languages: "COMPRA" -> "BUY").
func CanonicalWord(aliases map[string]string, w string) string {
	w = strings.ToUpper(w)
	if k, ok := aliases[w]; ok {
		return k
	}
	return w
}

// Fields splits a command line into upper-cased words, also splitting on
// commas (which players use between items: "PLACE MH1 SEED, MH1+ B3").
// Games use it in Parse.
func Fields(line string) []string {
	f := strings.FieldsFunc(line, func(r rune) bool { return unicode.IsSpace(r) || r == ',' })
	for i := range f {
		f[i] = strings.ToUpper(f[i])
	}
	return f
}

// ParseScript applies the shared command conventions to the text of a
// message and returns its orders:
//
//   - one command per line; blank lines are skipped;
//   - '#' starts a comment that runs to the end of the line;
//   - "a | b | c" are alternatives, tried left to right;
//   - a trailing "ELSE PASS" passes when no alternative is legal;
//   - "a; b" are several commands of one alternative, applied together;
//   - a block "NEXT" / lines / "OR" / lines / "END" (END optional at the end
//     of the text) is one order whose alternatives are multi-line;
//   - a bare number chooses an option of the last prompt (see Order.Number).
//
// Whitespace inside commands is collapsed to single spaces; case is kept
// (games compare keywords case-insensitively, and free text such as a SAY
// message keeps its case). ParseScript never fails: games reject what they
// cannot parse.
func ParseScript(text string) []Order {
	var sc Script
	for i, raw := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		sc.Line(i+1, raw)
	}
	return sc.Orders()
}

// Script reads a message's lines one at a time, in order, into its orders
// by the conventions ParseScript states (ParseScript is a Script fed every
// line of a text): a caller that already holds the message's lines, each
// read once (the referee's reading room, issue 25), gives them here as
// they are, never joined into a text to be split again. The zero Script
// is ready; it is not safe for concurrent use.
type Script struct {
	orders []Order
	block  *Order
	cur    []string
}

// Line reads the message's line n (1-based, the number an order starting
// on it carries); a line holds no newline.
func (s *Script) Line(n int, raw string) {
	line := raw
	if k := strings.IndexByte(line, '#'); k >= 0 {
		line = line[:k]
	}
	line = collapse(line)
	if line == "" {
		return
	}
	up := strings.ToUpper(line)
	switch {
	case up == "NEXT":
		s.flush()
		s.block = &Order{Line: n, Text: line}
		return
	case s.block != nil && up == "OR":
		if len(s.cur) > 0 {
			s.block.Alts = append(s.block.Alts, s.cur)
		}
		s.cur = nil
		s.block.Text += " / OR"
		return
	case s.block != nil && up == "END":
		s.flush()
		return
	case s.block != nil:
		s.cur = append(s.cur, splitTrim(line, ';')...)
		s.block.Text += " / " + line
		return
	}
	o := Order{Line: n, Text: line}
	body := line
	if cut, ok := trimElsePass(body); ok {
		body, o.ElsePass = cut, true
	}
	for _, alt := range splitTrim(body, '|') {
		cmds := splitTrim(alt, ';')
		if len(cmds) > 0 {
			o.Alts = append(o.Alts, cmds)
		}
	}
	if len(o.Alts) == 0 && !o.ElsePass {
		return
	}
	s.orders = append(s.orders, o)
}

// Orders ends the message (a block still open ends with it, as at an END)
// and returns its orders; the Script is then empty again.
func (s *Script) Orders() []Order {
	s.flush()
	o := s.orders
	s.orders = nil
	return o
}

func (s *Script) flush() {
	if s.block == nil {
		return
	}
	if len(s.cur) > 0 {
		s.block.Alts = append(s.block.Alts, s.cur)
	}
	if len(s.block.Alts) > 0 {
		s.orders = append(s.orders, *s.block)
	}
	s.block, s.cur = nil, nil
}

// trimElsePass removes a trailing "ELSE PASS" (any case, any spacing).
func trimElsePass(s string) (string, bool) {
	f := strings.Fields(s)
	if len(f) >= 2 && strings.EqualFold(f[len(f)-2], "ELSE") && strings.EqualFold(f[len(f)-1], "PASS") {
		return strings.Join(f[:len(f)-2], " "), true
	}
	return s, false
}

func splitTrim(s string, sep byte) []string {
	var out []string
	for _, p := range strings.Split(s, string(sep)) {
		if p = collapse(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
