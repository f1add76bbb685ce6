package mailmsg

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// Issue 25: a line quoted back is the person's line, cleaned and cut.
func TestQuoteLine_Issue25(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"  Brewers' Circle  ", "Brewers' Circle"},
		{"Ciao\t a\u00a0tutti!", "Ciao a tutti!"},
		{"\u202eSSAP\u202c", "SSAP"},
		{"PA\u200bSS\x07", "PASS"},
		{"a\xffb", "a\ufffdb"},
		{strings.Repeat("word ", 20), "word word word word w..."},
		{"0123456789012345678901234", "012345678901234567890..."},
		{"", ""},
	} {
		if got := QuoteLine(c.in, 24); got != c.want {
			t.Errorf("QuoteLine(%q, 24) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzQuoteLine(f *testing.F) {
	for _, s := range []string{"Brewers' Circle", "\u202eSSAP", "a\xffb\x00c", strings.Repeat("é ", 60), "Sent from my iPhone"} {
		f.Add(s, 24)
	}
	f.Fuzz(func(t *testing.T, s string, width int) {
		width = width%200 + 1
		if width < 0 {
			width = -width
		}
		got := QuoteLine(s, width)
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8: %q", got)
		}
		if n := utf8.RuneCountInString(got); n > max(width, 4) {
			t.Fatalf("%d characters, width %d: %q", n, width, got)
		}
		if got != strings.TrimSpace(got) || strings.Contains(got, "  ") {
			t.Fatalf("untrimmed or double space: %q", got)
		}
		for _, r := range got {
			if r != ' ' && (unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Co, r)) {
				t.Fatalf("%U kept: %q", r, got)
			}
		}
		// Uncut, it is the line's words, in order.
		if !strings.HasSuffix(got, "...") && got != strings.Join(strings.Fields(QuoteLine(s, 1<<20)), " ") {
			t.Fatalf("words changed: %q -> %q", s, got)
		}
	})
}
