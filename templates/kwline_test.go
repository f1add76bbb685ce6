package templates

import (
	"slices"
	"strings"
	"testing"
)

// kwLineByParts is KwLine as it was before its one-command path (the
// reference): every command split, rebuilt and joined.
func kwLineByParts(c Ctx, line string) string {
	parts := strings.Split(line, " / ")
	for i, p := range parts {
		lead := p[:len(p)-len(strings.TrimLeft(p, " \""))]
		word, tail, _ := strings.Cut(p[len(lead):], " ")
		if w := c.Kw(word); w != strings.ToUpper(word) {
			word = w
		}
		if tail != "" && c.Arg != nil {
			tail = ArgLine(tail, c.Arg)
		}
		if tail != "" {
			parts[i] = lead + word + " " + tail
		} else {
			parts[i] = lead + word
		}
	}
	return strings.Join(parts, " / ")
}

// TestKwLineAsByParts_Issue24: KwLine gives the same text as the split and
// rebuilt form for every game's command words and argument words, every
// language, with leads, trailing spaces, punctuation and " / " chains; the
// line itself comes back uncopied when nothing in it changes.
func TestKwLineAsByParts_Issue24(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"", "x", "B3", "P2:K5"}
	for _, scope := range s.Scopes() {
		for _, lang := range Languages {
			for _, m := range []map[string]string{s.words[dir{scope, lang}], s.argWords[dir{scope, lang}]} {
				for k, v := range m {
					words = append(words, k, v, strings.ToLower(k))
				}
			}
		}
	}
	slices.Sort(words)
	words = slices.Compact(words)
	args := []string{"", " ", "B3", "SEED", "seed,", "ALL>=4", "MH1 SEED", "1  2", "SEED.", "x\tSEED"}
	leads := []string{"", " ", "\"", " \"", "  "}
	ends := []string{"", " ", "  "}
	n, same := 0, 0
	for _, scope := range s.Scopes() {
		for _, lang := range Languages {
			c := Ctx{Lang: lang, Game: scope,
				Word: func(kw string) string { return s.Word(scope, lang, kw) },
				Arg:  func(w string) string { return s.ArgWord(scope, lang, w) }}
			for k, w := range words {
				for _, a := range args {
					lead, end := leads[k%len(leads)], ends[(k/len(leads))%len(ends)]
					line := lead + strings.TrimSpace(w+" "+a) + end
					if k%7 == 0 {
						line += " / " + words[(k*3)%len(words)] + " " + a
					}
					got, want := c.KwLine(line), kwLineByParts(c, line)
					if got != want {
						t.Fatalf("%s/%s KwLine(%q) = %q, want %q", scope, lang, line, got, want)
					}
					n++
					if got == line {
						same++
					}
				}
			}
		}
	}
	if n < 10000 || same == 0 || same == n {
		t.Fatalf("%d lines, %d unchanged: the generation is too narrow", n, same)
	}
	t.Logf("%d lines, %d unchanged", n, same)
}
