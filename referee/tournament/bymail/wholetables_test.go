package bymail

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
)

// wholePersonPage is the page of holder k of place n as it was made from
// the whole crosstable and a walk of each line of holders of its own
// (before issue 24's proportional pages): the reference the pages made
// from one place's cells (tournament.Tournament.Cell) and
// Entrant.Tenures must equal.
func wholePersonPage(t *tournament.Tournament, n, k int) *PersonPage {
	d := &desk{}
	p, mine := personPageHead(t, n, k)
	for e, x := range t.Entrants {
		from := 1
		for j := 0; j <= len(x.Before); j++ {
			st := PersonStint{Place: e + 1, Holder: x.Name, URL: playerPagePath(t, e), Substitute: j > 0, First: from,
				Through: len(t.Rounds)}
			if j > 0 && x.Before[j-1].Into > x.Before[j-1].Through {
				st.Took = x.Before[j-1].Into
				st.First = max(st.First, st.Took+1)
			}
			if j < len(x.Before) {
				s := x.Before[j]
				st.Through, st.Left = s.Through, s.Through+1
				if s.Into > s.Through {
					st.Into = s.Into
				}
				from = max(from, s.Through+1)
			}
			if mine(e, j+1) {
				p.Held = append(p.Held, st)
			}
		}
	}
	cells := map[int][]tournament.CrossCell{}
	for _, row := range tournament.Crosstable(t) {
		cells[row.Entrant] = row.Rounds
	}
	for r, rd := range t.Rounds {
		for _, m := range rd.Matches {
			for seat, e := range m.Seats {
				hs := t.Entrants[e].PlayedHolders(rd.N)
				played, finished := false, false
				for i, j := range hs {
					if mine(e, j) {
						played, finished = true, finished || i == len(hs)-1
					}
				}
				if !played {
					continue
				}
				g := PersonGame{PlayerGame: wholePlaceGame(d, t, rd.N, m, seat, cells[e], r), Place: e + 1}
				if len(hs) == 1 {
					g.Played, g.PlayedURLs = nil, nil
				}
				if finished && tournament.Rated(m) && len(m.Ratings) == len(m.Seats) {
					g.RatingAfter = strconv.FormatFloat(m.Ratings[seat], 'f', 0, 64)
					if len(m.RatingsBefore) == len(m.Seats) {
						g.RatingBefore = strconv.FormatFloat(m.RatingsBefore[seat], 'f', 0, 64)
					}
				}
				p.Games = append(p.Games, g)
			}
		}
	}
	return p
}

// wholePlaceGame is a place's game read from its crosstable line's cells
// (the reference of placeGame).
func wholePlaceGame(d *desk, t *tournament.Tournament, n int, m tournament.Match, seat int, cells []tournament.CrossCell, r int) PlayerGame {
	g := d.placeGame(t, n, m, seat)
	g.Result, g.Played, g.PlayedURLs, g.Points = "", nil, nil, ""
	if r < len(cells) {
		g.Result, g.Played = cells[r].Result, cells[r].Players
		if len(cells[r].Players) > 0 {
			g.PlayedURLs = playedPaths(t, m.Seats[seat], n)
		}
		if cells[r].Result != "*" && cells[r].Result != "" {
			g.Points = fmtNum(cells[r].Points)
		}
	}
	return g
}

// wholePlayerPage is the page of place n as it was made from the whole
// formatted standings and the whole crosstable (the reference of
// PlayerPageOf).
func wholePlayerPage(d *desk, t *tournament.Tournament, n int) *PlayerPage {
	e := n - 1
	p := &PlayerPage{ID: t.ID, Title: tourTitle(t), TourURL: tourPagePath(t), CrossURL: tourPagePath(t) + "/crosstable",
		N: n, Name: t.Entrants[e].Name, Table: t.Table, Withdrawn: t.Entrants[e].Withdrawn > 0,
		Replaced: replaced(t, e)}
	for _, row := range d.tourStandingRows(t) {
		if row.entrant == e {
			p.Place, p.Points, p.Record, p.Rating, p.RatingAdjudicated = row.Place, row.Points, row.Record, row.Rating, row.Adjudicated
		}
	}
	var mine []tournament.CrossCell
	for _, row := range tournament.Crosstable(t) {
		if row.Entrant == e {
			mine = row.Rounds
		}
	}
	for r, rd := range t.Rounds {
		for _, m := range rd.Matches {
			for seat, x := range m.Seats {
				if x == e {
					p.Games = append(p.Games, wholePlaceGame(d, t, rd.N, m, seat, mine, r))
				}
			}
		}
	}
	p.History, p.Recomputed = ratingHistory(t, e)
	return p
}

// walkedSubstitutes are substitutes as they were, from a walk of each
// line of holders of their own (the reference).
func walkedSubstitutes(t *tournament.Tournament, rows []standingRow) []map[string]any {
	var out []map[string]any
	for _, r := range rows {
		if r.Gap || !r.Sub {
			continue
		}
		e := t.Entrants[r.entrant]
		first := 1
		for i, b := range e.Before {
			name := e.Name
			if i+1 < len(e.Before) {
				name = e.Before[i+1].Name
			}
			out = append(out, map[string]any{"name": name, "old": b.Name, "first": first, "through": b.Through,
				"from": b.Through + 1, "played": b.Through >= first})
			first = max(first, b.Through+1)
		}
	}
	return out
}

