// Package langcheck finds English in a text meant for a reader of another
// language (issue 22: every word in the reader's language). It is for
// tests: the readers' language test of the mails (referee) and the pages'
// (referee/pages) use it.
//
// The English words are our own: every word of the English templates
// (testdata/english.txt, generated from templates/*/en by
// TestEnglishListIsOurs -update; no list copied from elsewhere). A word
// that is also a word of a language (Dutch "of", Italian "bonus", French
// "options") is excepted for that language only: testdata/also-<lang>.txt,
// the English words its own templates use, checked by TestAlsoLists (a
// new one fails until it is looked at: a word of the language is added
// there, an English word left in a translation is translated). A file of
// a language still in English (testdata/untranslated.txt) does not count
// as that language's words. Codes and
// commands (words in capitals), names and titles are not words here: the
// caller takes names out, Words skips capitals.
//
// It owns the word lists and the rules that cut a text into words. It
// must not be imported by code that runs in the daemon (it is a test
// helper), nor hold a word of any language in Go.
package langcheck

import (
	"bufio"
	"bytes"
	"embed"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
)

//go:embed testdata/*.txt
var data embed.FS

// Words are the words of text a reader reads, lower-cased: runs of
// letters of two or more, a word written in capitals (a code, a command)
// and a word with a digit (an id) left out.
func Words(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if strings.IndexFunc(w, unicode.IsDigit) >= 0 || w == strings.ToUpper(w) {
			continue
		}
		if w = strings.ToLower(w); len([]rune(w)) >= 2 {
			out = append(out, w)
		}
	}
	return out
}

var (
	// tmplCommentRe is a template's comment (it may quote an action).
	tmplCommentRe = regexp.MustCompile(`(?s){{-?\s*/\*.*?\*/\s*-?}}`)
	// actionRe is a template's action.
	actionRe = regexp.MustCompile(`(?s){{.*?}}`)
	// literalRe is a quoted literal in an action.
	literalRe = regexp.MustCompile(`"([^"\\]*)"`)
	// nounsRe is a call of a grammar function: its two last literals are
	// words of the language ({{count .n "ducat" "ducats"}}, {{elide "d'"
	// "de " .x}}).
	nounsRe = regexp.MustCompile(`\b(?:plural|count|elide)\b[^"]*"([^"\\]*)"\s*"([^"\\]*)"`)
	// dictRe is a dict of literals: its keys are names a template looks
	// up (often the English word), its values the words.
	dictRe = regexp.MustCompile(`\bdict((?:\s+"[^"\\]*")+)`)
	// keyRe is the key of a line of answers.txt ("words: ...").
	keyRe = regexp.MustCompile(`(?m)^\s*[a-z_]+:`)
	// aliasRe is an alias line ("PASSA = PASS"): its alias only.
	aliasRe = regexp.MustCompile(`(?m)^([^=#\n]*)=.*$`)
	// commentRe is a comment line of a data file.
	commentRe = regexp.MustCompile(`(?m)^\s*#.*$`)
)

// TemplateWords are the words a reader of lang may read from its
// templates (every scope): the text outside the actions, and the literals
// inside them that are words (with a capital or a space, "Lager al miele",
// or given to a grammar function); of an alias file, the aliases.
func TemplateWords(fsys fs.FS, lang string) (map[string]bool, error) {
	return templateWords(fsys, lang, nil)
}

// Untranslated are the template files of a language still written in
// English (testdata/untranslated.txt): left out of what that language's
// templates say is a word of it, so that their English is not excepted.
func Untranslated() map[string]bool { return list("untranslated.txt") }

func templateWords(fsys fs.FS, lang string, skip map[string]bool) (map[string]bool, error) {
	out := map[string]bool{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Base(path.Dir(p)) != lang || skip[p] {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		text := actionRe.ReplaceAllStringFunc(tmplCommentRe.ReplaceAllString(string(b), " "), func(a string) string {
			var lits []string
			a = dictRe.ReplaceAllStringFunc(a, func(d string) string {
				// A value under a key like a field's (Kind, ID) is data.
				ms := literalRe.FindAllStringSubmatch(d, -1)
				for i := 1; i < len(ms); i += 2 {
					if k := []rune(ms[i-1][1] + " "); !unicode.IsUpper(k[0]) {
						lits = append(lits, ms[i][1])
					}
				}
				return " "
			})
			for _, m := range literalRe.FindAllStringSubmatch(a, -1) {
				if l := m[1]; strings.Contains(l, " ") || unicode.IsUpper([]rune(l + " ")[0]) {
					lits = append(lits, l)
				}
			}
			for _, m := range nounsRe.FindAllStringSubmatch(a, -1) {
				lits = append(lits, m[1], m[2])
			}
			return " " + strings.Join(lits, " ") + " "
		})
		switch path.Base(p) {
		case "aliases.txt", "args.txt":
			text = aliasRe.ReplaceAllString(commentRe.ReplaceAllString(text, ""), "$1")
		case "grammar.txt":
			text = ""
		case "answers.txt":
			text = keyRe.ReplaceAllString(commentRe.ReplaceAllString(text, ""), " ")
		default:
			if !strings.HasSuffix(p, ".tmpl") {
				text = commentRe.ReplaceAllString(text, "")
			}
		}
		for _, w := range Words(text) {
			out[w] = true
		}
		return nil
	})
	return out, err
}

// list reads a word list of testdata: a word a line, # comments.
func list(name string) map[string]bool {
	out := map[string]bool{}
	b, err := data.ReadFile("testdata/" + name)
	if err != nil {
		return out
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if w, _, _ := strings.Cut(sc.Text(), "#"); strings.TrimSpace(w) != "" {
			out[strings.TrimSpace(w)] = true
		}
	}
	return out
}

var lists sync.Map // lang -> map[string]bool

// English are the English words a text for a reader of lang must not
// carry: our English templates' words but those also of lang.
func English(lang string) map[string]bool {
	if m, ok := lists.Load(lang); ok {
		return m.(map[string]bool)
	}
	en := list("english.txt")
	for w := range list("also-" + lang + ".txt") {
		delete(en, w)
	}
	m, _ := lists.LoadOrStore(lang, en)
	return m.(map[string]bool)
}

// Leaks are the English words (English(lang)) of text, each once, in order.
func Leaks(lang, text string) []string {
	if lang == "en" {
		return nil
	}
	en := English(lang)
	seen := map[string]bool{}
	var out []string
	for _, w := range Words(text) {
		if en[w] && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}
