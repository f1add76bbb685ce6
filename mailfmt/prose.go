package mailfmt

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// isProse is Keywords.IsProse with the typo guard given: near reports
// whether an upper-case word is one edit from a keyword (Keywords and the
// AnswerReader hold their keywords by length: nearIn; nil when isKeyword
// is).
func isProse(line string, isKeyword func(word string) bool, near func(up string) bool) bool {
	return proseLine(line, isKeyword, near, builtinChat)
}

// proseLine is isProse with the test of chat words a number may follow
// (numberLead): the reader's own chat words, or builtinChat.
func proseLine(line string, isKeyword func(word string) bool, near func(up string) bool, chat map[string]bool) bool {
	t := strings.TrimSpace(line)
	if t == "" || strings.ContainsRune(t, '#') {
		return false
	}
	if strings.ContainsAny(t, "|;") {
		// The engine's alternatives and separators join commands, each
		// starting with a keyword: a line none of whose parts can be a
		// command is prose ("Brewers' Circle | Milano").
		for _, part := range strings.FieldsFunc(t, func(r rune) bool { return r == '|' || r == ';' }) {
			if strings.TrimSpace(part) != "" && !proseLine(part, isKeyword, near, chat) {
				return false
			}
		}
		return true
	}
	if streetAddress(t, isKeyword) {
		return true // "221 Baker St": a house number, no option
	}
	for _, p := range starts(t) {
		s, worded := afterOptionWord(t[p:], builtinOption)
		_, _, _, _, ok := numberForm(s)
		if !ok {
			_, ok = numberWord(s, worded, builtinOption, chat)
		}
		if ok && numberLead(t[:p], chat) {
			return false // "Ok: 2", "Hi! 2 please", "Hi!option 2", "the second one": an answer
		}
	}
	fields := strings.Fields(t)
	first := strings.TrimRight(fields[0], ":,.!?")
	if isKeyword != nil {
		if isKeyword(strings.ToUpper(first)) || isKeyword(strings.ToUpper(fields[0])) {
			return false
		}
	}
	digit, caps := false, false
	for _, f := range fields {
		letters, upper := 0, true
		for _, r := range f {
			if unicode.IsDigit(r) {
				digit = true
			}
			if unicode.IsLetter(r) {
				letters++
				if !unicode.IsUpper(r) {
					upper = false
				}
			}
		}
		if letters >= 2 && upper {
			caps = true
		}
	}
	if !digit && !caps {
		return true
	}
	if webAddress(fields[0]) && (len(fields) == 1 || !strings.ContainsAny(strings.Join(fields[1:], " "), "0123456789")) {
		return !caps || chatLead("www", fields[1:], false, isKeyword, nil)
	}
	return chatLead(fields[0], fields[1:], digit && !strings.HasSuffix(fields[0], ":"), isKeyword, near)
}

// webAddress reports a word that is a URL or an e-mail address: no
// command of any game starts with one.
func webAddress(w string) bool {
	low := strings.ToLower(w)
	if strings.Contains(low, "://") || strings.HasPrefix(low, "www.") {
		return true
	}
	at := strings.IndexByte(low, '@')
	return at > 0 && strings.Contains(low[at:], ".")
}

// chatLead reports whether a line that holds a digit or a word in
// capitals, whose first word (trimmed) is first, is still prose: first is
// a word of letters only and no typo of a keyword, no later word is a
// keyword in capitals, nor a keyword at all when the line holds a digit,
// and a first word in capitals has no digit on its line.
func chatLead(first string, rest []string, digit bool, isKeyword, near func(string) bool) bool {
	label := strings.HasSuffix(first, ":")
	line := strings.Join(append([]string{first}, rest...), " ") // "No. 2": the dot kept
	first = strings.TrimRight(first, ":,.!?")
	if !isLetters(first) || optionFormRe.MatchString(line) {
		return false
	}
	up := strings.ToUpper(first)
	if first == up && utf8.RuneCountInString(first) >= 2 && !label {
		// A word in capitals may be a keyword the caller's set does not
		// hold (an organiser's or a tournament's: "WITHDRAW open ann@x").
		return false
	}
	for i := range rest {
		if optionFormRe.MatchString(strings.Trim(strings.Join(rest[i:], " "), "\"'“”«»(")) {
			return false // "I choose option 2 please": asked or refused
		}
	}
	if isKeyword == nil {
		// No keyword known: any word in capitals may be one.
		for _, f := range append([]string{first}, rest...) {
			if w := strings.Trim(f, ":,.!?()\"'“”«»"); utf8.RuneCountInString(w) >= 2 && isLetters(w) && w == strings.ToUpper(w) {
				return false
			}
		}
		return true
	}
	if near != nil && near(up) {
		return false
	}
	for _, f := range rest {
		w := strings.Trim(f, ":,.!?()\"'“”«»")
		if w == "" {
			continue
		}
		if isKeyword(strings.ToUpper(w)) && (digit || w == strings.ToUpper(w)) {
			return false
		}

	}
	return true
}