// unsettle leaves some of the last round's games of a generated
// tournament playing, and decides others by forfeit or adjudication, so
// that every kind of cell is reached.
func unsettle(tr *tournament.Tournament, rng *rand.Rand) {
	rd := &tr.Rounds[len(tr.Rounds)-1]
	for k := range rd.Matches {
		m := &rd.Matches[k]
		if m.State == tournament.MatchBye {
			continue
		}
		switch rng.IntN(4) {
		case 0:
			m.State, m.Rank, m.Ratings, m.RatingsBefore = tournament.MatchPlaying, nil, nil, nil
		case 1:
			m.State, m.Ratings, m.RatingsBefore = tournament.MatchForfeit, nil, nil
		case 2:
			m.State = tournament.MatchAdjudicated
		}
	}
}

// TestPlacePagesEqualTheWholeTables_Issue24: a page of one person, or of
// one place, is made from that place's own cells and its line of holders
// (Entrant.Tenures), never from the whole crosstable; it says exactly what
// the page made from the whole crosstable said. 200 generated tournaments
// (drawPersons: Swiss and tables, places handed on between rounds and
// within games, holders replaced before playing, equal stints, one person
// holding two places; half with games still playing, forfeited and
// adjudicated): every holder's page of every place and every place's
// page, every field, equal to the reference made from the whole tables
// (wholePersonPage, wholePlayerPage); and the lines of the standings in
// mails that say who played for a place (substitutes) equal the ones
// walked apart from Entrant.Tenures.
func TestPlacePagesEqualTheWholeTables_Issue24(t *testing.T) {
	pages, took, shared := 0, 0, 0
	for draw := range 200 {
		pd := drawPersons(t, draw)
		tr := pd.tr
		if draw%2 == 1 {
			unsettle(tr, rand.New(rand.NewPCG(25, uint64(draw))))
		}
		h := hostWith(t, tr)
		for e, en := range tr.Entrants {
			for k := 1; k <= len(en.Before)+1; k++ {
				got, err := PersonPageOf(h, "cup", "k", e+1, k)
				if err != nil {
					t.Fatal(err)
				}
				want := wholePersonPage(tr, e+1, k)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("draw %d: place %d holder %d's page\n%+v\nwant\n%+v", draw, e+1, k, got, want)
				}
				pages++
				for _, s := range got.Held {
					if s.Took > 0 {
						took++
					}
				}
				for _, g := range got.Games {
					if len(g.Played) > 0 {
						shared++
					}
				}
			}
			// The standings' lines of who played for a place, from the
			// same walk (Entrant.Tenures).
			rows := []standingRow{{Sub: len(en.Before) > 0, entrant: e}}
			if got, want := substitutes(tr, rows), walkedSubstitutes(tr, rows); !reflect.DeepEqual(got, want) {
				t.Errorf("draw %d: place %d's substitutes %v, want %v", draw, e+1, got, want)
			}
			pp, err := PlayerPageOf(h, "cup", "k", e+1)
			if err != nil {
				t.Fatal(err)
			}
			if want := wholePlayerPage(newDesk(h), tr, e+1); !reflect.DeepEqual(pp, want) {
				t.Errorf("draw %d: place %d's page\n%+v\nwant\n%+v", draw, e+1, pp, want)
			}
		}
	}
	if took < 20 || shared < 20 {
		t.Errorf("%d pages, %d stints that took a game over, %d games shared: the generator no longer reaches the cases", pages, took, shared)
	}
	t.Logf("%d pages, %d stints that took a game over, %d games shared", pages, took, shared)
}

// wholeExcerpt is entrant e's excerpt of the standings made from the
// whole formatted table (the reference of excerpt).
func wholeExcerpt(d *desk, t *tournament.Tournament, e int, lang string) string {
	all := d.tourStandingRows(t)
	i := 0
	for j, r := range all {
		if r.entrant == e {
			i = j
		}
	}
	lo := min(max(0, i-neighbours), max(0, len(all)-2*neighbours-1))
	hi := min(len(all), lo+2*neighbours+1)
	var rows []standingRow
	if lo > 0 {
		rows = append(rows, standingRow{Gap: true})
	}
	rows = append(rows, all[lo:hi]...)
	if hi < len(all) {
		rows = append(rows, standingRow{Gap: true})
	}
	return d.standingsText(t, rows, lang)
}

