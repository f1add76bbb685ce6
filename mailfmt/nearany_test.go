package mailfmt

import (
	"math/rand"
	"testing"

	"github.com/pbem-referee/referee/referee/rigs/typos"
)

// TestNearAnyAnswersAsNearKeyword: the reader's typo guard of IsProse
// (nearAny: its keywords by length, oneEdit) answers as nearKeyword (every
// spelling one edit away through isKeyword) for generated words: every
// deletion, transposition, substitution and insertion of a keyword with
// letters of keywordLetters and beyond (ß, Ø, Œ, Ł, ª), words two edits
// away, short and long words, and keywords written with letters beyond
// keywordLetters.
func TestNearAnyAnswersAsNearKeyword(t *testing.T) {
	keywords := []string{"PLACE", "PASS", "PASSE", "FINI", "STOCKER", "AUTOSTOCKER", "WITHDRAW", "ŒUVRE", "STRAßE",
		"BØR", "NO", "OK", "GO-ON", "ÉCHANGER", "PIÙ", "ABCDEFGHIJKLMNOPQRSTUVWX", "ABCDEFGHIJKLMNOPQRSTUVWXY"}
	v := AnswerVocab{Keywords: map[string]string{}}
	for _, k := range keywords {
		v.Keywords[k] = k
	}
	r := NewAnswerReader(v)
	letters := []rune(keywordLetterSet + "ßØŒŁªЖ")
	edits := func(w string) []string { return typos.OneEdit(w, letters) }
	rng := rand.New(rand.NewSource(25))
	near, words := 0, 0
	check := func(w string) {
		words++
		want := nearKeyword(w, r.isKeyword)
		if want {
			near++
		}
		if got := r.nearAny(w); got != want {
			t.Errorf("nearAny(%q) = %v, nearKeyword = %v", w, got, want)
		}
	}
	for _, k := range keywords {
		for _, w := range edits(k) {
			if r.isKeyword(w) {
				continue // IsProse never asks about a keyword
			}
			check(w)
			if rng.Intn(400) == 0 {
				for _, w2 := range edits(w) {
					if !r.isKeyword(w2) {
						check(w2)
					}
				}
			}
		}
	}
	if near == 0 || near == words {
		t.Fatalf("%d of %d words near a keyword: the generation tests nothing", near, words)
	}
}

// nearKeyword reports whether up, an upper-case word, is one Damerau edit
// from a keyword, by the reader's typo rule (AnswerReader: four Latin
// letters or more). It tries every deletion, transposition, substitution
// and insertion of a letter A-Z, À-Þ: the plain search that nearIn (the
// typo guard of Keywords and the reader) must answer as.
func nearKeyword(up string, isKeyword func(string) bool) bool {
	rs := []rune(up)
	if len(rs) < 4 || len(rs) > 24 || !latinLetters(up) {
		return false
	}
	buf := make([]rune, 0, len(rs)+1)
	try := func(r []rune) bool { return isKeyword(string(r)) }
	for i := range rs {
		buf = append(append(buf[:0], rs[:i]...), rs[i+1:]...)
		if try(buf) {
			return true
		}
		if i+1 < len(rs) {
			buf = append(buf[:0], rs...)
			buf[i], buf[i+1] = buf[i+1], buf[i]
			if try(buf) {
				return true
			}
		}
	}
	for _, c := range keywordLetters {
		for i := 0; i <= len(rs); i++ {
			buf = append(append(append(buf[:0], rs[:i]...), c), rs[i:]...)
			if try(buf) {
				return true
			}
			if i < len(rs) && rs[i] != c {
				buf = append(buf[:0], rs...)
				buf[i] = c
				if try(buf) {
					return true
				}
			}
		}
	}
	return false
}
