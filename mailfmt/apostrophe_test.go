package mailfmt

import (
	"testing"
	"unicode"
)

// TestIsApostropheIsTheReplacers_Issue25: isApostrophe answers for every
// rune (and the replacement character of bytes that are not UTF-8) what
// the replacer's test it stands for answered: that the replacer makes it
// a straight apostrophe.
func TestIsApostropheIsTheReplacers_Issue25(t *testing.T) {
	n := 0
	for c := rune(0); c <= unicode.MaxRune; c++ {
		want := apostrophes.Replace(string(c)) == "'"
		if isApostrophe(c) != want {
			t.Errorf("%U: isApostrophe %v, replacer %v", c, !want, want)
		}
		if want {
			n++
		}
	}
	if n != 6 {
		t.Errorf("%d apostrophes, want 6", n)
	}
}
