package pages

import (
	"encoding/json"
	"html"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/templates"
	"github.com/pbem-referee/referee/templates/langcheck"
)

var (
	styleRe = regexp.MustCompile(`(?s)<style>.*?</style>`)
	tagRe   = regexp.MustCompile(`(?s)<[^>]*>`)
	// actionRe: a template's actions and comments (names, not words).
	actionRe  = regexp.MustCompile(`(?s){{.*?}}`)
	literalRe = regexp.MustCompile(`"([^"\\]*)"`)
	// aliasRe: an alias line keeps its alias, not the English keyword.
	aliasRe = regexp.MustCompile(`(?m)^([^=#\n]*)=.*$`)
	// cutRe: a word cut short by an ellipsis.
	cutRe = regexp.MustCompile(`[\pL']+…`)
)

// textWords are the words a reader sees on a page (text, not markup):
// lower-cased runs of letters; a run with a digit in it (an id, a
// player called Player3, a key) is data, and one in capitals a code.
//
// A word cut short by an ellipsis (a name fitted to a box of the board:
// "Sweet Cru…") is a piece of data, not a word.
func textWords(page string) map[string]bool {
	text := html.UnescapeString(tagRe.ReplaceAllString(styleRe.ReplaceAllString(page, " "), " "))
	text = cutRe.ReplaceAllString(text, " ")
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' }) {
		w = strings.Trim(w, "'")
		if w == strings.ToUpper(w) {
			continue // a code (PUB, SHA, FIRST), the same in every language
		}
		w = strings.ToLower(w)
		if len([]rune(w)) < 3 || strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			continue
		}
		out[w] = true
	}
	return out
}

// langWords are the words lang's own templates use (every scope, the
// command aliases, the names of days and months): a word of the English
// page that is also one of these (Buchholz, Status, Rating in Dutch) is
// the translator's choice, not a leftover.
// grammarRe finds a template action calling a grammar function (plural,
// count, elide: templates/grammar.go), whose literals are the language's
// words.
var grammarRe = regexp.MustCompile(`\b(plural|count|elide)\b`)

func langWords(t *testing.T, lang string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join("..", "..", "templates", "*", lang, "*"))
	if len(files) == 0 {
		t.Fatalf("no templates of %s found", lang)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// The text outside actions, and the literals inside them that
		// are words (a capital or a space: "Lager al miele", not a
		// template's name nor an English code it compares).
		text := actionRe.ReplaceAllStringFunc(string(b), func(a string) string {
			var lits []string
			for _, m := range literalRe.FindAllStringSubmatch(a, -1) {
				// The nouns given to the grammar functions ({{count .n
				// "ducat" "ducats"}}) are words of the language too.
				if l := m[1]; strings.Contains(l, " ") || unicode.IsUpper([]rune(l + " ")[0]) || grammarRe.MatchString(a) {
					lits = append(lits, l)
				}
			}
			return " " + strings.Join(lits, " ") + " "
		})
		if filepath.Base(f) == "aliases.txt" {
			text = aliasRe.ReplaceAllString(text, "$1")
		}
		for w := range textWords(text) {
			out[w] = true
		}
	}
	day := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for i := 0; i < 366; i++ {
		for w := range textWords(templates.FormatTime(lang, day.AddDate(0, 0, i))) {
			out[w] = true
		}
	}
	return out
}

// dataWords are the words of names that are the same in every language:
// the games' titles and the languages' own names.
func dataWords() map[string]bool {
	out := map[string]bool{}
	for _, eg := range engine.Games() {
		for w := range textWords(eg.Info().Title) {
			out[w] = true
		}
	}
	for _, n := range []string{"English", "Italiano", "Français", "Nederlands"} {
		out[strings.ToLower(n)] = true
	}
	return out
}

