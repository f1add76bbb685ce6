package mailfmt

import "unicode/utf8"

// ClipLine shortens a line to at most n characters (n under 4 counts as
// 4), ending with "..." when it is cut, for a line of a player's (or an
// organiser's) that an answer names back within its columns: the reader's
// notes of the lines it did not act on, the LIST answer's game name.
// TestClipLineKeepsWithinItsColumns.
func ClipLine(s string, n int) string {
	n = max(n, 4)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-3]) + "..."
}
