package mailfmt

import (
	"maps"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// AnswerVocab is what AnswerReader needs to know of the caller's game: the
// words of answers per language (templates/referee/<lang>/answers.txt)
// and the command keywords. Every word is matched without regard to case.
type AnswerVocab struct {
	// Option are words that may stand before an option number beyond
	// OptionWords, which the reader always knows (nil: none).
	Option []string
	// Chat are the words and phrases of chat that may stand before or
	// after a command on its line: greetings, thanks, please, closings
	// ("hi", "ciao", "thanks", "per favore", "merci", "bedankt").
	Chat []string
	// Words are common words of the languages that are one edit from a
	// keyword ("past", "mine", "donc"): never read as a mistyped keyword.
	Words []string
	// Keywords maps every keyword the player may write, in any language,
	// upper case, to its canonical keyword ("PASSA": "PASS").
	Keywords map[string]string
	// FreeText reports the canonical keywords whose arguments are the
	// player's own words (SAY): nothing after them is chat. Nil: none.
	FreeText func(kw string) bool
}

// AnswerKind is what a line of a reply was read as.
type AnswerKind uint8

const (
	// AnswerBlank: an empty line.
	AnswerBlank AnswerKind = iota
	// AnswerCommand: a line for the engine (AnswerLine.Text), perhaps
	// with chat, punctuation or a mistyped keyword taken off; a line the
	// reader cannot read otherwise and that is not chat is left as
	// written, so that the engine refuses it with its reason.
	AnswerCommand
	// AnswerOption: option AnswerLine.Option of the menu answered, with
	// the command copied from its menu line, if any (AnswerLine.Copied).
	AnswerOption
	// AnswerChat: no command (greetings, thanks, sentences);
	// AnswerLine.Hint is what the line may have meant.
	AnswerChat
	// AnswerAsk: the first word is one edit away from several keywords
	// (AnswerLine.Candidates): the line cannot be read, the player is
	// asked.
	AnswerAsk
)

// AnswerLine is one line of a reply as AnswerReader read it.
type AnswerLine struct {
	// Line is the 1-based number of the line; Raw the line, trimmed.
	Line int
	Raw  string
	Kind AnswerKind
	// Text is the line for the engine (AnswerCommand).
	Text string
	// Option is the option number and Copied the command copied after it
	// from the menu line, comment and chat removed (AnswerOption).
	Option int
	Copied string
	// Chat are the parts of the line taken off as chat ("Hi!", "thanks",
	// "👍"), in order.
	Chat []string
	// Typo is the word that was read as Keyword, a keyword one edit away
	// ("paas" read as "PASS"); "" when the keyword was written right.
	Typo, Keyword string
	// Candidates are the keywords an AnswerAsk line's first word may be.
	Candidates []string
	// Hint is, for a line read as chat or left as written, the answer it
	// may have meant ("2", "PASS"), "" when none.
	Hint string
}

// AnswerReader reads the lines of a reply as the player meant them (see
// the package documentation, "Answers"). It is safe for concurrent use.
type AnswerReader struct {
	option   map[string]bool
	chat     map[string]bool
	words    map[string]bool
	chatMax  int // words in the longest chat phrase
	keywords map[string]string
	byLen    map[int][]string // keywords of 3 letters or more, by length in runes
	free     func(string) bool
}

// NewAnswerReader prepares a reader for vocabulary v.
func NewAnswerReader(v AnswerVocab) *AnswerReader {
	r := &AnswerReader{option: map[string]bool{}, chat: map[string]bool{}, words: map[string]bool{}, keywords: map[string]string{},
		free: v.FreeText}
	for _, w := range append(OptionWords(), v.Option...) {
		if w = strings.ToLower(strings.TrimSpace(w)); w != "" {
			r.option[strings.TrimRight(w, ".")] = true
		}
	}
	for _, w := range v.Chat {
		f := strings.Fields(strings.ToLower(w))
		if len(f) == 0 {
			continue
		}
		r.chat[strings.Join(f, " ")] = true
		r.chatMax = max(r.chatMax, len(f))
	}
	for _, w := range v.Words {
		r.words[strings.ToLower(strings.TrimSpace(w))] = true
	}
	for w, kw := range v.Keywords {
		r.keywords[strings.ToUpper(w)] = kw
	}
	r.byLen = byLength(maps.Keys(r.keywords))
	if r.free == nil {
		r.free = func(string) bool { return false }
	}
	return r
}

// Read reads every line of a reply's command text.
func (r *AnswerReader) Read(text string) []AnswerLine {
	lines := strings.Split(text, "\n")
	out := make([]AnswerLine, len(lines))
	for i, l := range lines {
		out[i] = r.Line(l)
		out[i].Line = i + 1
	}
	return out
}

func (r *AnswerReader) isKeyword(w string) bool {
	_, ok := r.keywords[w]
	return ok
}

// isProse is IsProse with the reader's keywords and its typo guard.
func (r *AnswerReader) isProse(line string) bool {
	return proseLine(line, r.isKeyword, r.nearAny, r.chat)
}

// Line reads one line (its Line field is left 0).
func (r *AnswerReader) Line(line string) AnswerLine {
	t := strings.TrimSpace(line)
	al := AnswerLine{Raw: t}
	switch {
	case t == "":
		return al
	case len(t) > maxAnswerLine:
		// No answer is this long: chat or the engine's.
		if r.isProse(t) {
			al.Kind = AnswerChat
		} else {
			al.Kind, al.Text = AnswerCommand, t
		}
		return al
	case strings.ContainsAny(t, "|;") && !r.isProse(t), t[0] == '#' && !startsWithDigit(t[1:]),
		strings.ContainsRune(t, utf8.RuneError) && !r.isProse(t):
		// The engine's own syntax (alternatives, several commands,
		// comments, #begin/#end), or a hidden character (a disguised
		// command is refused, never read): left as written.
		al.Kind, al.Text = AnswerCommand, t
		return al
	}
	body := cutComment(t)
	if streetAddress(body, r.isKeyword) {
		al.Kind = AnswerChat // "221 Baker St", "Via Roma 3": no option 221 or 3
		return al
	}
	for _, p := range starts(body) {
		lead := strings.TrimSpace(body[:p])
		if lead != "" && !r.leadIsChat(lead) {
			continue
		}
		rd, ok := r.core(body[p:], lead != "")
		if !ok || lead != "" && rd.Kind == AnswerOption && !numberLead(lead, r.chat) {
			continue
		}
		if lead != "" {
			rd.Chat = append([]string{lead}, rd.Chat...)
		}
		rd.Raw = t
		return rd
	}
	if w, rest := firstWord(body); w != "" {
		if cands := r.near(w); len(cands) > 1 && !r.proseRest(rest) {
			al.Kind, al.Candidates = AnswerAsk, cands
			return al
		}
	}
	al.Kind, al.Text, al.Hint = AnswerCommand, t, r.hint(body)
	if r.isProse(t) || r.chatWords(t) {
		al.Kind, al.Text = AnswerChat, ""
	}
	return al
}

// core reads s as an answer: an option number form, or a command whose
// keyword is written right or one edit away. lead says chat stood before
// it on the line.
func (r *AnswerReader) core(s string, lead bool) (AnswerLine, bool) {
	if al, ok := r.number(s); ok {
		return al, true
	}
	w, rest := firstWord(s)
	if w == "" {
		return AnswerLine{}, false
	}
	up := strings.ToUpper(w)
	kw, exact := r.keywords[up]
	al := AnswerLine{Kind: AnswerCommand}
	if !exact {
		cands := r.near(w)
		if len(cands) != 1 {
			return AnswerLine{}, false
		}
		kw, al.Typo, al.Keyword = cands[0], w, cands[0]
		up = kw
	} else {
		al.Keyword = kw
	}
	if r.free(kw) {
		if lead && up != w {
			return AnswerLine{}, false
		}
		al.Text = strings.TrimSpace(up + " " + strings.TrimSpace(rest))
		return al, true
	}
	args, chat, ok := r.splitTail(rest, false)
	if !ok {
		return AnswerLine{}, false
	}
	// After chat, or mistyped, a keyword not in capitals followed by a
	// sentence is no command ("Hi, done for today", "Past turns were fun").
	if (lead || al.Typo != "") && w != strings.ToUpper(w) && args != "" && r.isProse(args) {
		return AnswerLine{}, false
	}
	if al.Typo == "" {
		up = w
	}
	al.Text, al.Chat = strings.TrimSpace(up+" "+args), chat
	return al, true
}

// number reads an option number form: an optional option word, the number
// with its marks ("2", "2.", "2)", "#2", "(2)", "“2”"), then nothing, chat,
// or the command copied from the menu line.
func (r *AnswerReader) number(s string) (AnswerLine, bool) {
	s, worded := afterOptionWord(s, r.option)
	n, rest, open, closed, ok := numberForm(s)
	if !ok {
		// "the second one", "option two": chat after it only.
		if n, ok = numberWord(s, worded, r.option, r.chat); ok {
			return AnswerLine{Kind: AnswerOption, Option: n}, true
		}
		return AnswerLine{}, false
	}
	al := AnswerLine{Kind: AnswerOption, Option: n}
	if strings.TrimSpace(rest) == "" {
		return al, true
	}
	if chat, ok := r.tailChat(rest, true); ok {
		al.Chat = chat
		return al, true
	}
	// A copied menu line: the number, then a command.
	if worded || open && !closed {
		return AnswerLine{}, false
	}
	w, more := firstWord(strings.TrimSpace(rest))
	if _, ok := r.keywords[strings.ToUpper(w)]; !ok || !startsWithLetterAfterSpace(rest) {
		return AnswerLine{}, false
	}
	args, chat, ok := r.splitTail(more, false)
	if !ok {
		return AnswerLine{}, false
	}
	al.Copied, al.Chat = strings.TrimSpace(w+" "+args), chat
	return al, true
}

// numberForm reads the number form at the start of s: opening marks, the
// number 1-999 (not all zeros), closing marks, glued to no letter or
// digit unless closed ("2nd", "10K" are none). It returns the number, the
// rest of s, and whether marks opened and closed it.
func numberForm(s string) (n int, rest string, open, closed, ok bool) {
	i := 0
	for i < len(s) {
		c, size := utf8.DecodeRuneInString(s[i:])
		if !strings.ContainsRune(openMarks, c) {
			break
		}
		i += size
	}
	j := i
	for j < len(s) && j-i < 4 && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i || j-i > 3 || s[i:j] == strings.Repeat("0", j-i) {
		return 0, "", false, false, false
	}
	for _, c := range s[i:j] {
		n = n*10 + int(c-'0')
	}
	k := j
	for k < len(s) {
		c, size := utf8.DecodeRuneInString(s[k:])
		if !strings.ContainsRune(closeMarks, c) {
			break
		}
		k += size
	}
	rest, open, closed = s[k:], i > 0, k > j
	if c, _ := utf8.DecodeRuneInString(rest); rest != "" && !closed && (unicode.IsLetter(c) || unicode.IsDigit(c)) {
		return 0, "", false, false, false
	}
	return n, rest, open, closed, true
}

const (
	// maxAnswerLine is the longest line read as an answer (bytes), and
	// maxChatWords the most words of chat after a command.
	maxAnswerLine = 300
	maxChatWords  = 8

	openMarks  = "(#[\"'“‘«‹„"
	closeMarks = ")].:\"'”’»›!?"
)

// splitTail separates a command's arguments from the chat after them:
// trailing punctuation, emoji, and a tail that is chat (see tailChat).
func (r *AnswerReader) splitTail(rest string, afterNumber bool) (string, []string, bool) {
	args, chat, ok := r.splitOnce(rest, afterNumber)
	// The text read is read as itself: the arguments are split again until
	// no chat is left at their end ("BREW!A!A": BREW, chat A and A;
	// FuzzAnswerLine).
	for ok && args != "" {
		more, c, _ := r.splitOnce(args, false)
		if more == args {
			break
		}
		args, chat = more, append(c, chat...)
	}
	return args, chat, ok
}

// splitOnce is one pass of splitTail: the earliest tail of chat.
func (r *AnswerReader) splitOnce(rest string, afterNumber bool) (string, []string, bool) {
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return "", nil, true
	}
	// The earliest place where the rest of the line is chat, among its
	// last few words (chat is short).
	q := len(rest)
	for words := 0; q > 0 && words <= maxChatWords; {
		q--
		if unicode.IsSpace(rune(rest[q])) && q+1 < len(rest) && !unicode.IsSpace(rune(rest[q+1])) {
			words++
		}
	}
	for q < len(rest) {
		if q == 0 || isBoundary(rest, q) {
			if chat, ok := r.tailChat(rest[q:], afterNumber); ok {
				return trimEndPunct(rest[:q]), chat, true
			}
			// Chat words not in capitals after arguments in capitals:
			// "PLACE HP1 SEED thanks", "BUY HO2 S1 grazie mille".
			if t := strings.TrimSpace(rest[q:]); capsOnly(rest[:q]) && !strings.ContainsFunc(t, unicode.IsUpper) && r.chatWords(t) {
				return trimEndPunct(rest[:q]), []string{t}, true
			}
		}
		_, n := utf8.DecodeRuneInString(rest[q:])
		q += n
	}
	return trimEndPunct(rest), nil, true
}

