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
