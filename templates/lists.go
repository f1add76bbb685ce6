package templates

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"strings"
)

// Word lists (issue 20): answers.txt holds, per scope and language, the
// words a reader of the language writes around an answer, one kind a
// line, "kind: word, phrase of words, ...":
//
//	chat    greetings, thanks, please and closings that may stand before or
//	        after a command on its line ("Ciao, PASSA - grazie")
//	words   common words one edit from a keyword of some game ("past",
//	        "mine", "donc"), never read as a mistyped keyword
//
// (The words before an option number, "opzione 2", are mailfmt's
// OptionWords: one list for reading where a reply ends and its answers.)
// A kind may take several lines; '#' starts a comment. The referee reads
// every language's lists (a player may write in any of them); see
// mailfmt.AnswerVocab for how they are used.

// List returns the words of a kind of the scope's answers.txt in lang
// (nil when none), lower case.
func (s *Set) List(scope, lang, kind string) []string {
	return s.lists[dir{scope, lang}][kind]
}

func parseLists(fsys fs.FS, p string) (map[string][]string, error) {
	b, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, err
	}
	m := map[string][]string{}
	err = dataLines(b, func(n int, line string) error {
		kind, words, ok := strings.Cut(line, ":")
		kind = strings.TrimSpace(kind)
		if !ok || kind == "" || strings.ContainsAny(kind, " \t") {
			return fmt.Errorf("templates: %s:%d: want \"kind: word, word\"", p, n)
		}
		for _, w := range strings.Split(words, ",") {
			if w = strings.Join(strings.Fields(strings.ToLower(w)), " "); w != "" {
				m[kind] = append(m[kind], w)
			}
		}
		return nil
	})
	return m, err
}

// dataLines calls f with each line of a data file that is not blank once
// its '#' comment is cut (n counts from 1 over every line).
func dataLines(b []byte, f func(n int, line string) error) error {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if err := f(n, line); err != nil {
			return err
		}
	}
	return sc.Err()
}

// Aliases returns the command aliases of a scope in lang (alias ->
// keyword, upper case; nil when none). The map is shared: never change it.
func (s *Set) Aliases(scope, lang string) map[string]string {
	return s.aliases[dir{scope, lang}]
}
