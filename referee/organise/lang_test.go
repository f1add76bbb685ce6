package organise

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/referee/reading"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
	"github.com/pbem-referee/referee/templates"
)

// setWords are the templates' words, as the core gives them.
type setWords struct{ s *templates.Set }

func (w setWords) Text(lang, name string, data any) (string, error) {
	return w.s.Render("referee", lang, name, templates.Ctx{Lang: lang, Seat: -1, Data: data})
}
func (w setWords) Alias(scope, lang, word string) string { return w.s.Alias(scope, lang, word) }
func (w setWords) ArgLanguage(scope, word string) (string, string) {
	return w.s.ArgLanguage(scope, word)
}
func (w setWords) Word(scope, lang, kw string) string { return w.s.Word(scope, lang, kw) }
func (w setWords) Languages() []string                { return templates.Languages }
func (w setWords) ReadLine(line string) mailfmt.AnswerLine {
	return reading.Reader(reading.Vocab{T: w.s, Name: Scope, Referee: tableWords}).Line(line)
}
func (w setWords) RuleText(string, error) (string, bool) { return "", false }

// keywords are the organiser's keywords as the mail edge holds them
// (mailfmt.Keywords): every keyword, and every alias of the organiser's
// and the referee's scope in every language that keyword reads.
func (w setWords) keywords() *mailfmt.Keywords {
	var words []string
	for kw := range byKeyword {
		words = append(words, kw)
	}
	for _, lang := range w.Languages() {
		for _, scope := range []string{Scope, "referee"} {
			for a := range w.s.Aliases(scope, lang) {
				if keyword(w, a) != "" {
					words = append(words, a)
				}
			}
		}
	}
	return mailfmt.NewKeywords(words, func(s string) bool { return keyword(w, s) != "" })
}

func loadWords(t *testing.T) setWords {
	t.Helper()
	s, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	return setWords{s}
}

// sameWord are the keywords whose word in a language is the English one
// (no alias of its own is needed there), with the reason.
var sameWord = map[string]map[string]bool{
	// French writes PAUSE.
	"fr": {"PAUSE": true},
}

// wordsOf are the words of lang that stand for kw (its aliases in the
// organiser's, the common and the referee's aliases).
func wordsOf(w setWords, lang, kw string) []string {
	var out []string
	for _, scope := range []string{Scope, "common", "referee"} {
		for alias, k := range w.s.Aliases(scope, lang) {
			if k == kw {
				out = append(out, alias)
			}
		}
	}
	return out
}

// TestEveryKeywordInEveryLanguage_Issue22: every keyword of the table is
// read in every language, from the templates: keyword x language x
// position (the line's first word in capitals, lower case or title case,
// with words after it), and a language other than English has a word of
// its own for it (sameWord says where it is the English word).
func TestEveryKeywordInEveryLanguage_Issue22(t *testing.T) {
	w := loadWords(t)
	checked := 0
	for _, r := range Rows() {
		for _, lang := range templates.Languages {
			words := append([]string{r.Keyword}, wordsOf(w, lang, r.Keyword)...)
			if lang != "en" && len(words) == 1 && !sameWord[lang][r.Keyword] {
				t.Errorf("%s: no word for %s (templates/organise/%s/aliases.txt)", lang, r.Keyword, lang)
			}
			for _, word := range words {
				rs := []rune(strings.ToLower(word))
				title := strings.ToUpper(string(rs[:1])) + string(rs[1:])
				for _, form := range []string{word, strings.ToLower(word), title} {
					f := canonical(w, []string{form, "g1", "x"})
					if f[0] != r.Keyword {
						t.Errorf("%s %q: read as %q, want %s", lang, form, f[0], r.Keyword)
					}
					checked++
				}
			}
		}
	}
	if checked < 300 {
		t.Fatalf("only %d words checked", checked)
	}
}

// TestSubKeywordsEveryLanguage_Issue22: TOURNAMENT after NEW, open after
// NEW, listed and off after PUBLISH, in every language's words; and the
// answer to a mail is in the language of its first keyword that is a
// word of one language only.
func TestSubKeywordsEveryLanguage_Issue22(t *testing.T) {
	w := loadWords(t)
	for _, lang := range templates.Languages {
		word := func(scope, canon string) string { return w.s.ArgWord(scope, lang, canon) }
		newKw := w.s.Word(Scope, lang, "NEW")
		f := canonical(w, []string{newKw, word("tournament", "TOURNAMENT"), "cup", "game=toy"})
		if f[0] != "NEW" || f[1] != "TOURNAMENT" {
			t.Errorf("%s: %v", lang, f)
		}
		f = canonical(w, []string{newKw, "toy", "id=g1", word(Scope, "OPEN")})
		if f[3] != "open" {
			t.Errorf("%s: %v", lang, f)
		}
		pub := w.s.Word("referee", lang, "PUBLISH")
		for _, s := range []string{"LISTED", "OFF"} {
			f = canonical(w, []string{pub, "g1", word(Scope, s)})
			if f[0] != "PUBLISH" || f[2] != strings.ToLower(s) {
				t.Errorf("%s: %v", lang, f)
			}
		}
		// The language of the answer.
		text := "# a comment\n\n" + w.s.Word(Scope, lang, "PAUSE") + " g1\n" + w.s.Word("referee", lang, "START") + " cup"
		if lang == "fr" {
			text = "REPRENDRE g1\nPAUSE g1"
		}
		if got := MailLang(w, nil, text); got != lang {
			t.Errorf("%s: the answer to %q is in %s", lang, text, got)
		}
	}
	if got := MailLang(w, nil, "FORFAIT g1 ann"); got != "en" {
		t.Errorf("FORFAIT (it, fr, nl) makes the answer %s", got)
	}
}

// TestRowsOneHandlerAKeyword_Issue25: every row of the table has a
// handler and a syntax; the games' keywords are each one row; the
// tournaments' rows are the desk's, in its order, before the games'.
func TestRowsOneHandlerAKeyword_Issue25(t *testing.T) {
	seen := map[string]bool{}
	for i, r := range Rows() {
		if r.Run == nil || r.Usage == "" || !strings.HasPrefix(r.Usage, r.Keyword) {
			t.Errorf("%s: handler %v, usage %q", r.Keyword, r.Run != nil, r.Usage)
		}
		if i < len(bymail.OrgCommands) {
			if r.Family != FamilyTournaments || r.Keyword != bymail.OrgCommands[i].Keyword {
				t.Errorf("row %d: %s %s, want the desk's %s", i, r.Family, r.Keyword, bymail.OrgCommands[i].Keyword)
			}
			continue
		}
		if r.Family != FamilyGames || seen[r.Keyword] {
			t.Errorf("row %d: %s %s", i, r.Family, r.Keyword)
		}
		seen[r.Keyword] = true
	}
	if len(seen) != len(gameRows) || len(gameRows) < 19 {
		t.Errorf("%d game keywords of %d rows", len(seen), len(gameRows))
	}
}