// capsOnly reports whether s has letters, none of them lower case.
func capsOnly(s string) bool {
	return strings.ContainsFunc(s, unicode.IsLetter) && !strings.ContainsFunc(s, unicode.IsLower)
}

// isBoundary reports whether position q of s starts a possible tail: after
// a space, or at punctuation or a symbol.
func isBoundary(s string, q int) bool {
	c, _ := utf8.DecodeRuneInString(s[q:])
	p, _ := utf8.DecodeLastRuneInString(s[:q])
	return unicode.IsSpace(p) || isChatPunct(c) || isSymbol(c)
}

// tailChat reports whether the end of a line is chat, and returns it: no
// letter or digit (emoji, "!!", ":)"); a sentence set off by a dash, "!",
// "?" or "." (after a number also without one: "2 please"); or chat words
// only ("thanks", "per favore") after punctuation, a comma too, or after
// a number.
func (r *AnswerReader) tailChat(s string, afterNumber bool) ([]string, bool) {
	t := strings.TrimSpace(s)
	if t == "" {
		return nil, true
	}
	if !hasAlnum(t) {
		if strings.IndexFunc(t, isSymbol) < 0 {
			return nil, true // punctuation only: "PASS."
		}
		return []string{t}, true
	}
	body := strings.TrimLeftFunc(t, func(c rune) bool { return unicode.IsSpace(c) || isChatPunct(c) })
	// Chat words after a command need punctuation before them: "NOTE
	// hello" is a command's argument, "NOTE - hello" is not.
	punct := body != t
	sep := punct && !strings.HasPrefix(strings.TrimSpace(t), ",")
	chat := strings.TrimSpace(body)
	if (punct || afterNumber) && r.chatWords(body) {
		return []string{chat}, true
	}
	if (sep || afterNumber) && body != "" && r.isProse(body) {
		return []string{chat}, true
	}
	return nil, false
}