// keywordLetters are the letters a keyword of our languages is written
// with, upper case.
var keywordLetters = []rune(keywordLetterSet)

const keywordLetterSet = "ABCDEFGHIJKLMNOPQRSTUVWXYZÀÁÂÄÈÉÊËÌÍÎÏÒÓÔÖÙÚÛÜÇÑ"

// nearAny is the reader's typo guard over its own keywords: it compares
// up with the keywords one rune longer or shorter or as long (byLen) by
// oneEdit, as if it tried every spelling one edit away with the letters
// of keywordLetters (a letter a keyword has beyond up's must be one of
// them; TestNearAnyAnswersAsNearKeyword checks it against that search).
func (r *AnswerReader) nearAny(up string) bool { return nearIn(r.byLen, up) }

// typedLetters reports whether every letter k has more often than up is
// one of keywordLetters (the letters a typo inserts or substitutes).
func typedLetters(up, k string) bool {
	for _, c := range k {
		if !strings.ContainsRune(keywordLetterSet, c) && strings.Count(k, string(c)) > strings.Count(up, string(c)) {
			return false
		}
	}
	return true
}

// builtinChat are the words a number may follow on its line in IsProse
// beyond the greeting and closing words (numberLead); the answer reader
// gives its own (AnswerVocab.Chat).
var builtinChat = map[string]bool{"ok": true, "okay": true}

// builtinOption are the option words every reader knows (OptionWords), in
// lower case without a final dot.
var builtinOption = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range OptionWords() {
		if w = strings.ToLower(strings.TrimSpace(w)); w != "" {
			m[strings.TrimRight(w, ".")] = true
		}
	}
	return m
}()

// afterOptionWord returns s after its option word ("option", "opzione",
// "nr.", "n°" or "nº": one of set, any case) and the marks that may follow it, and
// whether there was one; else s trimmed. The reader's option number form
// and the prose rule read it alike (FuzzIsProse: "A x!option 1").
func afterOptionWord(s string, set map[string]bool) (string, bool) {
	s = strings.TrimSpace(s)
	w, rest := firstWord(s)
	if _, after, ok := cutElided(s); ok {
		if w2, rest2 := firstWord(after); set[strings.ToLower(w2)] {
			w, rest = w2, rest2 // "l'option deux", "l’opzione 2"
		}
	}
	if w == "" {
		return s, false
	}
	// "n°", "nº": the sign is part of the word (firstWord stops at "°";
	// "º" is a letter and ends the word).
	w = strings.ReplaceAll(w, "º", "°")
	for _, sign := range []string{"°", "º"} {
		if r, ok := strings.CutPrefix(rest, sign); ok {
			w, rest = w+"°", r
			break
		}
	}
	if set[strings.ToLower(w)] {
		return strings.TrimLeft(strings.TrimPrefix(strings.TrimSpace(rest), "."), " :"), true
	}
	if r, ok := strings.CutPrefix(rest, "."); ok && dottedOptionWords[strings.ToLower(w)+"."] {
		return strings.TrimLeft(r, " :"), true // "No. 2", "n. 2"
	}
	return s, false
}

// numberLead reports whether the text before an option number on its
// line lets the number be an answer (doc.go "# Answers"; the rule of
// IsProse and of AnswerReader alike): no letter or digit ("👍 2"); a
// greeting, closing or chat word first ("Ok: 2", "Hallo,2", "Dear
// referee, 2"); or a sentence of two words or more set off by
// punctuation ("I choose: 2") that is not a name ("Via Roma, 12"). A word
// alone before it is a label or a street, and the number its value
// ("PS: 2 more days", "Hauptstr. 12", "Tel: 12"): no answer.
func numberLead(lead string, chat map[string]bool) bool {
	lead = strings.TrimSpace(lead)
	if !hasAlnum(lead) {
		return true
	}
	// Emoji after the chat are chat too ("Hi! 👍option 2").
	lead = strings.TrimRightFunc(lead, func(c rune) bool { return isSymbol(c) || unicode.IsSpace(c) })
	words := strings.Fields(lead)
	all := true
	for _, w := range words {
		all = all && chatWord(w, chat)
	}
	if all {
		return true
	}
	last, _ := utf8.DecodeLastRuneInString(lead)
	if !isChatPunct(last) {
		return false // "see you at 10", "Sent from my iPhone 15"
	}
	return chatWord(words[0], chat) || len(words) >= 2 && !isName(strings.TrimRightFunc(lead, isChatPunct))
}

// chatWord reports a word of chat (chat, lower case) or a greeting or
// closing word (words/reply.txt), punctuation around it aside.
func chatWord(w string, chat map[string]bool) bool {
	w = strings.TrimFunc(w, func(r rune) bool { return isChatPunct(r) || isSymbol(r) })
	return w != "" && (chat[strings.ToLower(w)] || wholeMatch(greetingRe, w) || wholeMatch(valedictionRe, w))
}

func wholeMatch(re *regexp.Regexp, w string) bool {
	loc := re.FindStringIndex(w)
	return loc != nil && loc[1] == len(w)
}
