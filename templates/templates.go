package templates

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"text/template"
	"time"
)

//go:embed languages.txt */*/*.tmpl */*/aliases.txt */*/args.txt */*/answers.txt */*/dates.txt */*/grammar.txt
var files embed.FS

// Files are the embedded template files (languages.txt and
// <scope>/<lang>/...), read only: for the checks that compare the words of
// the languages (package langcheck).
func Files() fs.FS { return files }

// Languages are the languages players can read, English first (the
// fallback): the lines of languages.txt. Adding a language is a line there
// and its directories (README.md); no Go code names a language.
var Languages = mustLanguages(files)

func mustLanguages(fsys fs.FS) []string {
	langs, err := readLanguages(fsys)
	if err != nil {
		panic(err)
	}
	return langs
}

// readLanguages reads languages.txt: one language code a line, English
// first; '#' starts a comment.
func readLanguages(fsys fs.FS) ([]string, error) {
	b, err := fs.ReadFile(fsys, "languages.txt")
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	var langs []string
	err = dataLines(b, func(n int, line string) error {
		l := strings.TrimSpace(line)
		if strings.ContainsAny(l, " \t/") || l != strings.ToLower(l) {
			return fmt.Errorf("templates: languages.txt:%d: want one language code", n)
		}
		langs = append(langs, l)
		return nil
	})
	if err == nil && (len(langs) == 0 || langs[0] != "en") {
		err = fmt.Errorf("templates: languages.txt: English (en) must come first")
	}
	return langs, err
}

// IsLanguage reports whether lang is one of Languages.
func IsLanguage(lang string) bool {
	return slices.Contains(Languages, lang)
}

// Ctx is the data every template receives.
type Ctx struct {
	Lang  string   // the reader's language
	Game  string   // the game (scope) name, "" for referee mails
	Seat  int      // the reader's seat, -1 for an observer or a non-player
	Seats []string // the players' names by seat
	Data  any      // what is rendered: a view, a prompt, an event, an error...
	// Compact asks a summary for the state without what rarely changes or
	// is shown elsewhere (STATUS FULL gives everything).
	Compact bool
	// Word returns a command keyword in the reader's language (Set.Word);
	// nil leaves keywords as they are.
	Word func(kw string) string
	// Arg returns an argument word in the reader's language (Set.ArgWord);
	// nil leaves arguments as they are.
	Arg func(word string) string
}

// Kw is a command keyword in the reader's language: {{$.Kw "PLACE"}}.
func (c Ctx) Kw(kw string) string {
	if c.Word == nil {
		return kw
	}
	return c.Word(kw)
}

// Ar is an argument word in the reader's language: {{$.Ar "THEN"}} is POI
// for an Italian reader (args.txt); English is always accepted too.
func (c Ctx) Ar(w string) string {
	if c.Arg == nil {
		return w
	}
	return c.Arg(w)
}

// KwLine writes the keyword of each command of an example in the reader's
// language, and its argument words: "PLACE MH1 SEED" is "PIAZZA MH1 SEME"
// for an Italian reader; commands separated by " / " are each translated.
func (c Ctx) KwLine(line string) string {
	if !strings.Contains(line, " / ") {
		return c.kwCommand(line)
	}
	parts := strings.Split(line, " / ")
	for i, p := range parts {
		parts[i] = c.kwCommand(p)
	}
	return strings.Join(parts, " / ")
}

// kwCommand is KwLine of one command; p itself (no copy) when no word of
// it changes (issue 24: a menu's lines of a round's 5,000 games).
func (c Ctx) kwCommand(p string) string {
	lead := p[:len(p)-len(strings.TrimLeft(p, " \""))]
	rest := p[len(lead):]
	word, tail, _ := strings.Cut(rest, " ")
	said, args := word, tail
	if w := c.Kw(word); w != strings.ToUpper(word) {
		said = w
	}
	if tail != "" && c.Arg != nil {
		args = ArgLine(tail, c.Arg)
	}
	switch {
	case said == word && args == tail && (tail != "" || rest == word):
		return p // "WORD " loses its space below
	case args != "":
		return lead + said + " " + args
	default:
		return lead + said
	}
}

// Name returns the name of seat s ("?" when s is no seat, -1 too).
func (c Ctx) Name(s int) string { return who(c.Seats, s, "?") }

