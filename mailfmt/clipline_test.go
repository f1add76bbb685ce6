package mailfmt

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestClipLineKeepsWithinItsColumns: every line (ASCII, accented, CJK,
// emoji; shorter than, as long as and longer than the width) comes back
// unchanged when it fits, else cut on a character boundary to exactly the
// width with "..." at its end, at every width from 0 to 80.
func TestClipLineKeepsWithinItsColumns(t *testing.T) {
	for _, unit := range []string{"a", "é", "李", "😀", "ab "} {
		for length := 0; length <= 90; length++ {
			s := strings.Repeat(unit, length)
			for n := 0; n <= 80; n++ {
				got := ClipLine(s, n)
				w, width := utf8.RuneCountInString(s), max(n, 4)
				switch {
				case w <= width && got != s:
					t.Fatalf("%q (%d) at %d: cut to %q though it fits", s, w, n, got)
				case w > width && (utf8.RuneCountInString(got) != width || !strings.HasSuffix(got, "...") || !strings.HasPrefix(s, strings.TrimSuffix(got, "..."))):
					t.Fatalf("%q (%d) at %d: %q", s, w, n, got)
				case !utf8.ValidString(got):
					t.Fatalf("%q at %d: invalid UTF-8 %q", s, n, got)
				}
			}
		}
	}
}