// viewIDs adds to data the words of the identifiers in a game's public
// view (in capitals or with a digit: recipe and worker ids players write
// in commands, a rules version), the same in every language.
func (s *site) viewIDs(t *testing.T, u string, data map[string]bool) {
	t.Helper()
	gid := u[strings.LastIndex(u, "/g/")+3 : strings.LastIndexByte(u, '-')]
	g, err := s.r.GameRecord(gid)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Table) == 0 {
		return // not started: no view yet
	}
	tb, err := engine.LoadTable(g.Table, nil)
	if err != nil {
		t.Fatal(err)
	}
	vj, _ := json.Marshal(tb.State.View(-1))
	var v any
	json.Unmarshal(vj, &v)
	all := map[string]bool{}
	leaves(v, all)
	for x := range all {
		if x == strings.ToUpper(x) || strings.ContainsAny(x, "0123456789") {
			for w := range textWords(strings.ReplaceAll(x, "_", " ")) {
				data[w] = true
			}
		}
	}
}

// leftovers are the English page's words that the page in lang still
// shows and that neither lang's templates nor the data account for.
func leftovers(en, page string, lang map[string]bool, data map[string]bool) []string {
	enw := textWords(en)
	var out []string
	for w := range textWords(page) {
		if enw[w] && !lang[w] && !data[w] {
			out = append(out, w)
		}
	}
	return out
}

// leaks are the words of a page (its text, the boards' included) that
// are English words of our own vocabulary and not words of lang
// (templates/langcheck), data (names, titles, ids) excepted.
func leaks(lang, page string, data map[string]bool) []string {
	en := langcheck.English(lang)
	var out []string
	for w := range textWords(page) {
		if en[w] && !data[w] {
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}

// slips are mistakes of grammar a page's words can make, per language
// (issue 22): French "de Ann", "le orge" where the article elides before
// a vowel (d'Ann, l'orge); a word in capitals after it is a code (de OAK).
var slips = map[string]*regexp.Regexp{
	"fr": regexp.MustCompile(`(?:^|[\s(«"])(?:[Dd]e|[Qq]ue|[Nn]e|[Ll]e|[Ll]a|[Jj]e|[Ss]e) [aeiouyéèêàâîôûAEIOUYÉ][\pL]*[a-zà-ÿ]`),
}

// grammarSlips are the slips of lang in a page's text.
func grammarSlips(lang, page string) []string {
	re := slips[lang]
	if re == nil {
		return nil
	}
	text := html.UnescapeString(tagRe.ReplaceAllString(styleRe.ReplaceAllString(page, " "), " "))
	return re.FindAllString(text, -1)
}

// fetchLang gets a page as a browser set to lang would (Accept-Language)
// and checks the headers and the page's language marks.
func fetchLang(t *testing.T, url, lang string) string {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept-Language", lang+";q=0.9, en;q=0.5")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	if _, err := io_Copy(&b, resp); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%s (%s): %d %v", url, lang, resp.StatusCode, err)
	}
	if !strings.Contains(strings.Join(resp.Header.Values("Vary"), ","), "Accept-Language") || resp.Header.Get("Content-Language") != lang {
		t.Errorf("%s (%s): Vary %q, Content-Language %q", url, lang, resp.Header.Get("Vary"), resp.Header.Get("Content-Language"))
	}
	page := b.String()
	if !strings.Contains(page, `<html lang="`+lang+`">`) {
		t.Errorf("%s (%s): no <html lang=%q>", url, lang, lang)
	}
	for _, other := range templates.Languages {
		link := `href="?lang=` + other + `"`
		if has := strings.Contains(page, link); has == (other == lang) {
			t.Errorf("%s (%s): link to %s: %v", url, lang, other, has)
		}
	}
	return page
}

