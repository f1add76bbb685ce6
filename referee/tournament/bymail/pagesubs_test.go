package bymail

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/templates"
)

// TestPagesMarkPlacesThatChangedHands_Issue24 (issue 24: after a REPLACE,
// every page names who played which game): the tournament page's
// standings, the crosstable and the place's player page mark a place that changed hands with each
// earlier holder who played and their rounds (PageStint), as the mails'
// standings do; a holder replaced before playing is not named, and an
// untouched place has no mark. Swiss and tables, in every language, with
// a place passed on once after round 1, one passed on twice (after
// rounds 1 and 2), and one passed on before round 1.
func TestPagesMarkPlacesThatChangedHands_Issue24(t *testing.T) {
	for _, format := range []string{tournament.Swiss, tournament.Tables} {
		tr := threeRounds(t, format, "seed", 9, func(i, _ int) int { return i + 1 })
		tr.Entrants[1].Before = []tournament.Stint{{Name: "Ann", Address: "ann@x", Through: 1}}
		tr.Entrants[4].Before = []tournament.Stint{{Name: "Bob", Address: "bob@x", Through: 1}, {Name: "Cy", Address: "cy@x", Through: 2}}
		tr.Entrants[7].Before = []tournament.Stint{{Name: "Dee", Address: "dee@x", Through: 0}}
		want := map[int]string{1: "[{Ann 1 1 0 /t/cup-k/p/2/1}]", 4: "[{Bob 1 1 0 /t/cup-k/p/5/1} {Cy 2 2 0 /t/cup-k/p/5/2}]", 7: "[]"}
		h := newTestHost(t, time.Date(2026, 9, 16, 18, 0, 0, 0, time.UTC))
		raw, err := json.Marshal(tr)
		if err != nil {
			t.Fatal(err)
		}
		h.rec.tours["cup"] = raw
		check := func(where string, e int, got []PageStint) {
			w, ok := want[e]
			if !ok {
				w = "[]"
			}
			if g := fmt.Sprint(got); g != w {
				t.Errorf("%s %s: entrant %d's place marked %s, want %s", format, where, e, g, w)
			}
		}
		for _, lang := range templates.Languages {
			p, err := Page(h, "cup", "k", lang)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Standings) != len(tr.Entrants) {
				t.Fatalf("%s: %d standings for %d entrants", format, len(p.Standings), len(tr.Entrants))
			}
			for _, s := range p.Standings {
				e := -1
				for i := range tr.Entrants {
					if playerPagePath(tr, i) == s.URL {
						e = i
					}
				}
				check(lang+" standings", e, s.Replaced)
			}
		}
		for e := range tr.Entrants {
			pp, err := PlayerPageOf(h, "cup", "k", e+1)
			if err != nil {
				t.Fatal(err)
			}
			check("player page", e, pp.Replaced)
		}
		cp, err := CrossPageOf(h, "cup", "k")
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range cp.Lines {
			e := -1
			for i := range tr.Entrants {
				if playerPagePath(tr, i) == l.URL {
					e = i
				}
			}
			check("crosstable", e, l.Replaced)
		}
	}
}

