package brewcrafters

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
	"github.com/pbem-referee/referee/templates"
)

// renderEvent renders one event for a reader and checks the rule of issue
// 21 (doc.go "Events"): an event is one line with all its parts (the mail
// folds it), has words of its own in every language, and shows no raw
// data and no data-file id.
func renderEvent(t *testing.T, set *templates.Set, lang string, c templates.Ctx) string {
	t.Helper()
	e := c.Data.(engine.Event)
	name := "event." + e.Type
	if !set.Has(catalog.GameName, lang, name) {
		t.Fatalf("%s: no words for event %s", lang, e.Type)
	}
	out, err := set.Render(catalog.GameName, lang, name, c)
	if err != nil {
		t.Fatalf("%s %s: %v", lang, name, err)
	}
	if strings.Contains(out, "\n") {
		t.Fatalf("%s %s is not one line:\n%s", lang, name, out)
	}
	if out == "" || strings.Contains(out, "<no value>") || strings.Contains(out, "map[") || strings.Contains(out, "  ") {
		t.Fatalf("%s %s: raw data or a gap shows: %q", lang, name, out)
	}
	for _, f := range regexp.MustCompile(`[A-Z0-9_]+`).FindAllString(out, -1) {
		if strings.Contains(f, "_") {
			t.Fatalf("%s %s shows the data-file id %s: %q", lang, name, f, out)
		}
	}
	return out
}

// emitted lists every event kind the engine's source emits.
func emitted(t *testing.T) []string {
	t.Helper()
	files, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?:s\.emit\("|NewEvent\("bc\.)([a-z_]+)"`)
	seen := map[string]bool{}
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".go") || strings.HasSuffix(f.Name(), "_test.go") {
			continue
		}
		b, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			seen["bc."+m[1]] = true
		}
	}
	var out []string
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	if len(out) < 35 {
		t.Fatalf("only %d event kinds found in the source", len(out))
	}
	return out
}

// Issue 21: every kind of Brew Crafters event (each one the source emits,
// taken from random games of every variant and player count, several
// samples of each) renders on one line with all its parts, for every
// reader (each seat and an observer), in en, it, fr and nl: "Bob places on
// M8" and "FUND." were two lines, "sold BALTIC;" and "brewed PP ..." too
// (the second at column 0), and workers and buildings showed by data-file
// id (TOUR_TASTING, YEAST_LAB).
func TestEveryEventOneLine(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	kinds := emitted(t)
	samples := map[string][]engine.Event{}
	add := func(evs []engine.Event) {
		for _, e := range evs {
			if len(samples[e.Type]) < 6 {
				samples[e.Type] = append(samples[e.Type], e)
			}
		}
	}
	seats := []string{"Ann", "Bob", "Cat", "Dan", "Eve"}
	games := 0
	for _, variant := range []string{"first", "standard", "complex"} {
		for n := 2; n <= 5; n++ {
			for g := 0; g < 4; g++ {
				st, evs, err := Game{}.NewState(engine.Config{Variant: variant, Seats: seats[:n], Seed: fmt.Sprint("events21/", variant, n, g)})
				if err != nil {
					t.Fatal(err)
				}
				add(evs)
				s := st.(*State)
				rng := rand.New(rand.NewPCG(uint64(n), uint64(g)))
				for k := 0; k < 5000 && s.Result() == nil; k++ {
					d := s.Pending()[0]
					opts := s.Legal(d)
					m, err := s.Parse(d.Seat, opts[rng.IntN(len(opts))].Cmd)
					if err != nil {
						t.Fatal(err)
					}
					evs, err := s.Apply(d.Seat, m)
					if err != nil {
						t.Fatal(err)
					}
					add(evs)
				}
				games++
			}
		}
	}
	// Kinds random games seldom reach (free actions, a Market with no
	// legal space, a developed Secret Recipe's bonus), as the source emits
	// them.
	for _, e := range []engine.Event{
		engine.NewEvent("bc.exchange", 1, engine.Public, "partner", "COFFEE", "give", "M", "n", 2),
		engine.NewEvent("bc.exchange", 0, engine.Public, "partner", "SPICES4", "give", "H", "n", 1),
		engine.NewEvent("bc.intern_market", 2, engine.Public),
		engine.NewEvent("bc.no_space", 3, engine.Public),
		engine.NewEvent("bc.plant", 0, engine.Public, "ing", "H"),
		engine.NewEvent("bc.unused_choice", 0, engine.Only(0), "words", "+ADV C"),
		engine.NewEvent("bc.set", 1, engine.Only(1), "key", "DISCARD", "value", "M"),
		engine.NewEvent("bc.secret_bonus", 1, engine.Public, "recipe", "MILK"),
		engine.NewEvent("bc.gain", 4, engine.Public, "ing", "1M 1F", "source", "research_assistant"),
		engine.NewEvent("bc.gain", 4, engine.Public, "ing", "1M", "source", "HOPS_INFUSER"),
		engine.NewEvent("bc.gain", 4, engine.Public, "ing", "2S", "source", "MARKETING_DIRECTOR"),
	} {
		samples[e.Type] = append(samples[e.Type], e)
	}
	var missing []string
	for _, k := range kinds {
		if len(samples[k]) == 0 {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		t.Fatalf("%d games emitted no %v", games, missing)
	}
	lines := 0
	for _, lang := range templates.Languages {
		for _, k := range kinds {
			for _, e := range samples[k] {
				for r := -1; r < 5; r++ {
					e2, ok := e.For(r)
					if !ok {
						continue
					}
					c := templates.Ctx{Lang: lang, Game: catalog.GameName, Seat: r, Seats: seats, Data: e2,
						Word: func(kw string) string { return set.Word(catalog.GameName, lang, kw) }}
					renderEvent(t, set, lang, c)
					lines++
				}
			}
		}
	}
	t.Logf("%d event kinds, %d lines in %d languages", len(kinds), lines, len(templates.Languages))
}
