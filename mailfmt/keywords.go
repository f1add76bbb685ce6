package mailfmt

import (
	"iter"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// Keywords are a caller's command keywords held for IsProse, SplitProse
// and ExtractCommands (issue 25: the typo guard of a word that is no
// keyword compares it with the keywords one rune longer, shorter or as
// long, instead of asking about every spelling one edit away, ~97 us for
// a signature-like word). A nil *Keywords knows no keyword.
type Keywords struct {
	is    func(string) bool
	byLen map[int][]string // the words of 3 letters or more, by runes
}

// NewKeywords holds words, upper case. is reports whether an upper-cased
// word is a keyword (nil: whether it is one of words); it must answer true
// for each of words, and every word of Latin letters it answers true for
// must be one of words (the typo guard knows no other).
func NewKeywords(words []string, is func(string) bool) *Keywords {
	k := &Keywords{is: is, byLen: byLength(slices.Values(words))}
	if is == nil {
		set := make(map[string]bool, len(words))
		for _, w := range words {
			set[w] = true
		}
		k.is = func(w string) bool { return set[w] }
	}
	return k
}

// byLength holds the words of 3 letters or more by length in runes, each
// length's sorted.
func byLength(words iter.Seq[string]) map[int][]string {
	byLen := map[int][]string{}
	for w := range words {
		if n := utf8.RuneCountInString(w); n >= 3 && isLetters(w) {
			byLen[n] = append(byLen[n], w)
		}
	}
	for _, ws := range byLen {
		sort.Strings(ws)
	}
	return byLen
}

// Is reports whether an upper-cased word is a keyword.
func (k *Keywords) Is(w string) bool { return k.is(w) }

// IsProse reports whether a line of a player's command text is prose: a
// line that nothing the game or the referee would run can be. Every
// command of every game starts with a keyword (the engines' parsers
// dispatch on the first word; none starts with a coordinate or a number
// but an option answer), so a line is prose when it does not start with a
// command keyword (k.Is is given the upper-cased first word, trailing
// ':', ',' and '.' removed; a nil k knows no keyword), holds no '|' or ';'
// (alternatives and command separators) and no '#' comment, and either
//
//   - holds nothing that looks like a command: no upper-case word of two
//     letters or more, no word with a digit ("Ciao!", "here is my move");
//     or
//   - (issue: signatures without "-- ") starts with a word of letters only
//     that is no keyword one edit away (a typo of four Latin letters or
//     more: "Plcae" is no prose), has no keyword written in capitals after
//     it ("I PLAY SHIELD" is no prose: it may mean PLAY), holds no keyword
//     in any case after it when it holds a digit ("Hi, place it at MH3"),
//     and does not start with a word in capitals ("PLACE MH3 K5" of an
//     unknown game, "WITHDRAW open ann@x"): "Brauerei Straße 5, Zürich",
//     "Tel. +49 30 123456", "Sent from my iPhone 15", "PS: 2 more days".
//
// Such lines can be ignored safely: nothing in them could be a move, and
// the caller still lists them (SplitProse, AnswerChat). A line that
// starts with a keyword is never prose, however wrong its arguments: a
// typo must be refused, never ignored.
func (k *Keywords) IsProse(line string) bool {
	is, near := k.guard()
	return isProse(line, is, near)
}

// SplitProse separates the prose lines of a player's command text (see
// IsProse) from the rest. It returns the text without them (blank lines
// kept, so line numbers stay those of the text) and the prose lines, in
// order, trimmed.
func (k *Keywords) SplitProse(text string) (string, []string) { return splitProse(text, k.IsProse) }

// MailCommands is Commands with the caller's command keywords (a nil k
// knows none): a line starting with a keyword, an upper-case word, an
// option number, or holding a board coordinate ("MH3") is never taken for
// (part of) a quote header, and the signed tail and the greeting lines
// read as IsProse reads them with k.
func (k *Keywords) MailCommands(m *mailmsg.Message) (string, CommandInfo) {
	return k.ExtractCommands(m.Text, m.From)
}

// ExtractCommands is MailCommands for a body and its sender.
func (k *Keywords) ExtractCommands(body string, sender mailmsg.Address) (string, CommandInfo) {
	is, near := k.guard()
	return extractCommands(body, sender, is, near)
}

// guard returns k's keyword test and typo guard: nil for a nil k.
func (k *Keywords) guard() (is, near func(string) bool) {
	if k == nil {
		return nil, nil
	}
	return k.is, func(up string) bool { return nearIn(k.byLen, up) }
}

// nearIn reports whether up, an upper-case word, is one Damerau edit from
// one of the words of byLen (by length in runes) by the reader's typo rule
// (see AnswerReader.nearAny).
func nearIn(byLen map[int][]string, up string) bool {
	n := utf8.RuneCountInString(up)
	if n < 4 || n > 24 || !latinLetters(up) {
		return false
	}
	for l := n - 1; l <= n+1; l++ {
		for _, k := range byLen[l] {
			if oneEdit(up, k) && typedLetters(up, k) {
				return true
			}
		}
	}
	return false
}

// splitProse is SplitProse with the prose test given.
func splitProse(text string, prose func(line string) bool) (string, []string) {
	lines := strings.Split(text, "\n")
	var out []string
	for i, l := range lines {
		if prose(l) {
			out = append(out, strings.TrimSpace(l))
			lines[i] = ""
		}
	}
	if len(out) == 0 {
		return text, nil
	}
	return strings.Join(lines, "\n"), out
}