// TestPagesInEveryLanguage (issue 16): the index, every tournament page and
// every game page, asked for in each language, carry no English word the
// language's templates do not use themselves; ?lang= wins over the
// browser's Accept-Language; an unknown page says so in the language.
func TestPagesInEveryLanguage(t *testing.T) {
	s := newSite(t)
	if _, err := s.r.Organise(org, "PUBLISH cup1 listed"); err != nil {
		t.Fatal(err)
	}
	urls := []string{s.srv.URL + "/t/"}
	for game := range s.tours {
		u := s.tourURL(t, game)
		_, body := get(t, u)
		urls = append(urls, u, s.srv.URL+hrefRe.FindStringSubmatch(body)[1])
	}
	for _, lang := range templates.Languages[1:] {
		words := langWords(t, lang)
		for _, u := range urls {
			data := dataWords()
			if strings.Contains(u, "/g/") {
				s.viewIDs(t, u, data)
			}
			en := fetchLang(t, u, "en")
			page := fetchLang(t, u, lang)
			if left := leftovers(en, page, words, data); len(left) > 0 {
				t.Errorf("%s in %s: English left: %v", u, lang, left)
			}
			if left := leaks(lang, page, data); len(left) > 0 {
				t.Errorf("%s in %s: English words: %v", u, lang, left)
			}
			if bad := grammarSlips(lang, page); len(bad) > 0 {
				t.Errorf("%s in %s: grammar: %q", u, lang, bad)
			}
			if en == page {
				t.Errorf("%s: the %s page is the English one", u, lang)
			}
		}
	}
	// ?lang= wins over the browser's language.
	req, _ := http.NewRequest("GET", urls[1]+"?lang=nl", nil)
	req.Header.Set("Accept-Language", "it")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("Content-Language") != "nl" {
		t.Errorf("?lang=nl with Accept-Language it: %q", resp.Header.Get("Content-Language"))
	}
	req, _ = http.NewRequest("GET", s.srv.URL+"/t/nosuch-abc", nil)
	req.Header.Set("Accept-Language", "fr")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	io_Copy(&b, resp)
	resp.Body.Close()
	if resp.StatusCode != 404 || !strings.Contains(b.String(), "Il n'y a pas de page") {
		t.Errorf("unknown page in French: %d %q", resp.StatusCode, b.String())
	}
}

func io_Copy(b *strings.Builder, resp *http.Response) (int64, error) {
	return io.Copy(b, resp.Body)
}

// The slips check finds what it is for.
func TestGrammarSlipsFinds(t *testing.T) {
	for page, want := range map[string]int{
		"<p>En attente de Ann.</p>":     1,
		"<p>En attente d'Ann.</p>":      0,
		"<p>Grille de cup1, de Bob</p>": 0,
		"<p>le orge; de OAK</p>":        1,
		"<p>partie de Heaven & Ale</p>": 0,
	} {
		if got := grammarSlips("fr", page); len(got) != want {
			t.Errorf("%q: %q, want %d", page, got, want)
		}
	}
}

// TestPagesElide (issue 22): the French pages elide before a name or a
// title that starts with a vowel (d'Ann, d'Ale Cup) and not before one
// that does not (de Bob), in every template of a page that writes one.
func TestPagesElide(t *testing.T) {
	set, err := loadSet()
	if err != nil {
		t.Fatal(err)
	}
	d := &doc{Lang: "fr", set: set}
	for _, n := range []string{"Ann", "Éloïse", "Ute", "Bob", "Yann", "ete1", "Heaven & Ale", "Ale Cup"} {
		gp := &referee.GamePage{ID: n, Title: n, Status: "running", Waiting: []string{n, "Bob"}}
		cp := &referee.CrossPage{ID: n, Title: n}
		pp := &referee.PlayerPage{ID: n, Title: n, Name: "Bob"}
		tp := &referee.TournamentPage{ID: n, Title: n}
		for _, c := range []struct {
			name string
			data any
		}{{"game.waiting", gp}, {"title.game", gp}, {"cross.heading", cp}, {"title.crosstable", cp}, {"title.player", pp}, {"title.tournament", tp}} {
			s, err := d.T(c.name, c.data)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if bad := grammarSlips("fr", "<p>"+s+"</p>"); len(bad) > 0 {
				t.Errorf("%s with %q: %q", c.name, n, s)
			}
			if !strings.Contains(s, n) {
				t.Errorf("%s with %q: %q", c.name, n, s)
			}
		}
	}
}
