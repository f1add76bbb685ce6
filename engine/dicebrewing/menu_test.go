package dicebrewing

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
	"github.com/pbem-referee/referee/templates"
)

// Issue 22, every option in words (doc.go, "Menus"): for every decision of
// positions of real games (every player count, both variants), in every
// language, every option has a group; the groups of a menu are together
// and ranked in Legal's order (the numbers run down the mail); each group
// has a heading of its own, in the reader's language, that fits a line;
// every option line and the legend fit 80 columns.
func TestMenuInWords_Issue22(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for si, sm := range sampleGames(t) {
		s := sm.st
		pend := s.Pending()
		if len(pend) == 0 {
			continue
		}
		d := pend[0]
		opts := s.Legal(d)
		if g := engine.GroupOptions(opts); !slices.EqualFunc(g, opts, func(a, b engine.Option) bool { return a.Cmd == b.Cmd }) {
			t.Fatalf("sample %d %s: the groups are not together: %v", si, d.Kind, opts)
		}
		kinds[d.Kind] = true
		heads := map[string]map[string]string{} // lang -> heading -> group
		for _, lang := range templates.Languages {
			heads[lang] = map[string]string{}
			ctx := templates.Ctx{Lang: lang, Game: catalog.GameName, Seat: d.Seat, Seats: s.H.Seats}
			rank := 0
			for i, o := range opts {
				if o.Group == "" {
					t.Fatalf("sample %d: %s has no group", si, o.Cmd)
				}
				od := templates.OptionData{N: i + 1, Option: o, Decision: d, View: s.View(d.Seat)}
				g, err := set.Render(catalog.GameName, lang, "option.group", ctx.With(od))
				if err != nil {
					t.Fatal(err)
				}
				rk, head, _ := strings.Cut(g, "\t")
				head, _, _ = strings.Cut(head, "\t")
				n, err := strconv.Atoi(rk)
				if err != nil || n < rank {
					t.Errorf("%s %s: group %s ranked %q after %d", lang, d.Kind, o.Group, rk, rank)
				}
				rank = n
				if w := utf8.RuneCountInString(head); head == "" || w > templates.Width || strings.Contains(head, "<no value>") || !strings.HasSuffix(head, ":") {
					t.Errorf("%s %s: heading of %s: %q", lang, d.Kind, o.Group, head)
				}
				if other, ok := heads[lang][head]; ok && other != o.Group {
					t.Errorf("%s: groups %s and %s share the heading %q", lang, other, o.Group, head)
				}
				heads[lang][head] = o.Group
				line, err := set.Render(catalog.GameName, lang, "option."+d.Kind, ctx.With(od))
				if err != nil {
					t.Fatal(err)
				}
				if w := utf8.RuneCountInString(fmt.Sprintf("  %3d) %s", i+1, line)); w > templates.Width || strings.Contains(line, "\n") {
					t.Errorf("%s %s: option line of %d columns: %q", lang, d.Kind, w, line)
				}
			}
			legend, err := set.Render(catalog.GameName, lang, "option.legend", ctx.With(templates.OptionData{Decision: d, View: s.View(d.Seat)}))
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Split(legend, "\n") {
				if utf8.RuneCountInString(l) > templates.Width {
					t.Errorf("%s %s: legend line over %d columns: %q", lang, d.Kind, templates.Width, l)
				}
			}
		}
		for _, lang := range templates.Languages[1:] {
			for h := range heads[lang] {
				if g := heads["en"][h]; g != "" && h != "Or:" {
					t.Errorf("%s: the heading of %s is the English one: %q", lang, g, h)
				}
			}
		}
	}
	for _, k := range []string{position.KindWindow, position.KindPlace, position.KindSecond, position.KindReroll, position.KindBuy, position.KindBrew} {
		if !kinds[k] {
			t.Errorf("no %s decision met", k)
		}
	}
}
