package templates

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"
	_ "time/tzdata" // so the time zone tests never skip
)

func TestLoadAndCompleteness(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, scope := range s.Scopes() {
		en := s.Defined(scope, "en")
		if len(en) == 0 {
			t.Errorf("%s: nothing defined in English", scope)
		}
		for _, lang := range Languages[1:] {
			have := map[string]bool{}
			for _, n := range s.Defined(scope, lang) {
				have[n] = true
			}
			for _, n := range en {
				if !have[n] {
					t.Errorf("%s/%s: %q is defined in English but not here", scope, lang, n)
				}
			}
		}
	}
}

func TestGenericErrorsRender(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	type re struct{ Params map[string]any }
	params := map[string]any{"line": "PLCE X", "token": "PLCE", "expected": "PLACE <slot> <item>", "word": "FLY",
		"kind": "place", "n": 3, "count": 2, "value": "7", "variant": "x", "min": 2, "max": 4, "players": 5,
		"name": "", "option": "o", "allowed": []string{"a", "b"}, "error": "e", "seat": 9}
	for _, lang := range Languages {
		for _, name := range s.Defined("common", lang) {
			if !strings.HasPrefix(name, "error.") {
				continue
			}
			out, err := s.Render("common", lang, name, Ctx{Lang: lang, Data: re{Params: params}})
			if err != nil || out == "" {
				t.Errorf("%s %s: %q %v", lang, name, out, err)
			}
		}
	}
}

func TestFallbackAndAliases(t *testing.T) {
	fsys := fstest.MapFS{
		"common/en/a.tmpl":      {Data: []byte(`{{define "x"}}common-en{{end}}{{define "y"}}y-en{{end}}`)},
		"common/it/a.tmpl":      {Data: []byte(`{{define "x"}}common-it{{end}}`)},
		"game/en/a.tmpl":        {Data: []byte(`{{define "g"}}g-en {{template "x" .}}{{end}}{{define "only-en"}}E{{end}}`)},
		"game/it/a.tmpl":        {Data: []byte(`{{define "g"}}g-it {{template "x" .}}{{end}}`)},
		"game/it/aliases.txt":   {Data: []byte("PIAZZA = PLACE # comment\n")},
		"common/it/aliases.txt": {Data: []byte("PASSA = PASS\n")},
	}
	s, err := load(fsys, true, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ scope, lang, name, want string }{
		{"game", "it", "g", "g-it common-it"},
		{"game", "en", "g", "g-en common-en"},
		{"game", "it", "only-en", "E"},
		{"game", "it", "y", "y-en"},
		{"game", "fr", "g", "g-en common-en"},
	} {
		got, err := s.Render(c.scope, c.lang, c.name, nil)
		if err != nil || got != c.want {
			t.Errorf("Render(%s,%s,%s) = %q, %v; want %q", c.scope, c.lang, c.name, got, err, c.want)
		}
	}
	if got := s.Alias("game", "it", "piazza"); got != "PLACE" {
		t.Errorf("alias = %q", got)
	}
	if got := s.Alias("game", "it", "passa"); got != "PASS" {
		t.Errorf("common alias = %q", got)
	}
	if got := s.Alias("game", "it", "brew"); got != "BREW" {
		t.Errorf("unknown word = %q", got)
	}
	if _, err := s.Render("game", "en", "nope", nil); err == nil {
		t.Error("missing template rendered")
	}
}

func TestWrap(t *testing.T) {
	got := wrap(20, "  ", "one two three four five six seven eight")
	want := "one two three four\n  five six seven\n  eight"
	if got != want {
		t.Fatalf("wrap = %q", got)
	}
}

func TestFold(t *testing.T) {
	got := fold(20, "short\n    a line that is longer than twenty\nok")
	want := "short\n    a line that is\n      longer than\n      twenty\nok"
	if got != want {
		t.Fatalf("fold = %q", got)
	}
}

func TestFormatTime(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	rome, err := time.LoadLocation("Europe/Rome")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 24, 20, 0, 0, 0, rome)
	for lang, want := range map[string]string{
		"en": "Tue 24 Nov 2026 20:00 CET", "it": "mar 24 nov 2026 20:00 CET",
		"fr": "mar. 24 nov. 2026 20:00 CET", "nl": "di 24 nov 2026 20:00 CET", "xx": "Tue 24 Nov 2026 20:00 CET",
	} {
		if got := FormatTime(lang, at); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
	if s.dayName("it", 0) != "dom" || num(1.5) != "1.5" || num(48.0) != "48" {
		t.Error("dayName or num")
	}
}