// leadIsChat reports whether the text before a command on its line is chat:
// a sentence ending in punctuation ("Hi!", "Hallo,", "Ok:") or chat words
// only ("ciao").
func (r *AnswerReader) leadIsChat(lead string) bool {
	if len(strings.Fields(lead)) > 6 {
		return false
	}
	if !hasAlnum(lead) || r.chatWords(lead) {
		return true
	}
	last, _ := utf8.DecodeLastRuneInString(lead)
	return isChatPunct(last) && r.isProse(lead)
}

// chatWords reports whether s is made of chat words and phrases only.
func (r *AnswerReader) chatWords(s string) bool {
	var ws []string
	for _, f := range strings.Fields(strings.ToLower(s)) {
		f = strings.TrimFunc(f, func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) })
		if f == "" {
			continue // punctuation or emoji between words
		}
		if strings.IndexFunc(f, func(c rune) bool { return !unicode.IsLetter(c) && c != '\'' && c != '’' }) >= 0 {
			return false
		}
		ws = append(ws, f)
	}
	if len(ws) == 0 {
		return false
	}
	for i := 0; i < len(ws); {
		n := 0
		for k := min(r.chatMax, len(ws)-i); k >= 1; k-- {
			if r.chat[strings.Join(ws[i:i+k], " ")] {
				n = k
				break
			}
		}
		if n == 0 {
			return false
		}
		i += n
	}
	return true
}

