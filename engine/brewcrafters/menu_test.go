package brewcrafters

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
	"github.com/pbem-referee/referee/engine/brewcrafters/notation"
	"github.com/pbem-referee/referee/templates"
)

// BenchmarkView renders the waiting seat's view of a mid-game state, with
// its menu (issue 22: every legal answer described).
func BenchmarkView(b *testing.B) {
	s := midGame(b)
	seat := s.Pending()[0].Seat
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = s.View(seat)
	}
}

// Issue 22: over random games of every variant, every legal answer of the
// waiting seat is described in its menu: a group, a command without an
// internal id that parses back to the same move, and at least one fact or
// card.
func TestMenuDescribesEveryOption(t *testing.T) {
	for _, variant := range []string{"first", "complex"} {
		s := newRandomGame(t, variant)
		for steps := 0; s.Result() == nil && steps < 400; steps++ {
			d := s.Pending()[0]
			opts := s.Legal(d)
			menu := s.View(d.Seat).(*View).Menu
			for i, o := range opts {
				it, ok := menu[o.Cmd]
				if !ok {
					t.Fatalf("%s: %q not in the menu", variant, o.Cmd)
				}
				// Issue 22: Legal's group (found without describing) is
				// the menu's, and the groups come best known first.
				if o.Group != it.Group {
					t.Errorf("%s: %q in group %q, described in %q", variant, o.Cmd, o.Group, it.Group)
				}
				if i > 0 && MenuGroupRank(opts[i-1].Group) > MenuGroupRank(o.Group) {
					t.Errorf("%s: group %q after %q", variant, o.Group, opts[i-1].Group)
				}
				if it.Group == "" || it.Show == "" || it.Card.Kind == "" && len(it.Facts) == 0 {
					t.Errorf("%s: %q is not described: %+v", variant, o.Cmd, it)
				}
				for _, w := range strings.Fields(it.Show) {
					if strings.Contains(w, "_") {
						t.Errorf("%s: %q shows the internal id %s", variant, o.Cmd, w)
					}
				}
				m1, err1 := s.Parse(d.Seat, it.Show)
				m2, err2 := s.Parse(d.Seat, o.Cmd)
				if err1 != nil || err2 != nil || m1.(*notation.Move).String() != m2.(*notation.Move).String() {
					t.Errorf("%s: %q shown as %q does not parse back (%v)", variant, o.Cmd, it.Show, err1)
				}
			}
			m, _ := s.Parse(d.Seat, opts[steps*7%len(opts)].Cmd)
			if _, err := s.Apply(d.Seat, m); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func newRandomGame(t *testing.T, variant string) *State {
	t.Helper()
	st, _, err := Game{}.NewState(engine.Config{Seats: []string{"ann", "bob", "cat"}, Seed: "menu" + variant, Variant: variant})
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// Issue 22: a Market placement prints on one line in every language, the
// space's code with its name and the worker or partnership by name (it
// printed "Bob places on M8" / "FUND." over two lines, and MASH_SPECIALIST).
func TestPlacementEventOneLine(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		params map[string]any
		want   map[string]string
	}{
		{map[string]any{"space": "M8", "kw": "FUND"}, map[string]string{"en": "Bob places on M8 (Funding).",
			"it": "Bob piazza su M8 (Finanziamento).", "fr": "Bob se place sur M8 (Financement).", "nl": "Bob plaatst op M8 (Financiering)."}},
		{map[string]any{"space": "M2", "kw": "WORKER", "args": []any{"MASH_SPECIALIST"}}, map[string]string{
			"en": "Bob places on M2 (Skilled worker): Mash Specialist.", "it": "Specialista dell'ammostamento",
			"fr": "Spécialiste du brassin", "nl": "Maischspecialist"}},
		// The ingredients by name in the reader's language, not by the
		// letters a player types (issue 22).
		{map[string]any{"space": "M7", "kw": "OPEN", "args": []any{"M", "Y"}}, map[string]string{"en": "(Open market): Malt, Yeast.",
			"it": ": Malto, Lievito.", "fr": ": Malt, Levure.", "nl": ": Mout, Gist."}},
		{map[string]any{"space": "M7", "kw": "OPEN", "args": []any{"H", "F", "S", "C"}}, map[string]string{"en": ": Hops, Fruit, Spices, Coffee.",
			"it": ": Luppolo, Frutta, Spezie, Caffè.", "fr": ": Houblon, Fruit, Épices, Café.", "nl": ": Hop, Fruit, Specerijen, Koffie."}},
	}
	for _, c := range cases {
		for _, lang := range templates.Languages {
			ev := engine.Event{Type: "bc.place", Seat: 1, Params: c.params}
			out, err := set.Render(catalog.GameName, lang, "event.bc.place", templates.Ctx{Lang: lang, Game: catalog.GameName, Seats: []string{"Ann", "Bob"}, Data: ev})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(out, "\n") || strings.Contains(out, "_") || strings.Contains(out, "no value") {
				t.Errorf("%s: %q", lang, out)
			}
			if w, ok := c.want[lang]; ok && !strings.Contains(out, w) {
				t.Errorf("%s: %q, want %q", lang, out, w)
			}
		}
	}
}

// TestStyleLockedNamesRecipes_BC556: the refusal of a recipe whose style's
// basic recipe was not brewed yet (BC-5.5.6) names both recipes in the
// reader's language, never by their codes (issue 22), and fits 80 columns;
// every locked recipe of the data file with its basic one.
func TestStyleLockedNamesRecipes_BC556(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	s := newGame(t, 2, "locked")
	cards := s.r.CardSet(s.opt("research_side")).ByKey
	pairs := 0
	for _, rc := range s.r.Recipe {
		if rc.Basic() {
			continue
		}
		for _, b := range s.r.Recipe {
			if !b.Basic() || b.Style != rc.Style {
				continue
			}
			pairs++
			for _, lang := range templates.Languages {
				ctx := func(data any) templates.Ctx {
					return templates.Ctx{Lang: lang, Game: catalog.GameName, Seats: []string{"Ann"}, Data: data}
				}
				e := engine.Reject("BC-5.5.6", "style_locked", "recipe", rc.ID, "basic", b.ID)
				out, err := set.Render(catalog.GameName, lang, "error.style_locked", ctx(e))
				if err != nil {
					t.Fatal(err)
				}
				rest := out
				for _, id := range []string{rc.ID, b.ID} {
					name, err := set.Render(catalog.GameName, lang, "card.name", ctx(cards["recipe:"+id]))
					if err != nil {
						t.Fatal(err)
					}
					if name == id || !strings.Contains(out, name) {
						t.Errorf("%s: %s not named %q: %q", lang, id, name, out)
					}
					rest = strings.ReplaceAll(rest, name, "")
				}
				for _, id := range []string{rc.ID, b.ID} {
					if regexp.MustCompile(`\b` + regexp.QuoteMeta(id) + `\b`).MatchString(rest) {
						t.Errorf("%s: the code %s shows: %q", lang, id, out)
					}
				}
				for _, l := range strings.Split(out+" (BC-5.5.6)", "\n") {
					if utf8.RuneCountInString(l) > 80 {
						t.Errorf("%s: over 80 columns: %q", lang, l)
					}
				}
			}
		}
	}
	if pairs < 3 {
		t.Fatalf("only %d locked recipes", pairs)
	}
}
