package organise

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/templates"
)

// TestStartsNamed (issue 24): the tournaments an organiser's text STARTs
// are found by START's word in every language and case, among other
// commands, comments and blank lines, lower-cased, in the text's order;
// a START without an id and a commented START name none.
func TestStartsNamed(t *testing.T) {
	w := loadWords(t)
	for _, lang := range templates.Languages {
		words := append(wordsOf(w, lang, "START"), "START", w.s.Word("referee", lang, "START"))
		for i, word := range words {
			for _, form := range []string{strings.ToUpper(word), strings.ToLower(word), strings.ToUpper(word[:1]) + strings.ToLower(word[1:])} {
				text := strings.Join([]string{
					"LIST",
					fmt.Sprintf("%s Cup%d", form, i),
					"# " + form + " hidden",
					"",
					form,
					fmt.Sprintf("  %s  League-%s  now", form, lang),
					"STATUS cup9",
				}, "\n")
				got := StartsNamed(w, text)
				want := []string{fmt.Sprintf("cup%d", i), "league-" + lang}
				if !slices.Equal(got, want) {
					t.Errorf("%s %q: %v, want %v", lang, form, got, want)
				}
			}
		}
	}
}
