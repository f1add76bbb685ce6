package organise

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbem-referee/referee/templates"
)

// TestCommandListInTheReadersWords_Issue25 (issue 25: every word in the
// reader's language): organiser commands are read in every language, so
// the list an answer ends with (an unknown keyword, lines not acted on:
// commandList) and the organiser's help (org.help.<KW>, the rows of HELP
// and of the answer to the plain address) show each keyword as the
// organiser writes it in the answer's language (localWord: its first
// word there; NEW TOURNAMENT: org.word.new_tournament), in every
// language: each word listed reads back as its keyword, a language with a
// word of its own shows it (not the English one), the list names every
// keyword of the table once a family, and each help row names its
// keyword in the reader's word, within 80 columns.
func TestCommandListInTheReadersWords_Issue25(t *testing.T) {
	w := loadWords(t)
	h := &fakeHost{setWords: w}
	for _, lang := range templates.Languages {
		list := (&Call{h: h, lang: lang}).commandList()
		games, tours, ok := strings.Cut(list, "\n  "+strings.TrimSpace(must(t, w, lang, "org.word.new_tournament")))
		if !ok {
			t.Fatalf("%s: the list has no %s line:\n%s", lang, must(t, w, lang, "org.word.new_tournament"), list)
		}
		games = strings.TrimSuffix(games, must(t, w, lang, "org.word.for_tournaments"))
		if f := canonical(w, strings.Fields(must(t, w, lang, "org.word.new_tournament"))); strings.Join(f, " ") != "NEW TOURNAMENT" {
			t.Errorf("%s: %s reads as %q", lang, must(t, w, lang, "org.word.new_tournament"), f)
		}
		listed := map[string][]string{FamilyGames: strings.Fields(games), FamilyTournaments: strings.Fields(tours)}
		seen := map[string][]string{}
		for _, r := range Rows() {
			if r.Family == FamilyTournaments && r.Keyword == "NEW" || slices.Contains(seen[r.Family], r.Keyword) {
				continue
			}
			seen[r.Family] = append(seen[r.Family], r.Keyword)
			word := localWord(w, lang, r.Keyword)
			if !slices.Contains(listed[r.Family], word) {
				t.Errorf("%s: the list lacks %s's word %s:\n%s", lang, r.Keyword, word, list)
			}
			if f := canonical(w, []string{word, "g1"}); f[0] != r.Keyword {
				t.Errorf("%s: %s is listed for %s and reads as %s", lang, word, r.Keyword, f[0])
			}
			if lang != "en" && word == r.Keyword && len(wordsOf(w, lang, r.Keyword)) > 0 {
				t.Errorf("%s: %s is listed in English though %v are its words", lang, r.Keyword, wordsOf(w, lang, r.Keyword))
			}
			row := "org.help." + r.Keyword
			switch {
			case r.Help != "":
				row = r.Help // RESUME: with PAUSE
			case r.Row == 0:
				continue
			case r.Family == FamilyTournaments:
				row = "org.help.tournament." + r.Keyword
			}
			text, err := w.s.Render("referee", lang, row, templates.Ctx{Lang: lang, Seat: -1, Data: map[string]any{"games": []string{"toy"}}})
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Split(text, "\n") {
				if utf8.RuneCountInString(l) > 80 {
					t.Errorf("%s: the help's row of %s is %d columns wide: %s", lang, r.Keyword, utf8.RuneCountInString(l), l)
				}
			}
			if !slices.Contains(strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '(' || r == ')' || r == '\n' }), word) {
				t.Errorf("%s: the help's row of %s does not name %s:\n%s", lang, r.Keyword, word, text)
			}
		}
		for fam, words := range listed {
			if len(words) != len(seen[fam]) {
				t.Errorf("%s: %d words listed for %d keywords: %q", lang, len(words), len(seen[fam]), words)
			}
		}
	}
}

// must is template name of the referee's scope in lang.
func must(t *testing.T, w setWords, lang, name string) string {
	t.Helper()
	s, err := w.Text(lang, name, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
