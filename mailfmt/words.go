package mailfmt

import (
	_ "embed"
	"regexp"
	"sort"
	"strings"
)

// replyWords is the data file of the words the reply reader knows, per
// language (see words/reply.txt and doc.go).
//
//go:embed words/reply.txt
var replyWords string

// wordSections parses replyWords: section name (and section/label of a
// line) to phrases, lower-cased unless the section matches case
// (company-form), in file order.
var wordSections = parseWordSections(replyWords)

func parseWordSections(text string) map[string][]string {
	out := map[string][]string{}
	section := ""
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") {
			section = l[1 : len(l)-1]
			continue
		}
		label, phrases, ok := strings.Cut(l, ":")
		if !ok || section == "" {
			panic("mailfmt: words/reply.txt: bad line " + l)
		}
		for _, p := range strings.Split(phrases, "|") {
			p = strings.Join(strings.Fields(p), " ")
			if p == "" {
				continue
			}
			if section != "company-form" {
				p = strings.ToLower(p)
			}
			// A line's label names it too: "number-parts/en-unit".
			for _, key := range []string{section, section + "/" + strings.TrimSpace(label)} {
				out[key] = append(out[key], p)
			}
		}
	}
	return out
}

// words returns the phrases of a section, deduplicated; it panics on an
// unknown section (a typo in this package, caught by any test).
func words(section string) []string {
	ws, ok := wordSections[section]
	if !ok {
		panic("mailfmt: words/reply.txt has no section " + section)
	}
	seen := map[string]bool{}
	var out []string
	for _, w := range ws {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// alternation returns the regexp alternation of phrases, longest first,
// any space matching any run of spaces.
func alternation(phrases []string) string {
	ps := append([]string(nil), phrases...)
	sort.SliceStable(ps, func(i, j int) bool { return len(ps[i]) > len(ps[j]) })
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = strings.ReplaceAll(regexp.QuoteMeta(p), " ", `\s+`)
	}
	return strings.Join(parts, "|")
}

// phraseSet returns the set of a section's phrases.
func phraseSet(section string) map[string]bool {
	m := map[string]bool{}
	for _, w := range words(section) {
		m[w] = true
	}
	return m
}

// normPhrase lower-cases a phrase and collapses its spaces, for lookups in
// a phraseSet.
func normPhrase(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// OptionWords are the words that may stand before an option number
// ("option 2", "opzione 2", "choix 2", "optie 2"), in every language we
// read (words/reply.txt [option]): the one list that the reply-end rules
// (an answer line is never hidden by a signature mark) and AnswerReader
// share.
func OptionWords() []string { return words("option") }
