package templates

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Argument words (issue 12.7): the words of a command after its keyword
// that the games and the referee read in English (SEED, THEN, KEEP, NONE,
// the resources and workers of Fromage, NOTIFY's every|turn|digest...)
// have aliases per language in args.txt, "ALIAS = WORD", the reader's
// preferred alias first. Players may write them in their language (the
// referee maps them back before the engine reads the line; English is
// always accepted) and examples and menus show them in the reader's
// language.

// Arg returns the canonical (upper-case) word an argument alias stands
// for, looked up in lang's game and common lists first, then in every
// other language's; "" when the word is no alias.
func (s *Set) Arg(scope, lang, word string) string {
	w := strings.ToUpper(word)
	for _, key := range [...]dir{{scope, lang}, {"common", lang}} {
		if a, ok := s.args[key][w]; ok {
			return a
		}
	}
	for _, lg := range Languages {
		for _, key := range [...]dir{{scope, lg}, {"common", lg}} {
			if a, ok := s.args[key][w]; ok {
				return a
			}
		}
	}
	return ""
}

// ArgLanguage returns the canonical word an argument alias stands for and
// the first language (in the order of languages.txt) whose scope's or
// common list has it: HELP TORNEO asks for the tournament help, in
// Italian. It returns "", "" when the word is no alias.
func (s *Set) ArgLanguage(scope, word string) (canon, lang string) {
	w := strings.ToUpper(word)
	for _, lg := range s.langs {
		for _, key := range [...]dir{{scope, lg}, {"common", lg}} {
			if a, ok := s.args[key][w]; ok {
				return a, lg
			}
		}
	}
	return "", ""
}

// ArgWord returns an argument word as a reader of lang writes it (the
// first alias of the word in the scope's or the common list of lang), or
// the word unchanged. The case of the word is kept: "structure" is
// "struttura", "SEED" is "SEME".
func (s *Set) ArgWord(scope, lang, word string) string {
	if lang == "en" || word == "" {
		return word
	}
	up := strings.ToUpper(word)
	for _, key := range [...]dir{{scope, lang}, {"common", lang}} {
		if a, ok := s.argWords[key][up]; ok {
			if isLower(word) {
				return strings.ToLower(a)
			}
			return a
		}
	}
	return word
}

// isLower reports whether word == strings.ToLower(word), without building
// the lower-case copy (ArgWord runs for every argument word of every option
// line of a prompt).
func isLower(word string) bool {
	for i, r := range word {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(word[i:]); n == 1 {
				return false // strings.ToLower writes U+FFFD for it
			}
		}
		if unicode.ToLower(r) != r {
			return false
		}
	}
	return true
}

