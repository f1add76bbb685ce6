package mailfmt

import (
	"iter"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// Keywords are a caller's command keywords held for IsProse and
// SplitProse (issue 25: the typo guard of a word that is no keyword
// compares it with the keywords one rune longer, shorter or as long,
// instead of asking about every spelling one edit away, ~97 us for a
// signature-like word). They answer as IsProse and SplitProse given Is.
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

// IsProse is IsProse(line, k.Is).
func (k *Keywords) IsProse(line string) bool {
	return isProse(line, k.is, k.near)
}

// SplitProse is SplitProse(text, k.Is).
func (k *Keywords) SplitProse(text string) (string, []string) { return splitProse(text, k.IsProse) }

// MailCommands is CommandsFor(m, k.Is), with the typo guard that compares
// words with the keywords (the signed tail and the greeting lines read
// as IsProse reads them with k).
func (k *Keywords) MailCommands(m *mailmsg.Message) (string, CommandInfo) {
	return k.ExtractCommands(m.Text, m.From)
}

// ExtractCommands is ExtractCommandsFor(body, sender, k.Is) with k's typo
// guard.
func (k *Keywords) ExtractCommands(body string, sender mailmsg.Address) (string, CommandInfo) {
	return extractCommands(body, sender, k.is, k.near)
}

func (k *Keywords) near(up string) bool { return nearIn(k.byLen, up) }

// nearIn reports whether up, an upper-case word, is one Damerau edit from
// one of the words of byLen (by length in runes) by the reader's typo rule,
// with the answers of nearKeyword (see AnswerReader.nearAny).
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
