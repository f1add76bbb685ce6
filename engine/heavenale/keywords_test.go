package heavenale

import (
	"regexp"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
	"github.com/pbem-referee/referee/templates"
)

// wordsOf is the referee's keyword translation for a reader of lang.
func wordsOf(set *templates.Set, lang string) func(string) string {
	return func(kw string) string { return set.Word(catalog.GameName, lang, kw) }
}

// commandWords are the keywords of the game's commands.
var commandWords = map[string]bool{"GO": true, "BUY": true, "DONE": true, "SHED": true, "SCORE": true,
	"PRIV": true, "SELL": true, "HOME": true, "UNDO": true, "PREF": true}

var quoted = regexp.MustCompile(`"([^"\n]+)"|« ([^»\n]+) »`)

// TestPromptKeywordsInReadersLanguage (issue 14.1): every command a prompt
// quotes, and every command of its menu, is written with the reader's
// keyword (never the English one in an Italian, French or Dutch prompt),
// and the example of every prompt of whole games, sent back as written and
// read through the aliases like the referee does, is applied.
func TestPromptKeywordsInReadersLanguage(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	states, _ := samplePositions(t)
	for _, lang := range templates.Languages {
		tried := 0
		for _, s := range states {
			for _, d := range s.Pending() {
				opts := s.Legal(d)
				p := engine.Prompt{Decision: d, Numbered: len(opts) <= engine.MaxNumbered, Count: len(opts)}
				if p.Numbered {
					p.Options = opts
				}
				c := templates.Ctx{Lang: lang, Game: catalog.GameName, Seat: d.Seat, Seats: s.H.Seats, Word: wordsOf(set, lang)}
				out := render(t, set, lang, "prompt."+d.Kind, c.With(templates.PromptData{Prompt: p, View: s.View(d.Seat)}))
				var menu []string
				if set.Has(catalog.GameName, lang, "option."+d.Kind) {
					for i, o := range opts {
						menu = append(menu, render(t, set, lang, "option."+d.Kind, c.With(templates.OptionData{N: i + 1, Option: o, Decision: d})))
					}
				}
				for _, m := range quoted.FindAllStringSubmatch(out, -1) {
					cmd := m[1] + m[2]
					word, _, _ := strings.Cut(cmd, " ")
					kw := set.Alias(catalog.GameName, lang, word)
					if !commandWords[kw] {
						t.Errorf("%s prompt.%s quotes %q, not a command:\n%s", lang, d.Kind, cmd, out)
					}
					if lang != "en" && word == kw {
						t.Errorf("%s prompt.%s quotes the English keyword in %q:\n%s", lang, d.Kind, cmd, out)
					}
				}
				for _, l := range append(menu, strings.Split(out, "\n")...) {
					f := strings.Fields(l)
					if lang != "en" && len(f) > 0 && commandWords[f[0]] && f[0] != set.Word(catalog.GameName, lang, f[0]) {
						t.Errorf("%s prompt.%s: a menu line in English: %q", lang, d.Kind, l)
					}
				}
				// GO HOME is written with the reader's words for both,
				// and the parser reads them (issue 14.1).
				if d.Kind == kindMove {
					home := set.Word(catalog.GameName, lang, "GO") + " " + set.Word(catalog.GameName, lang, "HOME")
					if !strings.Contains(strings.Join(menu, "\n")+out, home) {
						t.Errorf("%s prompt.move: no %q:\n%s", lang, home, out)
					}
					if _, err := s.Parse(d.Seat, "GO "+set.Word(catalog.GameName, lang, "HOME")); err != nil {
						t.Errorf("%s: %q is refused: %v", lang, home, err)
					}
				}
				ex := s.View(d.Seat).(View).Example
				if ex == "" {
					continue
				}
				shown := c.KwLine(ex)
				if !strings.Contains(out, shown) {
					t.Errorf("%s prompt.%s does not show its example %q:\n%s", lang, d.Kind, shown, out)
					continue
				}
				// Sent back as written: the referee maps the keyword.
				word, rest, _ := strings.Cut(shown, " ")
				line := set.Alias(catalog.GameName, lang, word)
				if rest != "" {
					line += " " + rest
				}
				cl := s.Clone().(*State)
				mv, err := cl.Parse(d.Seat, line)
				if err != nil {
					t.Errorf("%s prompt.%s: example %q does not parse: %v", lang, d.Kind, shown, err)
					continue
				}
				if _, err := cl.Apply(d.Seat, mv); err != nil {
					t.Errorf("%s prompt.%s: example %q is refused: %v", lang, d.Kind, shown, err)
				}
				tried++
			}
		}
		if tried < 7 {
			t.Errorf("%s: only %d examples tried", lang, tried)
		}
	}
}
