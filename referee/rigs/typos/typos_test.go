package typos

import (
	"slices"
	"testing"
)

// TestOneEditIsEveryWordOneEditAway: for short words the edits are
// exactly the words at edit distance one (counting a transposition as
// one) over a small alphabet, with or without the word itself: each one
// is, and none is missing.
func TestOneEditIsEveryWordOneEditAway(t *testing.T) {
	letters := []rune("abß")
	var all []string // every word of up to 4 runes over letters
	var grow func(string, int)
	grow = func(w string, n int) {
		all = append(all, w)
		if n == 0 {
			return
		}
		for _, c := range letters {
			grow(w+string(c), n-1)
		}
	}
	grow("", 4)
	for _, w := range all {
		if len([]rune(w)) > 3 {
			continue
		}
		got := OneEdit(w, letters)
		for _, v := range all {
			if v == w {
				continue // there or not: a letter may replace its own rune
			}
			want := distance(w, v) == 1
			if slices.Contains(got, v) != want {
				t.Errorf("OneEdit(%q) has %q: %v, want %v", w, v, !want, want)
			}
		}
	}
}

// distance is the optimal string alignment distance of a and b (a
// transposition of neighbours one edit), by runes.
func distance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}