// Issue 12.7: a help text in the reader's words; columns stay aligned.
func TestKwText(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	c := Ctx{Lang: "it", Game: "dicebrewing",
		Word: func(kw string) string { return s.Word("dicebrewing", "it", kw) },
		Arg:  func(w string) string { return s.ArgWord("dicebrewing", "it", w) }}
	in := "  STORE <dadi...> | STORE ALL | STORE ALL>=n    in magazzino\n" +
		"  PLACE <spazio> <elemento>[, ...] [THEN]       turno\n" +
		"  PLACE MH1 SEED, MH1+ B4 / HELP PLACE; RULE DB-5.9.3; ELSE PASS; DICE BREWING"
	want := "  CONSERVA <dadi...> | CONSERVA TUTTI | CONSERVA TUTTI>=n\n" + strings.Repeat(" ", 48) + "in magazzino\n" +
		"  PIAZZA <spazio> <elemento>[, ...] [POI]       turno\n" +
		"  PIAZZA MH1 SEME, MH1+ B4 / AIUTO PIAZZA; REGOLA DB-5.9.3; ALTRIMENTI PASSA; DICE BREWING"
	if got := c.KwText(in); got != want {
		t.Errorf("KwText:\n got %q\nwant %q", got, want)
	}
	if got := (Ctx{Lang: "en"}).KwText(in); got != in {
		t.Errorf("English changed: %q", got)
	}
}

func TestReflow(t *testing.T) {
	in := "SYNTAX <a> [B]\n" + strings.Repeat("word ", 15) + "longerword\n" + strings.Repeat("more ", 15) + "end.\n  KEEP   as is\nshort"
	got := Reflow(in, 40)
	for _, l := range strings.Split(got, "\n") {
		if len([]rune(l)) > 40 && !strings.HasPrefix(l, " ") {
			t.Errorf("line over 40: %q", l)
		}
	}
	if !strings.HasPrefix(got, "SYNTAX <a> [B]\nword word") || !strings.Contains(got, "\n  KEEP   as is\nshort") {
		t.Errorf("Reflow:\n%s", got)
	}
	if short := "a\nb"; Reflow(short, 40) != short {
		t.Errorf("a text that fits changed")
	}
}

// Issue 25: the words the Go code once listed in maps (STATUS FULL,
// ELSE PASS, HELP TOURNAMENT) are in the templates, in every language.
func TestWordsOnceInGoMaps(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"completo", "TUTTO", "COMPLET", "tout", "VOLLEDIG", "ALLES", "FULL"} {
		if got := s.Arg("referee", "en", w); got != "FULL" {
			t.Errorf("STATUS %s: %q, want FULL", w, got)
		}
	}
	for _, w := range []string{"ALTRIMENTI", "sinon", "ANDERS"} {
		if got := s.Arg("dicebrewing", "en", w); got != "ELSE" {
			t.Errorf("%s: %q, want ELSE", w, got)
		}
	}
	for w, lang := range map[string]string{"TOURNAMENT": "en", "tournaments": "en", "TORNEO": "it", "TORNEI": "it",
		"TOURNOI": "fr", "TOURNOIS": "fr", "TOERNOOI": "nl", "TOERNOOIEN": "nl"} {
		if got, lg := s.ArgLanguage("tournament", w); got != "TOURNAMENT" || lg != lang {
			t.Errorf("HELP %s: %q %q, want TOURNAMENT %s", w, got, lg, lang)
		}
	}
	if got, lg := s.ArgLanguage("tournament", "GAME"); got != "" || lg != "" {
		t.Errorf("GAME: %q %q", got, lg)
	}
}

// Every language of languages.txt has its date words and its common
// templates; languages.txt starts with English.
func TestLanguagesFile(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(Languages) < 4 || Languages[0] != "en" {
		t.Fatalf("Languages = %v", Languages)
	}
	for _, lang := range Languages {
		if _, ok := s.dates[lang]; !ok {
			t.Errorf("%s: no dates.txt", lang)
		}
		if len(s.Defined("common", lang)) == 0 {
			t.Errorf("%s: no common templates", lang)
		}
	}
	for _, bad := range []string{"it\nen\n", "en\nf r\n", "# nothing\n"} {
		if _, err := readLanguages(fstest.MapFS{"languages.txt": {Data: []byte(bad)}}); err == nil {
			t.Errorf("languages.txt %q read", bad)
		}
	}
	if _, err := parseDates(fstest.MapFS{"d.txt": {Data: []byte("days: a, b\n")}}, "d.txt"); err == nil {
		t.Error("a dates.txt of two days read")
	}
}

