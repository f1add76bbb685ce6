package mailfmt

import (
	"strings"
	"unicode"
)

// IsProse reports whether a line of a player's command text is prose: a
// line that does not start with a command keyword (isKeyword is given the
// upper-cased first word, trailing ':', ',' and '.' removed; nil knows no
// keyword) and holds nothing that looks like a command: no upper-case word
// of two letters or more, no word with a digit (option numbers, board
// coordinates, dates), no '|' or ';' (alternatives and command separators)
// and no '#' comment. Such lines ("Ciao!", "here is my move", "Grazie") can
// be ignored safely: nothing in them could be a move. A line that starts
// with a keyword is never prose, however wrong its arguments: a typo must
// be refused, never ignored.
func IsProse(line string, isKeyword func(word string) bool) bool {
	t := strings.TrimSpace(line)
	if t == "" || strings.ContainsAny(t, "|;#") {
		return false
	}
	fields := strings.Fields(t)
	if isKeyword != nil {
		w := strings.ToUpper(strings.TrimRight(fields[0], ":,.!?"))
		if isKeyword(w) || isKeyword(strings.ToUpper(fields[0])) {
			return false
		}
	}
	for _, f := range fields {
		letters, upper := 0, true
		for _, r := range f {
			if unicode.IsDigit(r) {
				return false
			}
			if unicode.IsLetter(r) {
				letters++
				if !unicode.IsUpper(r) {
					upper = false
				}
			}
		}
		if letters >= 2 && upper {
			return false
		}
	}
	return true
}

// SplitProse separates the prose lines of a player's command text (see
// IsProse) from the rest. It returns the text without them (blank lines
// kept, so line numbers stay those of the text) and the prose lines, in
// order, trimmed.
func SplitProse(text string, isKeyword func(word string) bool) (string, []string) {
	lines := strings.Split(text, "\n")
	var prose []string
	for i, l := range lines {
		if IsProse(l, isKeyword) {
			prose = append(prose, strings.TrimSpace(l))
			lines[i] = ""
		}
	}
	if len(prose) == 0 {
		return text, nil
	}
	return strings.Join(lines, "\n"), prose
}