// Who names seat s as Name does when s is a seat, else other (the view's
// own word for what is no seat: the Corporation, "" for nobody). An engine's
// view carries the seat of every player it names in a string or a list
// (issue 24), so that the template names who holds it now:
// {{$.Who .FacesSeat $v.CorpName}}.
func (c Ctx) Who(s int, other string) string { return who(c.Seats, s, other) }

// WhoAll is Who of every seat of a list, in a new list:
// {{join ", " ($.WhoAll $v.EndBySeats $v.CorpName)}}.
func (c Ctx) WhoAll(seats []int, other string) []string { return whoAll(c.Seats, seats, other) }

// With returns a copy of c with other data.
func (c Ctx) With(data any) Ctx { c.Data = data; return c }

// dir is a scope and a language: the directory <scope>/<lang> of the
// tree. The Set's maps are keyed by it, so that a look-up on the render
// path builds no string (no "scope/lang" concatenated per call).
type dir struct{ scope, lang string }

func dirOf(p string) dir {
	scope, lang := path.Split(p)
	return dir{strings.TrimSuffix(scope, "/"), lang}
}

// Set is the parsed templates. It is never changed after load.
type Set struct {
	byKey   map[dir]*template.Template
	aliases map[dir]map[string]string // alias -> keyword
	words   map[dir]map[string]string // keyword -> its first alias
	// args and argWords are the same for the argument words of commands
	// (args.txt: SEME = SEED, TIENI = KEEP, OGNI = EVERY...).
	args     map[dir]map[string]string
	argWords map[dir]map[string]string
	// lists are the word lists of answers.txt (kind -> words), see List.
	lists map[dir]map[string][]string
	// langs are the languages of the set (languages.txt); dates are the
	// names of days and months per language (dates.txt).
	langs   []string
	dates   map[string]dateWords
	days    map[string]time.Weekday // every language's day words (ParseDay)
	grammar map[string]grammar      // grammar.txt per language
	// folded counts the constant tables built at load (fold.go).
	folded int
	// optionOnly are the option.<kind> templates whose text is a
	// function of the option only (reads.go), checked at load
	// (a nil or empty list) or of the option and the view's fields
	// listed indexed by its command or group (Keyed).
	optionOnly map[*template.Template]Reads
	// internal is the referee's "internal.error" text per language,
	// rendered once at load (Internal).
	internal map[string]string
	// kept are the texts of tmpl's calls with a value for data
	// (kept.go, issue 25).
	kept *keptCalls
	// replyLines are the reply lines by language (replyline.go).
	replyLines map[string]string
}

// Load returns the embedded templates, parsed once per process (a Set is
// read-only and safe for concurrent use). It fails on any syntax error.
// After Install, it returns the installed Set.
func Load() (*Set, error) {
	installed.Lock()
	s := installed.s
	installed.Unlock()
	if s != nil {
		return s, nil
	}
	return loadEmbedded()
}

var loadEmbedded = sync.OnceValues(func() (*Set, error) { return load(files, true, true) })

var installed struct {
	sync.Mutex
	s *Set
}

// LoadUnkept parses the embedded templates anew, with nothing kept from
// one rendering to the next (tmpl's calls are rendered every time,
// kept.go): the reference the tests of what is kept compare with.
func LoadUnkept() (*Set, error) {
	s, err := load(files, true, false)
	if err == nil {
		s.kept.off = true
	}
	return s, err
}

// LoadFS parses the templates of a tree laid out as this directory is
// (languages.txt, <scope>/<lang>/...): templates kept outside the binary,
// or a new language tried before it is built in (README.md).
func LoadFS(fsys fs.FS) (*Set, error) { return load(fsys, true, true) }

// Install makes s the Set that Load returns and its languages the
// Languages, until the returned function puts the previous ones back. It
// is for tests (a stub language end to end) and for a binary run with
// templates from elsewhere; call it before anything renders, never
// concurrently with rendering.
func Install(s *Set) (restore func()) {
	installed.Lock()
	prev, prevLangs := installed.s, Languages
	installed.s, Languages = s, s.langs
	installed.Unlock()
	return func() {
		installed.Lock()
		installed.s, Languages = prev, prevLangs
		installed.Unlock()
	}
}