// proseRest reports whether the words after a first word are a sentence.
func (r *AnswerReader) proseRest(rest string) bool {
	rest = strings.TrimSpace(rest)
	return rest != "" && hasAlnum(rest) && r.isProse(rest)
}

// near returns the canonical keywords one edit (Damerau: an insertion, a
// deletion, a substitution or a transposition of neighbours) from a word
// of four letters or more that is no keyword, no chat word and no common
// word of the lists, sorted. Only a word written in the letters of our
// languages' alphabet (Latin, up to Latin Extended-B) can be a typo: a
// letter of another script or a fullwidth form in a keyword's place is a
// confusable ("P\u0410SS" with a Cyrillic A), refused as written (issue 23).
func (r *AnswerReader) near(w string) []string {
	up := strings.ToUpper(w)
	n := utf8.RuneCountInString(up)
	if n < 4 || !isLetters(up) || !latinLetters(up) || r.chat[strings.ToLower(w)] || r.words[strings.ToLower(w)] {
		return nil
	}
	if _, ok := r.keywords[up]; ok {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for l := n - 1; l <= n+1; l++ {
		for _, k := range r.byLen[l] {
			if oneEdit(up, k) && !seen[r.keywords[k]] {
				seen[r.keywords[k]] = true
				out = append(out, r.keywords[k])
			}
		}
	}
	sort.Strings(out)
	return out
}

// hint returns what a chat line may have meant: its first option number
// form or keyword written right, anywhere on the line ("I take option 2"
// may have meant 2).
func (r *AnswerReader) hint(body string) string {
	for _, p := range starts(body) {
		rd, ok := r.core(body[p:], true)
		if !ok || rd.Typo != "" {
			continue
		}
		if rd.Kind == AnswerOption {
			if tail := strings.Join(rd.Chat, " "); hasAlnum(tail) && !r.chatWords(tail) {
				continue // "I have 2 kids"
			}
			if ws := strings.Fields(body[:p]); len(ws) > 0 && !chatWord(ws[len(ws)-1], r.chat) && strings.ContainsFunc(ws[len(ws)-1], unicode.IsUpper) {
				// A name's number, a label's value: "Hauptstr. 12",
				// "Sent from my iPhone 15", "PS: 2 more days".
				continue
			}
			if rd.Copied != "" {
				return rd.Copied
			}
			return itoa(rd.Option)
		}
		w, _ := firstWord(rd.Text)
		if p > 0 && utf8.RuneCountInString(w) == 1 {
			continue // a letter after a word: "Bâtiment B", "Anna K"
		}
		if w == strings.ToUpper(w) || strings.TrimSpace(rd.Text) == w {
			return strings.ToUpper(rd.Keyword) + strings.TrimPrefix(rd.Text, w)
		}
	}
	return ""
}

// starts returns where a command may start on a line: its start, and every
// word start after a space or glued punctuation ("Hallo,PASS").
func starts(s string) []int {
	out := []int{0}
	prev := rune(-1)
	for i, c := range s {
		if i > 0 && !unicode.IsSpace(c) && (unicode.IsSpace(prev) || isChatPunct(prev) && !isChatPunct(c) || isSymbol(prev) && !isSymbol(c)) {
			out = append(out, i)
		}
		prev = c
		if len(out) > 12 {
			break
		}
	}
	return out
}

// firstWord returns the first word of s (letters and digits, as written)
// and what follows it.
func firstWord(s string) (string, string) {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	end := 0
	for end < len(s) {
		c, n := utf8.DecodeRuneInString(s[end:])
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '_' {
			break
		}
		end += n
	}
	if end < len(s) {
		// A keyword glued to more than punctuation ("MH1+", "ALL>=4") is
		// no word of its own.
		if c, _ := utf8.DecodeRuneInString(s[end:]); !unicode.IsSpace(c) && !isChatPunct(c) && !isSymbol(c) {
			return "", s
		}
	}
	return s[:end], s[end:]
}

// cutComment removes a '#' comment (a menu line's description) that does
// not start a number ("#2").
func cutComment(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && !startsWithDigit(s[i+1:]) {
			return strings.TrimSpace(s[:i])
		}
	}
	return s
}

func startsWithDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

func startsWithLetterAfterSpace(s string) bool {
	t := strings.TrimLeftFunc(s, unicode.IsSpace)
	c, _ := utf8.DecodeRuneInString(t)
	return t != s && unicode.IsLetter(c)
}

// isChatPunct is the punctuation that sets chat off a command.
func isChatPunct(c rune) bool {
	return strings.ContainsRune(",.!?:-–—…¡¿", c)
}

// isSymbol reports emoji and other symbols (and the joiners of emoji).
func isSymbol(c rune) bool {
	return c != utf8.RuneError && (unicode.Is(unicode.So, c) || unicode.Is(unicode.Sk, c) || c == '\u200d' || c == '\ufe0f')
}

// trimEndPunct removes the punctuation, symbols and dashes (after a space)
// that end the arguments of a command ("K6.", "G1!", "K6 -").
func trimEndPunct(s string) string {
	for {
		t := strings.TrimRightFunc(s, func(c rune) bool {
			return unicode.IsSpace(c) || c == '.' || c == '!' || c == '?' || c == ',' || c == ':' || c == '…' || isSymbol(c)
		})
		for _, d := range []string{" -", " –", " —"} {
			t = strings.TrimSuffix(t, d)
		}
		if t == s {
			return t
		}
		s = t
	}
}