// Issue 22: plural and elision are template functions whose rule is the
// language's grammar.txt and whose words are the template's.
func TestGrammarFunctions(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{}
	src := `{{define "g"}}{{count .n "x" "xs"}} {{elide "d'" "de " .name}}{{end}}`
	for _, lang := range Languages {
		fsys["common/"+lang+"/g.tmpl"] = &fstest.MapFile{Data: []byte(src)}
		b, err := fs.ReadFile(files, "common/"+lang+"/grammar.txt")
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		fsys["common/"+lang+"/grammar.txt"] = &fstest.MapFile{Data: b}
	}
	g, err := load(fsys, true, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lang string
		n    int
		name string
		want string
	}{
		{"en", 1, "Ann", "1 x d'Ann"}, {"en", 0, "Bob", "0 xs de Bob"}, {"it", 2, "Ugo", "2 xs d'Ugo"},
		{"fr", 0, "Ève", "0 x d'Ève"}, {"fr", 1, "Ann", "1 x d'Ann"}, {"fr", 2, "Hugo", "2 xs de Hugo"},
		{"nl", 1, "Bob", "1 x de Bob"}, {"nl", 3, "Bob", "3 xs de Bob"},
	} {
		got, err := g.Render("common", c.lang, "g", map[string]any{"n": c.n, "name": c.name})
		if err != nil || got != c.want {
			t.Errorf("%s %d %s: %q %v, want %q", c.lang, c.n, c.name, got, err, c.want)
		}
	}
	if s.grammarOf("fr").plural(0, "pièce", "pièces") != "pièce" || s.grammarOf("it").plural(0, "moneta", "monete") != "monete" {
		t.Error("plural by the language's rule")
	}
	if _, err := parseGrammar(fstest.MapFS{"g.txt": {Data: []byte("singular: one\n")}}, "g.txt"); err == nil {
		t.Error("a count that is no number read")
	}
}

// Issue 22: a usage error shows the command's syntax in the reader's words.
func TestKwUsage(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ lang, in, want string }{
		{"it", "SAY <player|all>: text", "DICI <giocatore|tutti>: testo"},
		{"fr", "NOTIFY every|turn|digest|none", "NOTIFIER chaque|tour|résumé|aucun"},
		{"nl", "VACATION <YYYY-MM-DD> <YYYY-MM-DD>", "VAKANTIE <YYYY-MM-DD> <YYYY-MM-DD>"},
		{"it", "STATUS [FULL]", "STATO [COMPLETO]"},
		{"en", "SAY <player|all>: text", "SAY <player|all>: text"},
		{"it", "LIST", "ELENCO"},
	} {
		ctx := Ctx{Lang: c.lang, Word: func(kw string) string { return s.Word("", c.lang, kw) },
			Arg: func(w string) string { return s.ArgWord("", c.lang, w) }}
		if got := ctx.KwUsage(c.in); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.lang, c.in, got, c.want)
		}
	}
}

// Rule (issue 25, date words in templates): an organiser writes the days of
// a deadline setting (days=lun-ven) in any of our languages, so no day word
// may name two different days in two languages, and every language's words
// read back as their own day.
func TestDayWordsAreUnambiguous(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	owner := map[string]string{}
	for _, lang := range s.Languages() {
		for i, w := range s.datesOf(lang).days {
			k := dayKey(w)
			if prev, ok := owner[k]; ok && s.days[k] != time.Weekday(i) {
				t.Errorf("%q is day %d in %s and day %d in %s", w, i, lang, s.days[k], prev)
			}
			owner[k] = lang
			for _, form := range []string{w, strings.ToUpper(w), strings.TrimSuffix(w, ".")} {
				if d, ok := ParseDay(form); !ok || d != time.Weekday(i) {
					t.Errorf("%s: ParseDay(%q) = %v, %v; want %v", lang, form, d, ok, time.Weekday(i))
				}
			}
		}
	}
	for d := time.Sunday; d <= time.Saturday; d++ {
		if got, ok := ParseDay(DayCode(d)); !ok || got != d {
			t.Errorf("DayCode(%v) = %q reads back as %v", d, DayCode(d), got)
		}
	}
	if _, ok := ParseDay("mond"); ok {
		t.Error("ParseDay read a word that is no day")
	}
}
