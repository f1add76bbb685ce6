package templates

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// wrapBySlices is wrap as it was before issue 25 walked the text in
// place: the paragraphs by strings.Split, the words by strings.Fields.
func wrapBySlices(width int, prefix string, text string) string {
	var b strings.Builder
	for pi, para := range strings.Split(text, "\n") {
		if pi > 0 {
			b.WriteByte('\n')
		}
		col := 0
		for i, w := range strings.Fields(para) {
			n := utf8.RuneCountInString(w)
			if i > 0 && col+1+n > width {
				b.WriteByte('\n')
				b.WriteString(prefix)
				col = utf8.RuneCountInString(prefix)
			} else if i > 0 {
				b.WriteByte(' ')
				col++
			}
			b.WriteString(w)
			col += n
		}
	}
	return b.String()
}

// TestWrapInPlaceIsWrapBySlices_Issue25: wrap walking paragraphs and words
// in place writes what it wrote with Split and Fields, byte for byte, for
// generated texts (words of one to 30 runes, accented and not, runs of
// spaces, tabs and newlines at both ends and between, empty paragraphs),
// widths 1 to 90 and prefixes of 0 to 6 runes.
func TestWrapInPlaceIsWrapBySlices_Issue25(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 7))
	seps := []string{" ", "  ", "\t", "\n", "\n\n", " \n ", "\r\n"}
	runes := []rune("abcdefxyzéèàùç-:;,.()0123456789ß€")
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		if rng.IntN(4) == 0 {
			b.WriteString(seps[rng.IntN(len(seps))])
		}
		for range rng.IntN(40) {
			for range 1 + rng.IntN(30) {
				b.WriteRune(runes[rng.IntN(len(runes))])
			}
			b.WriteString(seps[rng.IntN(len(seps))])
		}
		text := b.String()
		width, prefix := 1+rng.IntN(90), strings.Repeat(" ", rng.IntN(7))
		if got, want := wrap(width, prefix, text), wrapBySlices(width, prefix, text); got != want {
			t.Fatalf("wrap(%d, %q, %q) = %q, want %q", width, prefix, text, got, want)
		}
	}
}

// BenchmarkWrap is wrap of a paragraph of a mail's notes.
func BenchmarkWrap(b *testing.B) {
	text := strings.Repeat("Ann placed G6 on the mash tun and took two malt; ", 6) + "\nthe end"
	b.ReportAllocs()
	for b.Loop() {
		_ = wrap(76, "  ", text)
	}
}
