package mailmsg

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// QuoteLine makes a line a person wrote fit to be quoted back to them
// within width characters (issue 25: an answer names each line it did not
// act on): invalid UTF-8 becomes U+FFFD, control, invisible format (bidi
// marks and overrides, zero-width characters) and private-use characters
// are removed, every run of white space becomes one space, the ends are
// trimmed, and a line longer than width is cut on a character boundary
// and ends with "..." (width counted with it; a width under 4 is 4).
// FuzzQuoteLine checks these.
func QuoteLine(s string, width int) string {
	width = max(width, 4)
	// One character over the width is enough to know the line is cut.
	out := printable(s, width+1)
	if utf8.RuneCountInString(out) <= width {
		return out
	}
	r := []rune(out)
	return strings.TrimRightFunc(string(r[:width-3]), unicode.IsSpace) + "..."
}