// Languages returns the languages of the set, English first.
func (s *Set) Languages() []string { return s.langs }

// load parses a tree; fold folds its constant tables (fold.go; the tests
// compare with a set loaded without).
func load(fsys fs.FS, fold, keep bool) (*Set, error) {
	s := &Set{byKey: map[dir]*template.Template{}, aliases: map[dir]map[string]string{}, words: map[dir]map[string]string{},
		args: map[dir]map[string]string{}, argWords: map[dir]map[string]string{}, lists: map[dir]map[string][]string{},
		dates: map[string]dateWords{}, grammar: map[string]grammar{}, kept: &keptCalls{}}
	if _, err := fs.Stat(fsys, "languages.txt"); err == nil {
		langs, err := readLanguages(fsys)
		if err != nil {
			return nil, err
		}
		s.langs = langs
	} else {
		s.langs = Languages
	}
	dirs := map[string][]string{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		at := dirOf(path.Dir(p))
		switch {
		case strings.HasSuffix(p, ".tmpl"):
			dirs[path.Dir(p)] = append(dirs[path.Dir(p)], p)
		case path.Base(p) == "aliases.txt":
			m, first, err := parseAliases(fsys, p)
			if err != nil {
				return err
			}
			s.aliases[at], s.words[at] = m, first
		case path.Base(p) == "answers.txt":
			m, err := parseLists(fsys, p)
			if err != nil {
				return err
			}
			s.lists[at] = m
		case path.Base(p) == "grammar.txt":
			g, err := parseGrammar(fsys, p)
			if err != nil {
				return err
			}
			s.grammar[at.lang] = g
		case path.Base(p) == "dates.txt":
			dw, err := parseDates(fsys, p)
			if err != nil {
				return err
			}
			s.dates[at.lang] = dw
		case path.Base(p) == "args.txt":
			m, first, err := parseAliases(fsys, p)
			if err != nil {
				return err
			}
			s.args[at], s.argWords[at] = m, first
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Common first: the other scopes of a language include it.
	keys := make([]string, 0, len(dirs))
	for k := range dirs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		ci, cj := strings.HasPrefix(keys[i], "common/"), strings.HasPrefix(keys[j], "common/")
		if ci != cj {
			return ci
		}
		return keys[i] < keys[j]
	})
	for _, key := range keys {
		scope, lang := path.Split(key)
		scope = strings.TrimSuffix(scope, "/")
		if !slices.Contains(s.langs, lang) {
			return nil, fmt.Errorf("templates: %s: unknown language %q", key, lang)
		}
		t := template.New(key).Funcs(funcs).Option("missingkey=error")
		t.Funcs(s.setFuncs(scope, lang, t))
		if scope != "common" {
			if c := s.byKey[dir{"common", lang}]; c != nil {
				for _, ct := range c.Templates() {
					if ct.Name() == c.Name() {
						continue
					}
					if _, err := t.AddParseTree(ct.Name(), ct.Tree); err != nil {
						return nil, err
					}
				}
			}
		}
		for _, f := range dirs[key] {
			b, err := fs.ReadFile(fsys, f)
			if err != nil {
				return nil, err
			}
			if _, err := t.New(f).Parse(string(b)); err != nil {
				return nil, fmt.Errorf("templates: %w", err)
			}
		}
		s.byKey[dir{scope, lang}] = t
	}
	s.days = s.dayWords()
	if fold {
		s.foldConstants()
	}
	s.optionOnly = map[*template.Template]Reads{}
	for _, t := range s.byKey {
		for _, d := range t.Templates() {
			if !strings.HasPrefix(d.Name(), "option.") {
				continue
			}
			if r, ok := optionOnly(d, d); ok {
				s.optionOnly[d] = r
			}
		}
	}
	if keep {
		s.keepTemplateCalls()
	}
	if err := s.loadReplyLines(); err != nil {
		return nil, err
	}
	s.internal = map[string]string{}
	for _, lang := range s.langs {
		if t := s.lookup("referee", lang, "internal.error"); t != nil {
			text, err := execute(t, "referee", lang, "internal.error", nil)
			if err != nil {
				return nil, fmt.Errorf("templates: internal.error in %s: %w", lang, err)
			}
			s.internal[lang] = text
		}
	}
	return s, nil
}

