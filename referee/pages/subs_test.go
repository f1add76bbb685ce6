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

// TestGamePageNamesWhoHeldTheSeat_Issue24: a game page whose seat changed
// hands (GamePage.Holders, worded by the core in the page's language)
// names who held it in the players' line and in the result, in every
// language, and names the other seats by their names alone.
func TestGamePageNamesWhoHeldTheSeat_Issue24(t *testing.T) {
	h := &handler{}
	held := "Bob (moves 1–3), then Dan (substitute, from move 4)"
	gp := &referee.GamePage{ID: "g1", Title: "Toy", Status: "over", Players: []string{"Ann", "Bob"}, Holders: []string{"", held},
		Result: []referee.PageResult{{Place: 1, Seat: 1, Name: "Bob", Score: 40, Holders: held}, {Place: 2, Seat: 0, Name: "Ann", Score: 30}}}
	for _, lang := range templates.Languages {
		b, err := h.render("game", lang, gp)
		if err != nil {
			t.Fatal(err)
		}
		page := html.UnescapeString(string(b))
		result := page[strings.Index(page, `<ol id="result"`):]
		result = result[:strings.Index(result, "</ol>")]
		rest := page[strings.Index(page, "</ol>"):]
		if !strings.Contains(result, "1. "+held+",") || !strings.Contains(result, "2. Ann,") {
			t.Errorf("%s: the result does not name who held the seats: %s", lang, result)
		}
		if !strings.Contains(rest, "Ann, "+held) {
			t.Errorf("%s: the players' line does not name who held the seats: %s", lang, rest)
		}
	}
}

// TestStandingsMarkAdjudicatedRatings (issue 24: ratings include
// adjudicated games, marked, and the standings' rating column shows
// them): in every language the rating of an entrant whose rating counts
// an adjudicated game is marked, another's is not.
func TestStandingsMarkAdjudicatedRatings(t *testing.T) {
	h := &handler{}
	tp := &referee.TournamentPage{ID: "cup", Title: "Cup", Format: "swiss", Table: 2, Round: 2, Rounds: 5, Status: "running",
		Standings: []referee.PageStanding{{Place: 1, Name: "Ann", Points: "2", Record: "2-0-0", URL: "/t/cup-k/p/1", Rating: "1620", RatingAdjudicated: true},
			{Place: 2, Name: "Bob", Points: "1", Record: "1-0-1", URL: "/t/cup-k/p/2", Rating: "1500"}}}
	for _, lang := range templates.Languages {
		b, err := h.render("tournament", lang, tp)
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		row := func(name string) string {
			r := page[strings.Index(page, ">"+name+"<"):]
			return r[:strings.Index(r, "</tr>")]
		}
		if !strings.Contains(row("Ann"), ">1620*<") || strings.Contains(row("Bob"), "1500*") || !strings.Contains(row("Bob"), ">1500<") {
			t.Errorf("%s: the ratings are not marked as they count adjudicated games:\n%s\n%s", lang, row("Ann"), row("Bob"))
		}
	}
}

// subbedWords are how each language names a place handed on during a
// round's game (tour.subbed), written out here so that a broken
// template fails.
var subbedWords = map[string][2]string{"en": {", then ", " (substitute)"}, "it": {", poi ", " (in sostituzione)"},
	"fr": {", puis ", " (en remplacement)"}, "nl": {", daarna ", " (invaller)"}}

// TestRoundTableNamesWhoPlayedTheGame_Issue24: a round's table of the
// tournament page names, for a place handed on during the round's game
// (after a move), everyone who played that game, first to last, then the
// substitute marked, in every language, inside the place's link; a
// place that did not change hands during the game has its name alone.
func TestRoundTableNamesWhoPlayedTheGame_Issue24(t *testing.T) {
	h := &handler{}
	for _, part := range [][]string{{"Ann Old"}, {"Ann Old", "Bob Mid"}} {
		tp := &referee.TournamentPage{ID: "cup", Title: "Cup", Format: "swiss", Table: 2, Round: 1, Rounds: 3, Status: "running",
			Pairings: []bymail.PageRound{{N: 1, Matches: []bymail.PageMatch{{Table: 1, Players: []string{"Yan Now", "Zoe Kept"},
				Part: [][]string{part, nil}, PlayerURLs: []string{"/t/cup-k/p/1", "/t/cup-k/p/2"}}}}}}
		for _, lang := range templates.Languages {
			b, err := h.render("tournament", lang, tp)
			if err != nil {
				t.Fatal(err)
			}
			page := html.UnescapeString(string(b))
			w := subbedWords[lang]
			want := `">` + strings.Join(part, w[0]) + w[0] + "Yan Now" + w[1] + "</a>"
			if !strings.Contains(page, want) {
				t.Errorf("%s: the round's table does not say %q:\n%s", lang, want, page[strings.Index(page, `class="round"`):])
			}
			if !strings.Contains(page, `">Zoe Kept</a>`) {
				t.Errorf("%s: a place kept through the game is not named alone", lang)
			}
		}
	}
}
