package templates

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// tidyByLines is tidy as the words of its rule say it, line by line: the
// reference the one-pass tidy must agree with.
func tidyByLines(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	blank := 0
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			blank++
			if blank > 1 {
				continue
			}
		} else {
			blank = 0
		}
		out = append(out, l)
	}
	return strings.Trim(strings.Join(out, "\n"), "\n")
}

// TestTidyAgreesWithTheRule: generated texts of words, spaces, tabs and
// line breaks (every layout of blank runs, trailing blanks, leading and
// trailing breaks, multi-byte words) come out of tidy as the line-by-line
// rule says.
func TestTidyAgreesWithTheRule(t *testing.T) {
	pieces := []string{"a", "Würfel", " ", "\t", "\n", "\n", "\n\n\n", "  \n", "x y"}
	rng := rand.New(rand.NewPCG(25, 4))
	cases := []string{"", "\n", "\n\n", " ", "a", "a\n", "\na", "a \nb", "a\n\n\nb", "a\n \n\t\nb", "a\t"}
	for range 5000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		cases = append(cases, b.String())
	}
	for _, c := range cases {
		if got, want := tidy([]byte(c)), tidyByLines(c); got != want {
			t.Fatalf("tidy(%q) = %q, want %q", c, got, want)
		}
	}
}

// TestRenderAllocations: Render costs what text/template's Execute of the
// template allocates and one string, the text it returns: no key string per
// look-up, no buffer and no line slice per call. Has allocates nothing.
// Every language, templates of a game scope and of the common scope (found
// through the fallbacks), a tidy and an untidy output.
func TestRenderAllocations(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	ev := map[string]any{"Seat": 1, "Params": map[string]any{"dice": []string{"Y3", "K5"}, "auto": true}}
	for _, lang := range s.Languages() {
		for _, c := range []struct{ scope, name string }{
			{"dicebrewing", "event.db.store"}, {"dicebrewing", "error.game_over"}, {"common", "error.game_over"},
			{"referee", "error.game_over"},
		} {
			ctx := Ctx{Lang: lang, Game: c.scope, Seat: 0, Seats: []string{"Ann", "Bob"}, Data: ev}
			if _, err := s.Render(c.scope, lang, c.name, ctx); err != nil {
				t.Fatal(err)
			}
			tm := s.lookup(c.scope, lang, c.name)
			var b bytes.Buffer // grown by the first run, reused after
			exec := testing.AllocsPerRun(100, func() { b.Reset(); _ = tm.Execute(&b, ctx) })
			render := testing.AllocsPerRun(100, func() { _, _ = s.Render(c.scope, lang, c.name, ctx) })
			if render > exec+1 && !raceEnabled { // sync.Pool drops items at random under -race
				t.Errorf("%s/%s %s: Render allocates %.0f times, Execute alone %.0f", c.scope, lang, c.name, render, exec)
			}
			if n := testing.AllocsPerRun(100, func() { _ = s.Has(c.scope, lang, c.name) }); n != 0 {
				t.Errorf("%s/%s %s: Has allocates %.0f times; want none", c.scope, lang, c.name, n)
			}
		}
	}
}

type named string

func (n named) String() string { return "named:" + string(n) }

// TestSprintIsFmt: the template functions' fast path writes every value as
// fmt.Sprint does (strings, ints, negative ints, other numbers, named
// types with a String method, slices, nil).
func TestSprintIsFmt(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 5))
	vals := []any{"", "Würfel", 0, -7, int64(12), 3.5, float32(0.25), uint8(4), named("x"), []string{"a", "b"}, nil, true}
	for range 200 {
		vals = append(vals, rng.IntN(2000)-1000, strings.Repeat("é", rng.IntN(4)))
	}
	for _, v := range vals {
		if got, want := sprint(v), fmt.Sprint(v); got != want {
			t.Errorf("sprint(%#v) = %q, want %q", v, got, want)
		}
	}
	for _, l := range []any{[]string{"a", "b"}, []int{1, -2}, []any{"x", 3, named("n")}, [2]string{"p", "q"}, "solo"} {
		want := fmt.Sprint(l)
		if rv := reflect.ValueOf(l); rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array {
			parts := make([]string, rv.Len())
			for i := range parts {
				parts[i] = fmt.Sprint(rv.Index(i).Interface())
			}
			want = strings.Join(parts, ", ")
		}
		if got := join(", ", l); got != want {
			t.Errorf("join(%#v) = %q, want %q", l, got, want)
		}
	}
}

// foldByLines is fold without its fast path: every line split, folded when
// too long, and joined again.
func foldByLines(width int, text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = fold(width, l)
	}
	return strings.Join(lines, "\n")
}

// TestFoldFastPath: fold returns a text none of whose lines is too long as
// it is, and folds the others as line by line: generated texts of short and
// long words, multi-byte runes (a line of 80 runes but more bytes fits),
// indentation and blank lines, at three widths.
func TestFoldFastPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 7))
	pieces := []string{"PLACE", "é", "ü", " ", "  ", "\n", "\n\n", strings.Repeat("ß", 40), strings.Repeat("y", 30)}
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		text := b.String()
		for _, w := range []int{20, 60, Width} {
			if got, want := fold(w, text), foldByLines(w, text); got != want {
				t.Fatalf("fold(%d, %q) = %q, want %q", w, text, got, want)
			}
		}
	}
	if n := testing.AllocsPerRun(50, func() { _ = Fold("a short line\nanother é line") }); n != 0 {
		t.Errorf("Fold of a text that fits allocates %.0f times", n)
	}
}

// TestIsLowerIsToLower: isLower agrees with comparing a word to its
// strings.ToLower copy: ASCII, accented and German words in every case,
// digits and signs, invalid UTF-8 and a lone U+FFFD.
func TestIsLowerIsToLower(t *testing.T) {
	words := []string{"", "seed", "SEED", "Seed", "seme", "récolte", "RÉCOLTE", "straße", "STRASSE", "ǅ", "mh1", "MH1", ">=4", "\xff", "a\xffb", "\uFFFD", "İ", "ı"}
	rng := rand.New(rand.NewPCG(25, 8))
	letters := []rune("aAéÉßẞ1\uFFFDİı")
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteRune(letters[rng.IntN(len(letters))])
		}
		words = append(words, b.String())
	}
	for _, w := range words {
		if got, want := isLower(w), w == strings.ToLower(w); got != want {
			t.Errorf("isLower(%q) = %v, want %v", w, got, want)
		}
	}
}