// Internal is the words a reader of lang reads where a template failed to
// render (a template's bug: the caller logs the error for the keeper): the
// referee's "internal.error", rendered once at load, so that it cannot
// fail when it is needed (English when lang has none, "" when no language
// has one). No error's own text ever takes its place.
func (s *Set) Internal(lang string) string {
	if t, ok := s.internal[lang]; ok {
		return t
	}
	return s.internal["en"]
}

// setFuncs are the template functions of the templates of scope in lang
// (t: their set of definitions) besides funcs: each reads its arguments
// and the Set, which does not change after load
// (TestFuncsReadOnlyTheirArguments classifies every function).
func (s *Set) setFuncs(scope, lang string, t *template.Template) template.FuncMap {
	g := s.grammarOf(lang)
	return template.FuncMap{
		"dayname": s.dayName, "plural": g.plural, "count": g.count, "elide": g.elide,
		// tmpl renders a template chosen by name at run time (a card's name
		// by its id: "bc.name.HEAD_BREWER"), looked up like Render does;
		// "" when the name is defined nowhere (issue 22).
		"tmpl": func(name string, data any) (string, error) {
			d := s.lookup(scope, lang, name)
			if d == nil {
				return "", nil
			}
			return s.kept.render(d, data)
		},
		// A {{template}} call, kept (kept.go: keepTemplateCalls): found
		// in t's definitions as {{template}} finds it.
		keptTemplateFunc: func(name string, data any) (string, error) {
			d := t.Lookup(name)
			if d == nil {
				return "", fmt.Errorf("template %q not defined", name)
			}
			return s.kept.render(d, data)
		},
	}
}

func parseAliases(fsys fs.FS, p string) (map[string]string, map[string]string, error) {
	b, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, nil, err
	}
	m, first := map[string]string{}, map[string]string{}
	err = dataLines(b, func(n int, line string) error {
		alias, kw, ok := strings.Cut(line, "=")
		alias, kw = strings.ToUpper(strings.TrimSpace(alias)), strings.ToUpper(strings.TrimSpace(kw))
		if !ok || alias == "" || kw == "" || strings.ContainsAny(alias, " \t") {
			return fmt.Errorf("templates: %s:%d: want \"ALIAS = KEYWORD\"", p, n)
		}
		m[alias] = kw
		if _, ok := first[kw]; !ok {
			first[kw] = alias
		}
		return nil
	})
	return m, first, err
}

// Word returns a command keyword as a reader of lang writes it: the first
// alias of the keyword in the scope's or the common aliases of lang, or the
// keyword itself (always for English).
func (s *Set) Word(scope, lang, kw string) string {
	kw = strings.ToUpper(kw)
	if lang == "en" {
		return kw
	}
	for _, key := range [...]dir{{scope, lang}, {"common", lang}} {
		if w, ok := s.words[key][kw]; ok {
			return w
		}
	}
	return kw
}

// lookup finds the template defining name, with the fallbacks of Render.
func (s *Set) lookup(scope, lang, name string) *template.Template {
	for _, key := range [...]dir{{scope, lang}, {scope, "en"}, {"common", lang}, {"common", "en"}} {
		if t := s.byKey[key]; t != nil {
			if d := t.Lookup(name); d != nil {
				return d
			}
		}
	}
	return nil
}

// Has reports whether name is defined for scope (with fallbacks).
func (s *Set) Has(scope, lang, name string) bool { return s.lookup(scope, lang, name) != nil }

