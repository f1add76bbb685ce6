package mailfmt

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The words of numbers.go (words/reply.txt): number words, the option
// words that count only with their dot, street words.
var (
	cardinalWords, ordinalWords = numberWordSets()
	ordinalArticles             = phraseSet("ordinal-article")
	elidedArticles              = words("elided-article")
	ordinalFillers              = phraseSet("ordinal-filler")
	dottedOptionWords           = phraseSet("option-dotted")
	streetWords                 = phraseSet("street-word")
	streetSuffixes              = words("street-suffix")
)

// numberWord reads an option written in words (doc.go "# Answers"): s
// after an option word (worded) is a cardinal or an ordinal ("option
// two", "opzione due"); else an ordinal after an article, before "one" or
// before an option word ("the second one", "la seconda", "de tweede",
// "die zweite", "second option"). What follows is chat words only
// (chat, or the greeting and closing words), else it is no answer ("the
// first time I played"). An ordinal alone ("second") is no answer: at
// most a hint.
func numberWord(s string, worded bool, option, chat map[string]bool) (int, bool) {
	ws := strings.Fields(strings.ToLower(s))
	if len(ws) > 0 {
		if art, rest, ok := cutElided(ws[0]); ok {
			ws = append([]string{art, rest}, ws[1:]...) // "l'ottava": the article, then the word
		}
	}
	word := func(i int) string {
		if i >= len(ws) {
			return ""
		}
		return strings.TrimRightFunc(ws[i], func(c rune) bool { return isChatPunct(c) || isSymbol(c) })
	}
	// number reads the number word at i (a cardinal too if cardinal), of
	// up to four words ("vingt et un", "twenty first"), longest first; it
	// returns the number and the index after it.
	number := func(i int, cardinal bool) (int, int) {
		for k := min(4, len(ws)-i); k >= 1; k-- {
			key := numberKey(strings.Join(ws[i:i+k-1], "") + word(i+k-1))
			if n := ordinalWords[key]; n > 0 {
				return n, i + k
			}
			if n := cardinalWords[key]; n > 0 && cardinal {
				return n, i + k
			}
		}
		return 0, i
	}
	i, n := 0, 0
	if worded {
		n, i = number(0, true)
	}
	if n == 0 {
		article := ordinalArticles[word(0)]
		if article {
			i = 1
		}
		if n, i = number(i, false); n == 0 {
			return 0, false
		}
		if ordinalFillers[word(i)] || option[strings.TrimRight(word(i), ".")] {
			i++
		} else if !article {
			return 0, false
		}
	}
	for _, w := range ws[i:] {
		if hasAlnum(w) && !chatWord(w, chat) {
			return 0, false
		}
	}
	return n, true
}

// apostrophes are the marks an elided article is written with: straight
// or typographic ("l'ottava", "l’undicesima").
var apostrophes = strings.NewReplacer("’", "'", "‘", "'", "ʼ", "'", "´", "'", "`", "'")

// isApostrophe reports whether c is one of those marks or the straight
// one: what apostrophes makes "'" (issue 25: asked of every character of
// every line a player writes, the replacer took half of reading an
// answer; TestIsApostropheIsTheReplacers_Issue25 checks every rune).
func isApostrophe(c rune) bool {
	switch c {
	case '\'', '’', '‘', 'ʼ', '´', '`':
		return true
	}
	return false
}

// cutElided splits an elided article off the word it is glued to
// (words/reply.txt [elided-article]: "l'ottava", "L’option"): the
// article as written in the list, the word, and whether there was one.
func cutElided(w string) (article, rest string, ok bool) {
	i := strings.IndexFunc(w, isApostrophe)
	if i <= 0 {
		return "", w, false
	}
	_, size := utf8.DecodeRuneInString(w[i:])
	a, rest := apostrophes.Replace(strings.ToLower(w[:i+size])), w[i+size:]
	c, _ := utf8.DecodeRuneInString(rest)
	if !unicode.IsLetter(c) || !slices.Contains(elidedArticles, a) {
		return "", w, false
	}
	return a, rest, true
}

// streetAddress reports a line that is a street address by its words (doc.go
// "# Answers"): streetLine's shape, and a street word or suffix next to
// its house number ("221 Baker St", "12 rue de la Paix", "Via Roma 3",
// "Kerkstraat 12", "Hauptstr. 5"), unless its first word is a keyword
// ("Piazza Duomo 1": the engine refuses it with its reason). Its number is
// no option and no hint: the line is chat.
func streetAddress(t string, isKeyword func(string) bool) bool {
	kw := func(w string) bool { return isKeyword != nil && isKeyword(w) }
	if postalLine(t, kw) {
		return true
	}
	if !streetLine(t, kw) {
		return false
	}
	if f := strings.Fields(t); kw(strings.ToUpper(strings.TrimRight(f[0], ":,.!?"))) {
		return false // "Piazza Duomo 1": PIAZZA may be a command, the engine says
	}
	head, _, _ := strings.Cut(t, ",")
	for _, f := range strings.Fields(head) {
		w := strings.ToLower(f)
		if streetWords[w] || streetWords[strings.TrimRight(w, ".")] {
			return true
		}
		for _, suf := range streetSuffixes {
			if strings.HasSuffix(w, suf) && utf8.RuneCountInString(w) > utf8.RuneCountInString(suf)+1 {
				if c, _ := utf8.DecodeRuneInString(f); unicode.IsUpper(c) {
					return true
				}
			}
		}
	}
	return false
}

// numberWordLine reports a line that is an option in words ("la seconda",
// "option two"), for the rules of where a reply ends (an answer line).
func numberWordLine(t string) bool {
	s, worded := afterOptionWord(t, builtinOption)
	_, ok := numberWord(s, worded, builtinOption, builtinChat)
	return ok
}

// postalLineRe is a postal code and its town alone on a line ("20121
// Milano", "1017 GC Amsterdam", "D-10115 Berlin", "1100-048 Lisboa",
// "75002 PARIS"): the codes of sigPostalRe, a country letter or two
// before them, a town of at most five words.
var postalLineRe = regexp.MustCompile(`^(?:[A-Z]{1,2}-)?(?:\d{4,5}|\d{4}\s?[A-Z]{2}|\d{4}-\d{3})\s+\p{Lu}[\p{L}'’.-]*(?:\s+[\p{L}'’.()-]+){0,4}$`)

// postalLine reports a line that is a postal code and its town alone
// (doc.go "# Answers"): no option (a code is over 999) and no command
// (none starts with a number), unless a word of the town is a keyword in
// capitals ("1017 PASS"; the letters of a Dutch code aside).
func postalLine(t string, kw func(string) bool) bool {
	if !postalLineRe.MatchString(t) {
		return false
	}
	fs := strings.Fields(t)
	for i, f := range fs[1:] {
		if i == 0 && len(fs[0]) == 4 && len(f) == 2 {
			continue // "1017 GC": the code's letters
		}
		if w := strings.Trim(f, ".()-'’"); utf8.RuneCountInString(w) >= 2 && w == strings.ToUpper(w) && kw(w) {
			return false
		}
	}
	return true
}
