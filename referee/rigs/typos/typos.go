// Package typos makes the typos the tests of the readers' typo guards
// feed them: every word one edit away from a word (mailfmt's nearAny
// against nearKeyword, cmdtable's KeywordSet against the strings.EqualFold
// scan). It owns that generation only; it must not know any keyword,
// language or reader (the tests bring their words and letters), and it
// must not be linked into the binary (tests only, like every rig).
package typos

// OneEdit returns every word one edit away from w, rune by rune: each
// deletion, each transposition of two neighbours, and, for each of
// letters, each insertion (before every rune and at the end) and each
// substitution. Words may repeat (an edit can undo another: "AAB" gives
// "AB" twice) and include w itself when a letter replaces its own
// rune; the order is fixed, so a seeded test draws the same words.
func OneEdit(w string, letters []rune) []string {
	rs := []rune(w)
	var out []string
	for i := range rs {
		out = append(out, string(append(append([]rune{}, rs[:i]...), rs[i+1:]...)))
		if i+1 < len(rs) {
			s := append([]rune{}, rs...)
			s[i], s[i+1] = s[i+1], s[i]
			out = append(out, string(s))
		}
	}
	for _, c := range letters {
		for i := 0; i <= len(rs); i++ {
			out = append(out, string(append(append(append([]rune{}, rs[:i]...), c), rs[i:]...)))
			if i < len(rs) {
				s := append([]rune{}, rs...)
				s[i] = c
				out = append(out, string(s))
			}
		}
	}
	return out
}