// Defined returns the names defined in scope/lang itself (no fallback),
// sorted; common names are included only for the common scope.
func (s *Set) Defined(scope, lang string) []string {
	t := s.byKey[dir{scope, lang}]
	if t == nil {
		return nil
	}
	var common map[string]bool
	if scope != "common" {
		common = map[string]bool{}
		if c := s.byKey[dir{"common", lang}]; c != nil {
			for _, ct := range c.Templates() {
				common[ct.Name()] = true
			}
		}
	}
	var out []string
	for _, d := range t.Templates() {
		n := d.Name()
		if strings.HasSuffix(n, ".tmpl") || n == t.Name() || common[n] {
			continue
		}
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Scopes returns the scopes that have templates.
func (s *Set) Scopes() []string {
	seen := map[string]bool{}
	for k := range s.byKey {
		seen[k.scope] = true
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Render executes the named template. Output lines are right-trimmed and runs
// of more than one blank line collapsed, so templates can be laid out for
// reading.
//
// Render is on the path of every mail (a seat's mail renders its summary,
// its prompt and an event line per event): it builds no key string to find
// the template, executes into a pooled buffer and tidies in one pass, so
// that what it allocates is the text it returns and what text/template
// itself needs.
func (s *Set) Render(scope, lang, name string, data any) (string, error) {
	t := s.lookup(scope, lang, name)
	if t == nil {
		return "", fmt.Errorf("templates: no %q in %s/%s", name, scope, lang)
	}
	return execute(t, scope, lang, name, data)
}

// Tmpl is one template found once (Find) for a scope and a language, to
// be rendered many times: a prompt's menu renders option.<kind> once per
// option, and looks the name up once.
type Tmpl struct {
	t                 *template.Template
	scope, lang, name string
	optionOnly        bool
	reads             Reads
}

// Find returns the template name of scope in lang, with the fallbacks of
// Render; nil when it is defined nowhere.
func (s *Set) Find(scope, lang, name string) *Tmpl {
	t := s.lookup(scope, lang, name)
	if t == nil {
		return nil
	}
	r, ok := s.optionOnly[t]
	return &Tmpl{t: t, scope: scope, lang: lang, name: name, optionOnly: ok, reads: r}
}

// Name is the name the template was found by.
func (t *Tmpl) Name() string { return t.name }

// Render executes the template as Set.Render does (the same text, tidied).
func (t *Tmpl) Render(data any) (string, error) { return execute(t.t, t.scope, t.lang, t.name, data) }

// execute runs t into a pooled buffer and tidies the text in one pass.
func execute(t *template.Template, scope, lang, name string, data any) (string, error) {
	b := renderBufs.Get().(*bytes.Buffer)
	defer putRenderBuf(b)
	b.Reset()
	if err := t.Execute(b, data); err != nil {
		return "", fmt.Errorf("templates: %s/%s %s: %w", scope, lang, name, err)
	}
	return tidy(b.Bytes()), nil
}

// renderBufs are the buffers Render executes into; one larger than
// maxRenderBuf (a long help) is dropped rather than kept.
var renderBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxRenderBuf = 64 << 10

func putRenderBuf(b *bytes.Buffer) {
	if b.Cap() <= maxRenderBuf {
		renderBufs.Put(b)
	}
}

// tidy right-trims every line of a rendering, collapses runs of blank
// lines to one and trims the blank lines at both ends. A text that is
// already tidy is only copied.
func tidy(b []byte) string {
	if isTidy(b) {
		return string(b)
	}
	var out strings.Builder
	out.Grow(len(b))
	blank, n := 0, 0 // blank lines in a row, lines written
	for rest, more := b, true; more; {
		var line []byte
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			line, more = rest, false
		}
		line = bytes.TrimRight(line, " \t")
		if len(line) == 0 {
			if blank++; blank > 1 {
				continue
			}
		} else {
			blank = 0
		}
		if n > 0 {
			out.WriteByte('\n')
		}
		n++
		out.Write(line)
	}
	return strings.Trim(out.String(), "\n")
}

// isTidy reports whether tidy would leave b as it is: no line ends in a
// space or a tab, no two blank lines follow each other, and b neither
// starts nor ends with a line break.
func isTidy(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	if b[0] == '\n' || b[len(b)-1] == '\n' || b[len(b)-1] == ' ' || b[len(b)-1] == '\t' {
		return false
	}
	return !bytes.Contains(b, []byte(" \n")) && !bytes.Contains(b, []byte("\t\n")) && !bytes.Contains(b, []byte("\n\n\n"))
}

// Alias maps a command keyword written in lang to the game's keyword, using
// the game's aliases, then the common ones; unknown words come back
// upper-cased and unchanged.
func (s *Set) Alias(scope, lang, word string) string {
	w := strings.ToUpper(word)
	for _, key := range [...]dir{{scope, lang}, {"common", lang}, {scope, "en"}, {"common", "en"}} {
		if kw, ok := s.aliases[key][w]; ok {
			return kw
		}
	}
	return w
}
