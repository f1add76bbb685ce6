package cmdtable

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/referee/rigs/typos"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/templates"
)

// plainKeywords is the reference of the keyword set: mailfmt's Keywords
// of every candidate IsKeyword is true for, asking IsKeyword of any
// other word (no word decided by the set alone, setDecides).
func plainKeywords(t *templates.Set) *mailfmt.Keywords {
	var words []string
	cands, _ := keywordCandidates(t, engine.Games())
	for w := range cands {
		if IsKeyword(t, w) {
			words = append(words, w)
		}
	}
	return mailfmt.NewKeywords(words, func(w string) bool { return IsKeyword(t, w) })
}

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
	cands, _ := keywordCandidates(t, engine.Games())
	for _, w := range slices.Sorted(maps.Keys(cands)) {
		add(w)
	}
	upper := len(base)
	for _, w := range base[:upper] {
		add(strings.ToLower(w))
		if rs := []rune(strings.ToLower(w)); len(rs) > 0 {
			rs[0] = unicode.ToUpper(rs[0])
			add(string(rs))
		}
	}
	letters := []rune("AEKSTÉÇÜaeßẞ\u212A\u017F-")
	edits := func(w string) []string { return typos.OneEdit(w, letters) }
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
		yes := isAsIsKeyword(t, set, words, nil)
		if yes == 0 || yes == len(words) {
			t.Fatalf("%d of %d words are keywords: the generation tests nothing", yes, len(words))
		}
		t.Logf("templates %v: %d words, %d keywords", set != nil, len(words), yes)
	}
}

// isAsIsKeyword checks that the keyword set of set answers as IsKeyword
// for each of words (and runs also, when not nil, on each), and returns
// how many of them are keywords.
func isAsIsKeyword(t *testing.T, set *templates.Set, words []string, also func(w string)) int {
	t.Helper()
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
		if also != nil {
			also(w)
		}
	}
	return yes
}

// TestKeywordSetReadsProseAsBefore_Issue25: the keyword set's IsProse
// and SplitProse (its words decided by its own map, setDecides) answer
// as plainKeywords' (IsKeyword asked of every other word), for
// generated lines: each
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
	// is a plain Keywords of every keyword gathered, asking IsKeyword of
	// any other word (its typo guard answers as asking every spelling one
	// edit away: mailfmt TestNearAnyAnswersAsNearKeyword).
	ref := plainKeywords(rn.T)
	forms := []string{"%s", "%s MH3", "%s 2", "%s: 2 more days", "%s, grazie", "Hi %s 12", "%s Straße 5, Zürich",
		"I %s SHIELD", "Sent from my %s 15", "www.%s.example", "%s here is my move", "Ciao %s", "%s PASS", "%s option 2",
		"%s | PASS", "%s B 3"}
	var lines []string
	prose, n := 0, 0
	for _, w := range words {
		line := strings.ReplaceAll(forms[rng.IntN(len(forms))], "%s", w)
		want := ref.IsProse(line)
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
		wantText, wantProse := ref.SplitProse(text)
		gotText, gotProse := k.SplitProse(text)
		if gotText != wantText || strings.Join(gotProse, "\n") != strings.Join(wantProse, "\n") || (gotProse == nil) != (wantProse == nil) {
			t.Errorf("SplitProse(%q) = %q %q, before %q %q", text, gotText, gotProse, wantText, wantProse)
		}
	}
	t.Logf("%d lines, %d prose", n, prose)
}

// kelvinGame is a game whose commands have a K, which strings.EqualFold
// matches with the Kelvin sign (U+212A): no real game's command has one.
type kelvinGame struct{ engine.Game }

func (kelvinGame) Info() engine.Info {
	return engine.Info{Name: "kelvintest", Title: "Kelvin", MinPlayers: 2, MaxPlayers: 4,
		Variants: []engine.Variant{{Name: "standard"}}, RulePrefix: "KT",
		Commands: []string{"KNOCK", "BAKE", "SKIP"}, Bots: []string{"random"}}
}

func init() {
	// The Kelvin-sign test's game: its commands are keywords of every
	// test of the package (the generated words take in their typos too).
	engine.Register(kelvinGame{enginetest.Claim})
}

// TestKeywordSetKelvinSignAsIsKeyword_Issue25: a game's command is
// matched without regard to case (strings.EqualFold), which matches the
// Kelvin sign with K and k: the keyword set, which decides a word in
// capitals by its map alone, asks IsKeyword of a word with the Kelvin
// sign (setDecides), so it answers as IsKeyword for every spelling of a
// command with K: each K and k of it as K, k or the Kelvin sign, in
// capitals, lower case and title case, and for words with the sign that
// are no command; and its typo guard reads them as before.
func TestKeywordSetKelvinSignAsIsKeyword_Issue25(t *testing.T) {
	rn, err := tell.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	var spell func(prefix, rest string)
	spell = func(prefix, rest string) {
		if rest == "" {
			words = append(words, prefix)
			return
		}
		r, size := utf8.DecodeRuneInString(rest)
		forms := []string{string(r), strings.ToLower(string(r))}
		if r == 'K' {
			forms = append(forms, "\u212A")
		}
		for _, f := range forms {
			spell(prefix+f, rest[size:])
		}
	}
	for _, c := range (kelvinGame{}).Info().Commands {
		spell("", c)
	}
	words = append(words, "\u212AEEP", "\u212A", "\u212AO", "BA\u212AER", "\u212ANOC", "SKIPS", "S\u212AIP\u212A")
	for _, set := range []*templates.Set{rn.T, nil} {
		k, ref := KeywordSet(set), plainKeywords(set)
		yes := isAsIsKeyword(t, set, words, func(w string) {
			for _, line := range []string{w, w + " 2", "Hi " + w + " there"} {
				if got, before := k.IsProse(line), ref.IsProse(line); got != before {
					t.Errorf("templates %v: IsProse(%q) = %v, before %v", set != nil, line, got, before)
				}
			}
		})
		if !IsKeyword(set, "\u212ANOCK") || !IsKeyword(set, "ba\u212Ae") || yes == len(words) {
			t.Fatalf("IsKeyword does not match the Kelvin sign with K, or every word is a keyword (%d of %d): the test tests nothing", yes, len(words))
		}
	}
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