func hasAlnum(s string) bool {
	return strings.IndexFunc(s, func(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }) >= 0
}

// latinLetters reports whether every rune of s is a letter of the Latin
// alphabets our languages write with (U+0041 to U+024F).
func latinLetters(s string) bool {
	for _, c := range s {
		if c > 0x24F || !unicode.Is(unicode.Latin, c) {
			return false
		}
	}
	return true
}

func isLetters(s string) bool {
	for _, c := range s {
		if !unicode.IsLetter(c) {
			return false
		}
	}
	return s != ""
}

// oneEdit reports whether a and b (upper case) are one Damerau edit apart.
func oneEdit(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a)-len(b) > 4 {
		return false // more than one rune apart
	}
	var ab, bb [32]rune
	ra, rb := appendRunes(ab[:0], a), appendRunes(bb[:0], b)
	if len(ra) < len(rb) {
		ra, rb = rb, ra
	}
	switch len(ra) - len(rb) {
	case 0:
		diff := -1
		for i := range ra {
			if ra[i] != rb[i] {
				if diff >= 0 {
					// A transposition of neighbours.
					return diff == i-1 && ra[diff] == rb[i] && ra[i] == rb[diff] && equalRunes(ra[i+1:], rb[i+1:])
				}
				diff = i
			}
		}
		return diff >= 0
	case 1:
		i := 0
		for i < len(rb) && ra[i] == rb[i] {
			i++
		}
		return equalRunes(ra[i+1:], rb[i:])
	}
	return false
}

func appendRunes(dst []rune, s string) []rune {
	for _, c := range s {
		dst = append(dst, c)
	}
	return dst
}

func equalRunes(a, b []rune) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