// TestExcerptsEqualTheWholeTable_Issue24: a round mail's standings
// format a row, and read its rating, when an excerpt first shows it, not
// the whole table once a batch; every entrant's excerpt, asked for in a
// random order from one standings (rows formatted by earlier excerpts
// reused), is the one made from the whole formatted table. 60 generated
// tournaments (drawPersons, half with games unfinished, forfeited and
// adjudicated; 5 to 8 entrants and 41 to 48 with the rest as newcomers
// with no game), 4 languages.
func TestExcerptsEqualTheWholeTable_Issue24(t *testing.T) {
	for draw := range 60 {
		pd := drawPersons(t, draw)
		tr := pd.tr
		rng := rand.New(rand.NewPCG(26, uint64(draw)))
		if draw%2 == 1 {
			unsettle(tr, rng)
		}
		if draw%3 == 0 {
			for i, n := len(tr.Entrants), 41+rng.IntN(8); i < n; i++ {
				tr.Entrants = append(tr.Entrants, tournament.Entrant{ID: i, Address: fmt.Sprintf("n%d@x", i), Name: fmt.Sprintf("N%d", i)})
			}
		}
		h := newTestHost(t, time.Date(2026, 9, 16, 18, 0, 0, 0, time.UTC))
		d := newDesk(h)
		for _, lang := range []string{"en", "it", "fr", "nl"} {
			st := d.newStandings(tr)
			for _, e := range rng.Perm(len(tr.Entrants)) {
				if got, want := d.excerpt(st, e, lang), wholeExcerpt(d, tr, e, lang); got != want {
					t.Errorf("draw %d, %s: entrant %d's excerpt\n%s\nwant\n%s", draw, lang, e, got, want)
				}
			}
		}
	}
}

// TestGamePageReadsTheKeyAlone_Issue24: a tournament game's page checks
// its key from the tournament's id, key and publication alone (not its
// entrants and rounds, decoded whole before): for every game of 20
// generated tournaments, published or not, its own key, another game's,
// a key one letter off and none, GamePage answers as the whole record
// says (gamePageKey of the decoded tournament).
func TestGamePageReadsTheKeyAlone_Issue24(t *testing.T) {
	seen := 0
	for draw := range 20 {
		tr := drawPersons(t, draw).tr
		tr.Public, tr.Key = draw%3 != 0, fmt.Sprintf("key%d", draw)
		h := hostWith(t, tr)
		for _, rd := range tr.Rounds {
			for _, m := range rd.Matches {
				if m.GameID == "" {
					continue
				}
				own := gamePageKey(tr, m.GameID)
				for _, key := range []string{own, gamePageKey(tr, m.GameID+"x"), own[:len(own)-1] + "z", ""} {
					url, ok := GamePage(h.rec, "cup", m.GameID, key)
					want := tr.Public && key == own
					if ok != want || (ok && url != tourPagePath(tr)) {
						t.Errorf("draw %d: game %s key %q: %q %v, want %v", draw, m.GameID, key, url, ok, want)
					}
					seen += min(1, len(url))
				}
			}
		}
		if _, ok := GamePage(h.rec, "none", "g10", gamePageKey(tr, "g10")); ok {
			t.Errorf("draw %d: a game page of no tournament", draw)
		}
	}
	if seen < 100 {
		t.Errorf("%d pages found: the test does not reach them", seen)
	}
}

// botsHost is a testHost whose tournament games are running and finished
// by the bots when adjudicated (Adjudicate: no result now), and whose
// records count the reads of a tournament's record.
type botsHost struct {
	*testHost
	reads *int
}

func (h botsHost) Game(string) (GameInfo, error) {
	return GameInfo{Status: "running", Started: true}, nil
}
func (h botsHost) Adjudicate(string) (*Result, error) { return nil, nil }
func (h botsHost) Records() Records                   { return countedRecords{h.rec, h.reads} }

type countedRecords struct {
	*memRecords
	reads *int
}

func (c countedRecords) Tournament(id string) ([]byte, error) {
	*c.reads++
	return c.memRecords.Tournament(id)
}

// TestAdjudicateLinesDecodeOnce_Issue24: the lines of an organiser's
// mail are one unit of work, and ADJUDICATE of a game the bots finish
// keeps its tournament (Kept) like a command that changed it, so a mail
// of 1 to 40 ADJUDICATE lines reads the tournament's record once (it was
// read, and decoded whole, once a line: quadratic in the entrants over a
// round), and each line is answered as before.
func TestAdjudicateLinesDecodeOnce_Issue24(t *testing.T) {
	for _, n := range []int{1, 2, 7, 40} {
		tr := threeRounds(t, tournament.Swiss, "adj", 2*n+3, func(i, _ int) int { return 1 + i })
		tr.Organiser = "org@x"
		h := hostWith(t, tr)
		var games []string
		h.rec.byGame = map[string]string{}
		for _, m := range tr.Rounds[2].Matches {
			if m.GameID != "" && len(games) < n {
				h.rec.byGame[m.GameID] = "cup"
				games = append(games, m.GameID)
			}
		}
		reads := 0
		bh := botsHost{h, &reads}
		for _, g := range games {
			res, ok, err := Org(bh, "org@x", []string{"ADJUDICATE", g})
			if err != nil || !ok || !strings.Contains(res, g) {
				t.Fatalf("%d lines: ADJUDICATE %s: %q %v %v", n, g, res, ok, err)
			}
		}
		if reads != 1 {
			t.Errorf("%d ADJUDICATE lines read the tournament's record %d times, want once", n, reads)
		}
	}
}
