package brewcrafters

import (
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/templates"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestTemplatesWholeGame renders, over whole games in every language and
// player count, every summary, prompt (with its numbered options), event and
// the error of a rejected move; every line fits 80 columns and no raw code
// or template error shows.
func TestTemplatesWholeGame(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	seats := []string{"Ann", "Bob", "Cat", "Dan", "Eve"}
	check := func(what, out string) {
		t.Helper()
		for _, l := range strings.Split(out, "\n") {
			if utf8.RuneCountInString(l) > 80 {
				t.Fatalf("%s: line over 80 columns:\n%s", what, l)
			}
		}
		if strings.Contains(out, "<no value>") || strings.Contains(out, "map[") {
			t.Fatalf("%s: raw data shows:\n%s", what, out)
		}
	}
	for k, lang := range templates.Languages {
		n := 2 + k
		cfg := engine.Config{Seats: seats[:n], Seed: "tmpl-" + lang, Variant: []string{"first", "complex", "standard", "complex"}[k]}
		st, evs, err := Game{}.NewState(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		rng := rand.New(rand.NewPCG(uint64(k), 9))
		ctx := func(seat int, data any) templates.Ctx {
			return templates.Ctx{Lang: lang, Game: catalog.GameName, Seat: seat, Seats: seats[:n], Data: data,
				Word: func(kw string) string { return set.Word(catalog.GameName, lang, kw) }}
		}
		render := func(name string, c templates.Ctx) string {
			t.Helper()
			out, err := set.Render(catalog.GameName, lang, name, c)
			if err != nil {
				t.Fatalf("%s %s: %v", lang, name, err)
			}
			check(lang+" "+name, out)
			return out
		}
		for moves := 0; s.Res == nil; moves++ {
			for _, e := range evs {
				for r := -1; r < n; r++ {
					if e2, ok := e.For(r); ok {
						if !set.Has(catalog.GameName, lang, "event."+e2.Type) {
							t.Fatalf("no template for event %s", e2.Type)
						}
						renderEvent(t, set, lang, ctx(r, e2))
					}
				}
			}
			d := s.Pending()[0]
			opts := s.Legal(d)
			if moves%7 == 0 {
				render("summary", ctx(d.Seat, s.View(d.Seat)))
				c := ctx(d.Seat, s.View(d.Seat))
				c.Compact = true
				render("summary", c)
			}
			p := engine.Prompt{Decision: d, Options: opts, Count: len(opts), Numbered: len(opts) <= engine.MaxNumbered}
			if !set.Has(catalog.GameName, lang, "prompt."+d.Kind) {
				t.Fatalf("no prompt for %s", d.Kind)
			}
			render("prompt."+d.Kind, ctx(d.Seat, templates.PromptData{Prompt: p, View: s.View(d.Seat)}))
			// An illegal try explains itself in words.
			for _, bad := range []string{"M NOPE", "B PROCESS BREW IMPERIAL@T1", "FIRE CHEMIST", "B INSTALL NOTHING"} {
				m, err := s.Parse(d.Seat, bad)
				if err == nil {
					_, err = s.Clone().Apply(d.Seat, m)
				}
				if re, ok := engine.AsRuleError(err); ok {
					if !set.Has(catalog.GameName, lang, "error."+re.Code) {
						t.Fatalf("no error template for %s", re.Code)
					}
					render("error."+re.Code, ctx(d.Seat, re))
				}
			}
			i := 0
			if len(opts) > 1 {
				i = rng.IntN(len(opts))
			}
			m, _ := s.Parse(d.Seat, opts[i].Cmd)
			evs, err = s.Apply(d.Seat, m)
			if err != nil {
				t.Fatal(err)
			}
		}
		render("summary", ctx(0, s.View(0)))
		render("help", ctx(0, nil))
	}
}

// TestGoldenSummary keeps an English summary and prompt under review.
func TestGoldenSummary(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	s := newGame(t, 3, "golden")
	play(t, s, "M MALT", "M HOPS", "M YEAST", "M FUND", "M OPEN M Y", "M ADV C")
	d := s.Pending()[0]
	seats := []string{"Ann", "Bob", "Cat"}
	c := templates.Ctx{Lang: "en", Game: catalog.GameName, Seat: d.Seat, Seats: seats, Data: s.View(d.Seat)}
	sum, err := set.Render(catalog.GameName, "en", "summary", c)
	if err != nil {
		t.Fatal(err)
	}
	opts := s.Legal(d)
	c.Data = templates.PromptData{Prompt: engine.Prompt{Decision: d, Options: opts, Count: len(opts)}, View: s.View(d.Seat)}
	pr, err := set.Render(catalog.GameName, "en", "prompt."+d.Kind, c)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.Golden(t, filepath.Join("testdata", "golden-summary.en.txt"), pr+"\n\n"+sum, *update)
}

// TestEveryErrorAndHelpRenders renders every error, help and rule text of
// every language with full parameters: no missing key, 80 columns with the
// rule id the referee appends.
func TestEveryErrorAndHelpRenders(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]any{}
	for _, k := range []string{"word", "building", "slot", "token", "ing", "track", "partner", "trade", "worker", "kws",
		"need", "have", "recipe", "action", "part", "portion", "key", "space", "basic", "words", "next"} {
		params[k] = "COFFEESTOUT"
	}
	for _, k := range []string{"want", "got", "max", "left", "over", "capacity"} {
		params[k] = 3
	}
	for _, lang := range templates.Languages {
		for _, name := range set.Defined(catalog.GameName, lang) {
			var data any
			switch {
			case strings.HasPrefix(name, "error."):
				data = &engine.RuleError{Code: name[6:], Rule: "BC-5.12.4", Params: params}
			case strings.HasPrefix(name, "help"), strings.HasPrefix(name, "rule."):
			default:
				continue
			}
			out, err := set.Render(catalog.GameName, lang, name, templates.Ctx{Lang: lang, Game: catalog.GameName, Seats: []string{"Ann"}, Data: data})
			if err != nil {
				t.Fatalf("%s %s: %v", lang, name, err)
			}
			if strings.HasPrefix(name, "error.") {
				out += " (BC-5.12.4)"
			}
			for _, l := range strings.Split(out, "\n") {
				if utf8.RuneCountInString(l) > 80 {
					t.Errorf("%s %s: over 80 columns: %s", lang, name, l)
				}
			}
		}
	}
}

// TestEveryCodeHasWords: every error code the engine can return, and every
// event type it emits, has a template in every language.
func TestEveryCodeHasWords(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("*.go")
	codeRe := regexp.MustCompile(`Reject\("[^"]*", "([a-z_0-9]+)"`)
	evRe := regexp.MustCompile(`(?:s\.emit\("|NewEvent\("bc\.)([a-z_]+)"`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, lang := range templates.Languages {
			for _, m := range codeRe.FindAllStringSubmatch(string(src), -1) {
				if !set.Has(catalog.GameName, lang, "error."+m[1]) {
					t.Errorf("%s: %s: no error.%s", lang, f, m[1])
				}
			}
			for _, m := range evRe.FindAllStringSubmatch(string(src), -1) {
				if !set.Has(catalog.GameName, lang, "event.bc."+m[1]) {
					t.Errorf("%s: %s: no event.bc.%s", lang, f, m[1])
				}
			}
		}
	}
}
