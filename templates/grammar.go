package templates

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Grammar (issue 22): the rules a template needs to agree a noun with its
// count and to elide an article before a vowel are data of the language,
// common/<lang>/grammar.txt, "kind: item, item":
//
//	singular  the counts that take the singular ("1"; French "0, 1")
//	vowels    the letters before which a word elides (d'Ann, l'orge)
//
// and the words themselves are the template's: {{plural .n "ducato"
// "ducati"}}, {{count .n "ducato" "ducati"}} ("1 ducato", "2 ducati"),
// {{elide "d'" "de " $name}} ("d'Ann", "de Bob"). No Go code knows a
// language's grammar.
type grammar struct {
	singular map[int]bool
	vowels   string
}

func parseGrammar(fsys fs.FS, p string) (grammar, error) {
	g := grammar{singular: map[int]bool{}}
	b, err := fs.ReadFile(fsys, p)
	if err != nil {
		return g, err
	}
	err = dataLines(b, func(n int, line string) error {
		kind, list, _ := strings.Cut(line, ":")
		for _, item := range strings.Split(list, ",") {
			item = strings.TrimSpace(item)
			switch strings.TrimSpace(kind) {
			case "singular":
				k, err := strconv.Atoi(item)
				if err != nil {
					return fmt.Errorf("templates: %s:%d: %q is no count", p, n, item)
				}
				g.singular[k] = true
			case "vowels":
				g.vowels += strings.ToLower(item)
			default:
				return fmt.Errorf("templates: %s:%d: want \"singular: 1\" or \"vowels: a, e\"", p, n)
			}
		}
		return nil
	})
	return g, err
}

// grammarOf returns the grammar of lang (English's rule, 1 is singular,
// when lang has no grammar.txt).
func (s *Set) grammarOf(lang string) grammar {
	if g, ok := s.grammar[lang]; ok {
		return g
	}
	if g, ok := s.grammar["en"]; ok {
		return g
	}
	return grammar{singular: map[int]bool{1: true}}
}

// plural returns one or many by the count n, by the language's rule.
func (g grammar) plural(n any, one, many string) string {
	if g.singular[toInt(n)] {
		return one
	}
	return many
}

// count writes a count and its noun: "1 ducato", "2 ducati".
func (g grammar) count(n any, one, many string) string {
	return num(n) + " " + g.plural(n, one, many)
}

// elide writes word after short when it starts with one of the language's
// vowels ("d'" Ann), after long otherwise ("de " Bob).
func (g grammar) elide(short, long string, word any) string {
	w := sprint(word)
	r, _ := utf8.DecodeRuneInString(strings.ToLower(w))
	if r != utf8.RuneError && g.vowels != "" && strings.ContainsRune(g.vowels, r) {
		return short + w
	}
	return long + w
}