// TestPlayerPagesNameHandedOnGames_Issue24 (issue 24: a player page of the
// substitute lists the game they finished, the departed holder's the game
// they started): 24 generated tournaments (Swiss and tables), a
// generated place's game of a generated round handed on after a move,
// once or twice, the substitute named like another holder in half the
// draws. The place's page marks each departed holder with the round they
// began (PageStint.Into, "began round r"), its game of that round names
// who began it and the substitute who finished it (PlayerGame.Played),
// every opponent's page lists it against them both (PageName.Part), and
// the crosstable's cell names them (CrossPageCell.Players); other rounds
// and places are untouched.
func TestPlayerPagesNameHandedOnGames_Issue24(t *testing.T) {
	for draw := 0; draw < 24; draw++ {
		rng := rand.New(rand.NewPCG(24, uint64(draw)))
		format := []string{tournament.Swiss, tournament.Tables}[draw%2]
		n := 5 + rng.IntN(4)
		tr := threeRounds(t, format, fmt.Sprint("seed", draw), n, func(_, seats int) int { return 1 + rng.IntN(seats) })
		e, r, seats := gameToHandOn(tr, rng) // handed on during round r
		played := []string{tr.Entrants[e].Name}
		for k := 0; k < 1+rng.IntN(2); k++ {
			name := fmt.Sprintf("Sub%d", k)
			if rng.IntN(2) == 0 {
				name = tr.Entrants[seats[rng.IntN(len(seats))]].Name // named like another holder
			}
			en := &tr.Entrants[e]
			en.Before = append(en.Before, tournament.Stint{Name: en.Name, Address: en.Address, Through: r - 1, Into: r})
			en.Name, en.Address = name, fmt.Sprintf("sub%d@x", k)
			played = append(played, name)
		}
		h := newTestHost(t, time.Date(2026, 9, 16, 18, 0, 0, 0, time.UTC))
		raw, err := json.Marshal(tr)
		if err != nil {
			t.Fatal(err)
		}
		h.rec.tours["cup"] = raw
		for x := range tr.Entrants {
			pp, err := PlayerPageOf(h, "cup", "k", x+1)
			if err != nil {
				t.Fatal(err)
			}
			if x == e {
				var began []string
				for _, s := range pp.Replaced {
					if s.Into == r {
						began = append(began, s.Name)
					}
				}
				if fmt.Sprint(began) != fmt.Sprint(played[:len(played)-1]) {
					t.Errorf("draw %d: the page of place %d marks %+v, want %q beginning round %d", draw, x+1, pp.Replaced, played[:len(played)-1], r)
				}
			} else if len(pp.Replaced) != 0 {
				t.Errorf("draw %d: place %d, kept, is marked %+v", draw, x+1, pp.Replaced)
			}
			for _, g := range pp.Games {
				var want []string
				if x == e && g.Round <= r {
					want = played // every round before r was the first holder's
					if g.Round < r {
						want = played[:1]
					}
				}
				if fmt.Sprint(g.Played) != fmt.Sprint(want) {
					t.Errorf("draw %d: place %d's round %d names %q, want %q", draw, x+1, g.Round, g.Played, want)
				}
				// Each name links that person's page: the first holder's
				// rounds theirs, the handed-on game last the holder now's.
				var urls []string
				if len(want) > 0 {
					urls = []string{personPagePath(tr, e, 1)}
				}
				if len(want) > 1 {
					urls = playedPaths(tr, e, r)
					if urls[len(urls)-1] != personPagePath(tr, e, len(tr.Entrants[e].Before)+1) {
						t.Errorf("draw %d: round %d's game is not finished by the holder now: %q", draw, r, urls)
					}
				}
				if fmt.Sprint(g.PlayedURLs) != fmt.Sprint(urls) {
					t.Errorf("draw %d: place %d's round %d links %q, want %q", draw, x+1, g.Round, g.PlayedURLs, urls)
				}
				for _, o := range g.Opponents {
					// The handed-on place's opponent links who finished it.
					if o.URL == personPagePath(tr, e, len(tr.Entrants[e].Before)+1) && g.Round == r {
						if got := append(slices.Clone(o.Part), o.Name); fmt.Sprint(got) != fmt.Sprint(played) {
							t.Errorf("draw %d: place %d's round %d lists the handed-on place as %q, %q played", draw, x+1, r, got, played)
						}
					} else if o.Part != nil {
						t.Errorf("draw %d: place %d's round %d opponent %s has %q", draw, x+1, g.Round, o.Name, o.Part)
					}
				}
			}
		}
		cp, err := CrossPageOf(h, "cup", "k")
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range cp.Lines {
			c := l.Cells[r-1]
			if l.URL == playerPagePath(tr, e) {
				if fmt.Sprint(c.Players) != fmt.Sprint(played) {
					t.Errorf("draw %d: the crosstable's round %d names %q, %q played", draw, r, c.Players, played)
				}
			} else if c.Players != nil {
				t.Errorf("draw %d: the crosstable names %q in a kept place", draw, c.Players)
			}
		}
	}
}

// gameToHandOn picks a place e with a game (not a bye) in round r, one of
// tr's three, and that game's seats: places and rounds drawn from rng
// until one has a game.
func gameToHandOn(tr *tournament.Tournament, rng *rand.Rand) (e, r int, seats []int) {
	for seats == nil {
		e, r = rng.IntN(len(tr.Entrants)), 1+rng.IntN(3)
		for _, m := range tr.Rounds[r-1].Matches {
			if slices.Contains(m.Seats, e) && m.State != tournament.MatchBye {
				seats = m.Seats
			}
		}
	}
	return e, r, seats
}

// threeRounds is a running tournament "cup" of the format (two-player
// games; tables of 3 for Tables) with entrants P0, P1... and its three
// rounds played: every game done, seat i of a game ranked rank(i, seats).
func threeRounds(t testing.TB, format, seed string, entrants int, rank func(i, seats int) int) *tournament.Tournament {
	t.Helper()
	tr := &tournament.Tournament{ID: "cup", Seed: seed, Status: tournament.StatusRunning, Key: "k",
		Settings: tournament.Settings{Format: format, Table: 2, NumRounds: 3, Points: []float64{1, 0}, MinTable: 2, Public: true}}
	if format == tournament.Tables {
		tr.Table, tr.Points = 3, []float64{2, 1, 0}
	}
	for i := 0; i < entrants; i++ {
		tr.Entrants = append(tr.Entrants, tournament.Entrant{ID: i, Address: fmt.Sprintf("p%d@x", i), Name: fmt.Sprintf("P%d", i)})
	}
	for r := 1; r <= 3; r++ {
		rd, err := tr.NextRound()
		if err != nil {
			t.Fatal(err)
		}
		for k := range rd.Matches {
			m := &rd.Matches[k]
			if m.State == tournament.MatchBye {
				continue
			}
			m.GameID, m.State, m.Rank = fmt.Sprintf("g%d%d", r, k), tournament.MatchDone, make([]int, len(m.Seats))
			for i := range m.Rank {
				m.Rank[i] = rank(i, len(m.Seats))
			}
		}
		tr.Rounds = append(tr.Rounds, rd)
	}
	return tr
}
