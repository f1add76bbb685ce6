package templates

import (
	"strings"
	"unicode"
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
	for _, lg := range append([]string{lang}, Languages...) {
		for _, key := range []string{scope + "/" + lg, "common/" + lg} {
			if a, ok := s.args[key][w]; ok {
				return a
			}
		}
	}
	return ""
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
	for _, key := range []string{scope + "/" + lang, "common/" + lang} {
		if a, ok := s.argWords[key][up]; ok {
			if word == strings.ToLower(word) {
				return strings.ToLower(a)
			}
			return a
		}
	}
	return word
}

// ArgLine maps every word of the arguments of a command line through f,
// keeping the punctuation around it ("SEED," stays followed by its comma;
// "ALL>=4" maps ALL) and the spacing.
func ArgLine(args string, f func(string) string) string {
	var b strings.Builder
	word := func(w string) {
		if w == "" {
			return
		}
		head, tail := w, ""
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
			head, tail = head[:end], rest+tail
		}
		b.WriteString(f(head) + tail)
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