// ArgLine maps every word of the arguments of a command line through f,
// keeping the punctuation around it ("SEED," stays followed by its comma;
// "ALL>=4" maps ALL) and the spacing.
func ArgLine(args string, f func(string) string) string {
	var b strings.Builder
	b.Grow(len(args) + 8)
	word := func(w string) {
		if w == "" {
			return
		}
		head, punct, tail := w, "", ""
		if k := strings.Index(w, ">="); k > 0 {
			head, tail = w[:k], w[k:]
		}
		end := strings.IndexFunc(head, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
		if end == 0 {
			b.WriteString(w)
			return
		}
		if end > 0 {
			// Only a word followed by punctuation ("SEED,"), never part of
			// a token such as "B3" or "P2:K5".
			rest := head[end:]
			if strings.TrimLeft(rest, ",;.") != "" {
				b.WriteString(w)
				return
			}
			head, punct = head[:end], rest
		}
		b.WriteString(f(head))
		b.WriteString(punct)
		b.WriteString(tail)
	}
	start := -1
	for i, r := range args {
		if unicode.IsSpace(r) {
			if start >= 0 {
				word(args[start:i])
				start = -1
			}
			b.WriteRune(r)
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		word(args[start:])
	}
	return b.String()
}

// KwText writes the commands of a text (a game's help) as the reader writes
// them: every word of two or more capital letters that is a command
// keyword or an argument word of the reader's language is replaced
// (STORE ALL >= CONSERVA TUTTI, ELSE PASS >= ALTRIMENTI PASSA); words
// touching a digit (MH1, DB-5.3) are ids and stay. Columns laid out with
// runs of spaces stay aligned: a column pushed too far right goes on the
// next line, at its own column.
func (c Ctx) KwText(s string) string {
	if c.Lang == "en" || c.Lang == "" || (c.Word == nil && c.Arg == nil) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = c.kwTextLine(l)
	}
	return strings.Join(lines, "\n")
}

func (c Ctx) kwTextLine(l string) string {
	var b strings.Builder
	delta := 0 // runes added by the replacements since the last column gap
	isUp := func(r byte) bool { return r >= 'A' && r <= 'Z' }
	isWordByte := func(r byte) bool {
		return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 0x80
	}
	// A command starts a line, a column, or follows | / ; ( " : . = or a
	// comma (or HELP: its topic); elsewhere a capitalised word is an argument (ELSE PASS, TAKE
	// NONE, ... KEEP) and only argument words are translated there.
	var last byte // the last byte written that is not a space
	gap := 0      // the spaces before the current token
	afterHelp := false
	for i := 0; i < len(l); {
		switch {
		case l[i] == ' ':
			j := i
			for j < len(l) && l[j] == ' ' {
				j++
			}
			n := j - i
			gap = n
			if n >= 2 && delta != 0 {
				if n-delta < 2 {
					// The column no longer fits on the line: it goes on
					// the next one, at its own column.
					b.WriteString("\n" + strings.Repeat(" ", utf8.RuneCountInString(l[:j])))
					delta, i = 0, j
					continue
				}
				n -= delta
				delta = 0
			}
			b.WriteString(strings.Repeat(" ", n))
			i = j
		case isUp(l[i]) && (i == 0 || !isWordByte(l[i-1])):
			j := i
			for j < len(l) && isUp(l[j]) {
				j++
			}
			tok := l[i:j]
			if j-i >= 2 && (j == len(l) || !isWordByte(l[j])) {
				start := last == 0 || gap >= 2 || strings.IndexByte("|/;(\":,.=", last) >= 0 || afterHelp
				afterHelp = tok == "HELP" // HELP's topic is a command
				w := tok
				if start {
					w = c.Kw(tok)
				}
				if w == tok {
					w = c.Ar(tok)
				}
				delta += utf8.RuneCountInString(w) - utf8.RuneCountInString(tok)
				tok = w
			}
			b.WriteString(tok)
			last, gap, i = l[j-1], 0, j
		default:
			j := i + 1
			for j < len(l) && l[j] != ' ' && !(isUp(l[j]) && !isWordByte(l[j-1])) {
				j++
			}
			b.WriteString(l[i:j])
			last, gap, i, afterHelp = l[j-1], 0, j, false
		}
	}
	return b.String()
}

// Reflow re-wraps at width the paragraphs of a text (runs of lines that do
// not start with a space, ended by a short line) of which a line runs past
// width, as a text laid out for English can after its words are
// translated; indented lines (tables, examples) are kept as they are.
func Reflow(s string, width int) string {
	lines := strings.Split(s, "\n")
	var out []string
	for i := 0; i < len(lines); {
		if lines[i] == "" || strings.HasPrefix(lines[i], " ") {
			out = append(out, lines[i])
			i++
			continue
		}
		// A paragraph's lines but its last are near the width: a short
		// line (a command's syntax above its text, a heading) ends one.
		j, long := i, false
		for j < len(lines) && lines[j] != "" && !strings.HasPrefix(lines[j], " ") {
			n := utf8.RuneCountInString(lines[j])
			long = long || n > width
			j++
			if n < width*3/4 {
				break
			}
		}
		if long {
			out = append(out, strings.Split(wrap(width, "", strings.Join(lines[i:j], " ")), "\n")...)
		} else {
			out = append(out, lines[i:j]...)
		}
		i = j
	}
	return strings.Join(out, "\n")
}

// KwUsage writes the syntax of a command (a usage error's "SAY
// <player|all>: text", "NOTIFY every|turn|digest") in the reader's words:
// the keyword as Kw gives it, and every word of letters in its arguments,
// inside <...> and [...] too, as Ar gives it ("DI <giocatore|tutti>:
// testo"); words touching a digit or a '-' (YYYY-MM-DD) stay.
func (c Ctx) KwUsage(line string) string {
	word, rest, _ := strings.Cut(line, " ")
	if w := c.Kw(word); w != strings.ToUpper(word) {
		word = w
	}
	if rest == "" || c.Arg == nil {
		return strings.TrimSpace(word + " " + rest)
	}
	var b strings.Builder
	isLetter := func(r rune) bool { return unicode.IsLetter(r) }
	for len(rest) > 0 {
		i := strings.IndexFunc(rest, isLetter)
		if i < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:i])
		rest = rest[i:]
		j := strings.IndexFunc(rest, func(r rune) bool { return !isLetter(r) })
		if j < 0 {
			j = len(rest)
		}
		w := rest[:j]
		prev, _ := utf8.DecodeLastRuneInString(b.String())
		next, _ := utf8.DecodeRuneInString(rest[j:])
		if unicode.IsDigit(prev) || prev == '-' || unicode.IsDigit(next) || next == '-' || next == '=' {
			b.WriteString(w) // part of a code, a date form or a key=
		} else {
			b.WriteString(c.Ar(w))
		}
		rest = rest[j:]
	}
	return word + " " + b.String()
}
