package pages

import (
	"fmt"
	"html"
	"slices"
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
// substitute marked, in every language, each name linking that person's
// own page (PageMatch.PartURLs, PlayerURLs: issue 24, the table links
// who played, not the place); a place that did not change hands during
// the game has its name alone, linked. Names that look like the words,
// like markup or like the marks the words are laid out with stay names.
func TestRoundTableNamesWhoPlayedTheGame_Issue24(t *testing.T) {
	h := &handler{}
	for _, part := range [][]string{{"Ann Old"}, {"Ann Old", "Bob Mid"}, {"<b>1</b>", "1", ", then Ann"}} {
		var urls []string
		for k := range part {
			urls = append(urls, fmt.Sprintf("/t/cup-k/p/1/%d", k+1))
		}
		now := fmt.Sprintf("/t/cup-k/p/1/%d", len(part)+1)
		tp := &referee.TournamentPage{ID: "cup", Title: "Cup", Format: "swiss", Table: 2, Round: 1, Rounds: 3, Status: "running",
			Pairings: []bymail.PageRound{{N: 1, Matches: []bymail.PageMatch{{Table: 1, Players: []string{"Yan Now", "Zoe Kept"},
				Part: [][]string{part, nil}, PartURLs: [][]string{urls, nil}, PlayerURLs: []string{now, "/t/cup-k/p/2"}}}}}}
		for _, lang := range templates.Languages {
			b, err := h.render("tournament", lang, tp)
			if err != nil {
				t.Fatal(err)
			}
			page := string(b)
			w := subbedWords[lang]
			link := func(u, name string) string {
				return `<a href="` + u + "?lang=" + lang + `">` + html.EscapeString(name) + "</a>"
			}
			var want []string
			for k, name := range part {
				want = append(want, link(urls[k], name))
			}
			wantText := strings.Join(want, w[0]) + w[0] + link(now, "Yan Now") + html.EscapeString(w[1])
			if !strings.Contains(page, wantText) {
				t.Errorf("%s: the round's table does not say %q:\n%s", lang, wantText, page[strings.Index(page, `class="round"`):])
			}
			if !strings.Contains(page, link("/t/cup-k/p/2", "Zoe Kept")) {
				t.Errorf("%s: a place kept through the game is not named alone, linked", lang)
			}
		}
	}
}

// byWords are how each language says who played a place's round
// (player.by), before the names.
var byWords = map[string]string{"en": "played by ", "it": "giocata da ", "fr": "jouée par ", "nl": "gespeeld door "}

// beganWords are how each language says a departed holder began a round's
// game (tour.replaced with Into), written out so a broken template fails.
var beganWords = map[string]string{"en": "began round ", "it": "iniziato il turno ", "fr": "commencé la ronde ", "nl": "begon ronde "}

// TestPlayerAndCrossPagesNameHandedOnGames_Issue24 (issue 24: the page of
// the substitute lists the game they finished, the departed holder's mark
// the game they began): a place's game of round 3 handed on once or
// twice, a substitute named like the one they replaced or not, in every
// language. The place's page and its crosstable line mark each departed
// holder as beginning round 3 (after the rounds they played whole, or
// alone); the game's row names them, then the substitute marked
// (player.by, tour.subbed), each name linking that person's own page
// (PlayerGame.PlayedURLs; byLinks); the opponent's page names them, each name
// linking that person's own page (PageName.PartURLs, URL); the
// crosstable's round 3 cell names them, each name linking their own page
// (CrossPageCell.PlayedURLs), not the finisher's alone; a round the
// place's holder now played alone names nobody.
func TestPlayerAndCrossPagesNameHandedOnGames_Issue24(t *testing.T) {
	h := &handler{}
	for _, part := range [][]string{{"Ann Old"}, {"Ann Old", "Bob Mid"}, {"Yan Now"}} {
		played := append(slices.Clone(part), "Yan Now")
		var subs []bymail.PageStint
		for i, p := range part {
			s := bymail.PageStint{Name: p, First: 3, Through: 2, Into: 3}
			if i == 0 {
				s.First = 1 // played rounds 1-2 whole
			}
			subs = append(subs, s)
		}
		var partURLs []string
		for k := range part {
			partURLs = append(partURLs, fmt.Sprintf("/t/cup-k/p/1/%d", k+1))
		}
		nowURL := fmt.Sprintf("/t/cup-k/p/1/%d", len(part)+1)
		games := func(who []string, opp bymail.PageName) []bymail.PlayerGame {
			var gs []bymail.PlayerGame
			for r := 1; r <= 4; r++ {
				g := bymail.PlayerGame{Round: r, Table: 1, Seat: 1, Opponents: []bymail.PageName{opp}, State: "done", Result: "1",
					Place: 1, Of: 2, Points: "1", Decided: true}
				if r < 3 {
					g.Played, g.PlayedURLs = part[:1], partURLs[:1]
				}
				if r == 3 {
					g.Played, g.PlayedURLs = who, append(slices.Clone(partURLs), nowURL)
				}
				gs = append(gs, g)
			}
			return gs
		}
		pp := &referee.PlayerPage{ID: "cup", Title: "Cup", N: 1, Name: "Yan Now", Table: 2, Replaced: subs,
			Games: games(played, bymail.PageName{Name: "Zoe Kept", URL: "/t/cup-k/p/2"})}
		opp := &referee.PlayerPage{ID: "cup", Title: "Cup", N: 2, Name: "Zoe Kept", Table: 2,
			Games: games(nil, bymail.PageName{Name: "Yan Now", URL: nowURL, Part: part, PartURLs: partURLs})}
		for i := range opp.Games {
			opp.Games[i].Played = nil
			if opp.Games[i].Round != 3 {
				opp.Games[i].Opponents[0].Part = nil
			}
		}
		cells := func(who []string) []bymail.CrossPageCell {
			var cs []bymail.CrossPageCell
			for r := 1; r <= 4; r++ {
				c := bymail.CrossPageCell{Opponents: []int{2}, Seat: 1, Result: "1"}
				switch {
				case who != nil && r < 3:
					c.Players, c.PlayedURLs = part[:1], partURLs[:1]
				case who != nil && r == 3:
					c.Players, c.PlayedURLs = who, append(slices.Clone(partURLs), nowURL)
				}
				cs = append(cs, c)
			}
			return cs
		}
		cp := &referee.CrossPage{ID: "cup", Title: "Cup", Table: 2, Rounds: []int{1, 2, 3, 4},
			Lines: []bymail.CrossLine{{Line: 1, Place: 1, Name: "Yan Now", URL: "/t/cup-k/p/1", Points: "4", Replaced: subs, Cells: cells(played)},
				{Line: 2, Place: 2, Name: "Zoe Kept", URL: "/t/cup-k/p/2", Points: "0", Cells: cells(nil)}}}
		for _, lang := range templates.Languages {
			w := subbedWords[lang]
			var byLinks []string
			for k, p := range part {
				byLinks = append(byLinks, `<a class="by" href="`+partURLs[k]+"?lang="+lang+`">`+p+"</a>")
			}
			byLinked := strings.Join(byLinks, w[0]) + w[0] + `<a class="by" href="` + nowURL + "?lang=" + lang + `">Yan Now</a>` + w[1]
			render := func(name string, data any) string {
				b, err := h.render(name, lang, data)
				if err != nil {
					t.Fatalf("%s %s: %v", lang, name, err)
				}
				return html.UnescapeString(string(b))
			}
			page := render("player", pp)
			for _, p := range part {
				if !strings.Contains(page, p+" ") || strings.Count(page, beganWords[lang]+"3") != len(part) {
					t.Errorf("%s %q: the place's page does not mark %s as beginning round 3:\n%s", lang, part, p, page)
				}
			}
			rows := strings.Split(page[strings.Index(page, `id="games"`):], "<tr>")[2:]
			for r, row := range rows {
				// "played by", each name linking that person's page.
				has := strings.Contains(row, byWords[lang]+byLinked)
				if has != (r+1 == 3) {
					t.Errorf("%s %q: the place's round %d names the hand-over, each name linking their page: %v\n%s", lang, part, r+1, has, row)
				}
				if r+1 < 3 && !strings.Contains(row, byWords[lang]+byLinks[0]+"</small>") {
					t.Errorf("%s %q: the place's round %d does not link who played it:\n%s", lang, part, r+1, row)
				}
			}
			page = render("player", opp)
			rows = strings.Split(page[strings.Index(page, `id="games"`):], "<tr>")[2:]
			var links []string
			for k, p := range part {
				links = append(links, `<a href="`+partURLs[k]+"?lang="+lang+`">`+p+"</a>")
			}
			linked := strings.Join(links, w[0]) + w[0] + `<a href="` + nowURL + "?lang=" + lang + `">Yan Now</a>` + w[1]
			for r, row := range rows {
				if has := strings.Contains(row, linked); has != (r+1 == 3) {
					t.Errorf("%s %q: the opponent's round %d names the hand-over, each name linking their page: %v\n%s", lang, part, r+1, has, row)
				}
			}
			page = render("crosstable", cp)
			line := page[strings.Index(page, `>Yan Now</a>`):]
			line = line[:strings.Index(line, "</tr>")]
			cs := strings.Split(line, `<td class="cell"`)[1:]
			if len(cs) != 4 || !strings.Contains(cs[2], byLinked) || !strings.Contains(cs[0], byLinks[0]) || strings.Contains(cs[3], "sub") {
				t.Errorf("%s %q: the crosstable's line does not name who played:\n%s", lang, part, line)
			}
			kept := page[strings.Index(page, `>Zoe Kept</a>`):]
			if kept = kept[:strings.Index(kept, "</tr>")]; strings.Contains(kept, `class="sub"`) {
				t.Errorf("%s: a kept place names someone: %s", lang, kept)
			}
		}
	}
}
