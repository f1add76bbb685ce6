package testkit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/templates/langcheck"
)

// GoIsh are the marks of Go's own text in a reader's words: a bad verb, a
// nil, a map, a pointer, an error's prefix, a template's braces or its
// missing value, the tournament desk's own prefix.
var GoIsh = []string{"%!", "<nil>", "map[", "0x", "error:", "{{", "}}", "<no value>", "tournament desk:"}

// HostileValues are values a reader may give or a record may hold:
// stray quotes, a 70-character name, Cyrillic and CJK, and the marks of
// a Go value printed as it is. The tests of a reader's words fill every
// value of a template with each in turn.
var HostileValues = []string{
	`O'Brien "the \ quote`,
	"Maximiliane Theodora " + strings.Repeat("von Wolkenstein-", 3) + "Trostburg Rodenegg",
	"Пётр Ёжиков-Щукин",
	"棋士太郎と花子",
	"%!d(string=x)",
	"<nil>",
	"map[a:1 b:2]",
}

// CheckWords fails the test when text, a reader's words in lang, shows
// Go's own text (GoIsh) or, in it/fr/nl, an English word (langcheck),
// once the reader's own values are taken out (a value may carry
// anything, the words around it may not): each value as written and as
// %q quotes it, white space folded.
func CheckWords(t testing.TB, lang, what, text string, values ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(text), " ")
	for _, v := range values {
		flat = strings.ReplaceAll(flat, strings.Join(strings.Fields(fmt.Sprintf("%q", v)), " "), " ")
		flat = strings.ReplaceAll(flat, strings.Join(strings.Fields(v), " "), " ")
	}
	for _, g := range GoIsh {
		if strings.Contains(flat, g) {
			t.Errorf("%s: Go's own text %q:\n%s", what, g, text)
		}
	}
	if leaks := langcheck.Leaks(lang, flat); len(leaks) > 0 {
		t.Errorf("%s: English words %q in the %s text:\n%s", what, leaks, lang, text)
	}
}
