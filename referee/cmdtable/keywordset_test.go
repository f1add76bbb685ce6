package cmdtable

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/templates"
)

// keywordWords are generated words around the keywords: every keyword and
// alias of every scope and language, lower case and title case, a quarter
// of the deletions, transpositions, substitutions and insertions of a
// letter (upper and lower case, accented, ß, the Kelvin sign and the long
// s, which strings.EqualFold matches with K and S) of each, and every
// second edit of some.
func keywordWords(t *templates.Set, rng *rand.Rand) []string {
	seen := map[string]bool{}
	var base []string
	add := func(w string) {
		if !seen[w] {
			seen[w] = true
			base = append(base, w)
		}
	}
	for w := range SeatKeywords {
		add(w)
	}
	for w := range BlockWords {
		add(w)
	}
	scopes := []string{"referee", "common"}
	for _, g := range engine.Games() {
		scopes = append(scopes, g.Info().Name)
		for _, c := range g.Info().Commands {
			add(c)
		}
	}
	for _, s := range scopes {
		for _, lang := range templates.Languages {
			for w := range t.Aliases(s, lang) {
				add(w)
			}
		}
	}
	slices.Sort(base)
	upper := len(base)
	for _, w := range base[:upper] {
		add(strings.ToLower(w))
		if rs := []rune(strings.ToLower(w)); len(rs) > 0 {
			rs[0] = unicode.ToUpper(rs[0])
			add(string(rs))
		}
	}
	letters := []rune("AEKSTÉÇÜaeßẞ\u212A\u017F-")
	edits := func(w string) []string {
		rs := []rune(w)
		var out []string
		for i := range rs {
			out = append(out, string(append(append([]rune{}, rs[:i]...), rs[i+1:]...)))
			if i+1 < len(rs) {
				s := append([]rune{}, rs...)
				s[i], s[i+1] = s[i+1], s[i]
				out = append(out, string(s))
			}
		}
		for _, c := range letters {
			for i := 0; i <= len(rs); i++ {
				out = append(out, string(append(append(append([]rune{}, rs[:i]...), c), rs[i:]...)))
				if i < len(rs) {
					s := append([]rune{}, rs...)
					s[i] = c
					out = append(out, string(s))
				}
			}
		}
		return out
	}
	words := append([]string{"", "A", "OK", "Plcae", "PLCAE", "Grazie", "Brauerei", "ÉCHANGER", "STRASSE"}, base...)
	for _, w := range base[:upper] {
		for _, e := range edits(w) {
			if rng.IntN(4) == 0 {
				words = append(words, e) // a quarter of them
			}
			if rng.IntN(500) == 0 {
				words = append(words, edits(e)...)
			}
		}
	}
	return words
}

// TestKeywordSetAnswersAsIsKeyword_Issue25: the referee's keyword set (a
// map of the words gathered once, issue 25) answers as IsKeyword, which
// asks every language's aliases of every scope, for every generated word
// (keywordWords), with the real templates and without any.
func TestKeywordSetAnswersAsIsKeyword_Issue25(t *testing.T) {
	rn, err := tell.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	words := keywordWords(rn.T, rand.New(rand.NewPCG(25, 1)))
	for _, set := range []*templates.Set{rn.T, nil} {
		k := KeywordSet(set)
		yes := 0
		for _, w := range words {
			want := IsKeyword(set, w)
			if want {
				yes++
			}
			if got := k.Is(w); got != want {
				t.Errorf("templates %v: Is(%q) = %v, IsKeyword = %v", set != nil, w, got, want)
			}
		}
		if yes == 0 || yes == len(words) {
			t.Fatalf("%d of %d words are keywords: the generation tests nothing", yes, len(words))
		}
		t.Logf("templates %v: %d words, %d keywords", set != nil, len(words), yes)
	}
}

// TestKeywordSetReadsProseAsBefore_Issue25: the keyword set's IsProse
// and SplitProse (its typo guard comparing with the keywords by length)
// answer as mailfmt.IsProse and SplitProse given IsKeyword (the typo
// guard trying every spelling one edit away), for generated lines: each
// generated word (keywordWords) first, alone, before an argument, a
// digit, a keyword in capitals or a word of prose, after a label or a
// greeting, in a signature-like line; and for texts of such lines.
func TestKeywordSetReadsProseAsBefore_Issue25(t *testing.T) {
	rn, err := tell.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(25, 2))
	words := keywordWords(rn.T, rng)
	k := KeywordSet(rn.T)
	// The set's answers are IsKeyword's (the test above); the reference
	// is the old typo guard, every spelling one edit away asked.
	ref := k.Is
	forms := []string{"%s", "%s MH3", "%s 2", "%s: 2 more days", "%s, grazie", "Hi %s 12", "%s Straße 5, Zürich",
		"I %s SHIELD", "Sent from my %s 15", "www.%s.example", "%s here is my move", "Ciao %s", "%s PASS", "%s option 2",
		"%s | PASS", "%s B 3"}
	var lines []string
	prose, n := 0, 0
	for _, w := range words {
		line := strings.ReplaceAll(forms[rng.IntN(len(forms))], "%s", w)
		want := mailfmt.IsProse(line, ref)
		if got := k.IsProse(line); got != want {
			t.Errorf("IsProse(%q) = %v, before %v", line, got, want)
		}
		n++
		if want {
			prose++
		}
		lines = append(lines, line)
	}
	if prose == 0 || prose == n {
		t.Fatalf("%d of %d lines prose: the generation tests nothing", prose, n)
	}
	for i := 0; i+8 <= len(lines); i += 8 {
		text := strings.Join(lines[i:i+8], "\n")
		wantText, wantProse := mailfmt.SplitProse(text, ref)
		gotText, gotProse := k.SplitProse(text)
		if gotText != wantText || strings.Join(gotProse, "\n") != strings.Join(wantProse, "\n") || (gotProse == nil) != (wantProse == nil) {
			t.Errorf("SplitProse(%q) = %q %q, before %q %q", text, gotText, gotProse, wantText, wantProse)
		}
	}
	t.Logf("%d lines, %d prose", n, prose)
}

// TestKeywordSetFoundWithoutListingGames_Issue25: the keyword set is
// asked once a mail; found made, it costs no list of the registered games
// (engine.Games sorts a new slice: issue 25, once a mail), only the boxed
// key of its map.
func TestKeywordSetFoundWithoutListingGames_Issue25(t *testing.T) {
	rn, err := tell.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	k := KeywordSet(rn.T)
	allocs := testing.AllocsPerRun(100, func() {
		if KeywordSet(rn.T) != k {
			t.Fatal("a second set made")
		}
	})
	if allocs > 1 {
		t.Fatalf("KeywordSet found made: %v allocations, want at most 1", allocs)
	}
}
