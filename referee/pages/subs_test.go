package pages

import (
	"fmt"
	"html"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
	"github.com/pbem-referee/referee/templates"
)

// TestPagesNameReplacedHolders_Issue24 (issue 24: after a REPLACE, every
// page names who played which game): the tournament page's standings,
// the crosstable and the place's player page write, after the name of a
// place that changed hands,
// each earlier holder who played and their rounds (tour.replaced), in
// every language, for a Swiss and a tables event, one round or several;
// a place that did not change hands has no such mark.
func TestPagesNameReplacedHolders_Issue24(t *testing.T) {
	h := &handler{}
	set, err := loadSet()
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range []int{2, 3} {
		format := map[int]string{2: "swiss", 3: "tables"}[table]
		subs := []bymail.PageStint{{Name: "Ann Old", First: 1, Through: 1}, {Name: "Bob Mid", First: 2, Through: 4}}
		tp := &referee.TournamentPage{ID: "cup", Title: "Cup", Format: format, Table: table, Round: 5, Rounds: 5, Status: "running",
			Standings: []referee.PageStanding{{Place: 1, Name: "Yan Now", Points: "3", Record: "3-0-2", URL: "/t/cup-k/p/1", Replaced: subs},
				{Place: 2, Name: "Zoe Kept", Points: "2", Record: "2-0-3", URL: "/t/cup-k/p/2"}}}
		cp := &referee.CrossPage{ID: "cup", Title: "Cup", Table: table, Rounds: []int{1, 2, 3, 4, 5},
			Lines: []bymail.CrossLine{{Line: 1, Place: 1, Name: "Yan Now", URL: "/t/cup-k/p/1", Points: "3", Replaced: subs},
				{Line: 2, Place: 2, Name: "Zoe Kept", URL: "/t/cup-k/p/2", Points: "2"}}}
		pp := &referee.PlayerPage{ID: "cup", Title: "Cup", N: 1, Name: "Yan Now", Table: table, Replaced: subs}
		kept := &referee.PlayerPage{ID: "cup", Title: "Cup", N: 2, Name: "Zoe Kept", Table: table}
		for _, lang := range templates.Languages {
			d := &doc{Lang: lang, set: set}
			for _, pg := range []struct {
				name string
				data any
			}{{"tournament", tp}, {"crosstable", cp}, {"player", pp}, {"player", kept}} {
				b, err := h.render(pg.name, lang, pg.data)
				if err != nil {
					t.Fatalf("%s %s %s: %v", format, lang, pg.name, err)
				}
				page := html.UnescapeString(string(b))
				for _, s := range subs {
					mark, err := d.T("tour.replaced", s)
					if err != nil {
						t.Fatal(err)
					}
					mark = html.UnescapeString(mark)
					for _, w := range []string{s.Name, fmt.Sprint(s.First), fmt.Sprint(s.Through)} {
						if !strings.Contains(mark, w) {
							t.Errorf("%s: tour.replaced %q does not say %q", lang, mark, w)
						}
					}
					if pg.data == kept {
						continue
					}
					row := page[strings.Index(page, "Yan Now"):]
					row = row[:strings.Index(row, map[bool]string{true: "<nav>", false: "</tr>"}[pg.name == "player"])]
					if !strings.Contains(row, mark) {
						t.Errorf("%s %s %s: the place's row does not say %q: %s", format, lang, pg.name, mark, row)
					}
				}
				if pg.data == pp {
					continue
				}
				row := page[strings.Index(page, "Zoe Kept"):]
				row = row[:strings.Index(row, map[bool]string{true: "<nav>", false: "</tr>"}[pg.name == "player"])]
				if strings.Contains(row, "class=\"sub\"") || strings.Contains(row, "id=\"replaced\"") {
					t.Errorf("%s %s %s: a place that never changed hands is marked: %s", format, lang, pg.name, row)
				}
			}
		}
	}
}
