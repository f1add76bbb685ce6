package pages

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
)

// bigSource is the referee with made-up crosstables and player pages of
// the sizes organisers run (issue 24): a two-player Swiss of 11 rounds and
// 24 entrants with every tie-break, and tables of four over 9 rounds and
// 30 entrants, with long names, two-digit lines, shared places, forfeits,
// adjudications and a round still playing. Their addresses are
// /t/big2-k/crosstable, /t/big4-k/crosstable and /t/big2-k/p/<n>, and
// /t/big2-k, a tournament page whose round table has a game handed on.
type bigSource struct{ *referee.Referee }

// bigNames are entrants' names: short, long, hyphenated, with accents.
var bigNames = []string{"Ann", "Maximiliaan van den Broek-Vandenberghe", "Anne-Sophie Dupont-Aignan", "Bob", "Ødegård",
	"Giambattista Pallavicino", "Éloïse", "Zoë Ngata", "Wolfgang Schwarzenegger", "Li"}

func bigName(i int) string {
	return bigNames[i%len(bigNames)] + map[bool]string{true: "", false: " " + strconv.Itoa(i)}[i < len(bigNames)]
}

// bigCross makes a crosstable of n entrants, rounds rounds, table seats.
func bigCross(id string, table, rounds, n int) *referee.CrossPage {
	rng := rand.New(rand.NewPCG(uint64(table), uint64(rounds)))
	p := &referee.CrossPage{ID: id, Title: "Dice Brewing", URL: "/t/" + id + "-k", Table: table,
		Tiebreaks: []string{"buchholz", "sb", "score", "h2h"}}
	for r := 1; r <= rounds; r++ {
		p.Rounds = append(p.Rounds, r)
	}
	for l := 1; l <= n; l++ {
		line := bymail.CrossLine{Line: l, Place: l, Name: bigName(l - 1), URL: fmt.Sprintf("/t/%s-k/p/%d", id, l),
			Points: fmt.Sprintf("%d.5", rounds-l/3), Withdrawn: l == n-1}
		if l == 2 && rounds > 3 {
			// A place that changed hands twice (issue 24): the marks must
			// fit a phone too.
			line.Replaced = bigStints
		}
		for range p.Tiebreaks {
			line.Tiebreaks = append(line.Tiebreaks, fmt.Sprintf("%d.5", 40+rng.IntN(60)))
		}
		for r := 1; r <= rounds; r++ {
			c := bymail.CrossPageCell{Seat: 1 + rng.IntN(table)}
			for k := 1; k < table; k++ {
				c.Opponents = append(c.Opponents, 1+rng.IntN(n))
			}
			switch {
			case r == rounds:
				c.Result = "*"
			case rng.IntN(12) == 0:
				c = bymail.CrossPageCell{Result: "U"}
			case table == 2:
				c.Result = []string{"1", "=", "0", "+", "-"}[rng.IntN(5)]
			default:
				c.Result = []string{"", "+", "-"}[rng.IntN(3)] + strconv.Itoa(1+rng.IntN(table)) + []string{"", "="}[rng.IntN(2)] + "/" + strconv.Itoa(table)
			}
			c.Adjudicated = c.Result != "*" && c.Result != "U" && rng.IntN(6) == 0
			if l == 2 && rounds > 3 {
				c.Players = bigPlayed(r, line.Name)
			}
			line.Cells = append(line.Cells, c)
		}
		p.Lines = append(p.Lines, line)
	}
	return p
}

func (b bigSource) CrossPage(slug string) (*referee.CrossPage, error) {
	switch slug {
	case "big2-k":
		return bigCross("big2", 2, 11, 24), nil
	case "big4-k":
		return bigCross("big4", 4, 9, 30), nil
	}
	return b.Referee.CrossPage(slug)
}

// PersonPage of big2-k is, at /t/big2-k/p/2/2, the page of place 2's
// second holder (bigStints), who played round 3 whole, began round 4 and
// handed it on, and who also held place 7 from round 9 (one person in two
// places, issue 24).
func (b bigSource) PersonPage(slug string, n, k int) (*referee.PersonPage, error) {
	if slug != "big2-k" || n != 2 || k != 2 {
		return b.Referee.PersonPage(slug, n, k)
	}
	p := &referee.PersonPage{ID: "big2", Title: "Dice Brewing", TourURL: "/t/big2-k", CrossURL: "/t/big2-k/crosstable", Name: bigName(12), Table: 2,
		Held: []bymail.PersonStint{{Place: 2, Holder: bigName(1), URL: "/t/big2-k/p/2", Substitute: true, Left: 4, First: 3, Through: 3, Into: 4},
			{Place: 7, Holder: bigName(12), URL: "/t/big2-k/p/7", Substitute: true, First: 9, Through: 11, Took: 8}}}
	for _, r := range []int{3, 4, 8, 9, 10, 11} {
		g := bymail.PersonGame{Place: 2, PlayerGame: bymail.PlayerGame{Round: r, Table: r, Seat: r % 2,
			Opponents: []bymail.PageName{{Name: bigName(r + 5), URL: "/t/big2-k/p/" + strconv.Itoa(r+6)}},
			State:     "done", Result: []string{"1", "=", "0"}[r%3], Place: 1 + r%2, Of: 2, Points: []string{"1", "0.5", "0"}[r%3], Decided: true}}
		switch {
		case r == 4:
			g.Played = bigPlayed(r, bigName(1))
		case r == 8:
			g.Place, g.Played = 7, []string{bigName(21), bigName(12)}
			g.Opponents[0].Part = []string{bigName(21), bigName(11)}
			g.Opponents[0].PartURLs = []string{"/t/big2-k/p/14/1", "/t/big2-k/p/14/2"}
		case r > 8:
			g.Place = 7
		}
		if r == 3 || r > 8 && r < 11 {
			g.RatingBefore, g.RatingAfter = strconv.Itoa(1500+11*r), strconv.Itoa(1511+11*r)
		}
		if r == 11 {
			g.State, g.Result, g.Decided, g.Points = "playing", "*", false, ""
		}
		p.Games = append(p.Games, g)
	}
	return p, nil
}

// TournamentPage of big2-k is a page whose latest round has a place's
// game handed on twice (issue 24): the round's table names and links each
// of its three players, long names, on a phone too.
func (b bigSource) TournamentPage(slug, lang string) (*referee.TournamentPage, error) {
	if slug != "big2-k" {
		return b.Referee.TournamentPage(slug, lang)
	}
	p := &referee.TournamentPage{ID: "big2", Title: "Dice Brewing", Game: "dicebrewing", Format: "swiss", Status: "running", Table: 2,
		Round: 4, Rounds: 11, Points: "1 ½ 0", URL: "/t/big2-k", CrossURL: "/t/big2-k/crosstable"}
	for l := 1; l <= 6; l++ {
		st := referee.PageStanding{Place: l, Name: bigName(l - 1), Points: strconv.Itoa(4 - l/2), Record: "3-0-1", URL: fmt.Sprintf("/t/big2-k/p/%d", l)}
		if l == 2 {
			st.Replaced = bigStints
		}
		p.Standings = append(p.Standings, st)
	}
	for r := 4; r >= 3; r-- {
		pr := referee.PageRound{N: r}
		for k := 0; k < 3; k++ {
			m := referee.PageMatch{Table: k + 1, State: "done", Result: "1. / 2.", GameURL: fmt.Sprintf("/g/g%d%d-x", r, k),
				Players:    []string{bigName(2 * k), bigName(2*k + 1)},
				PlayerURLs: []string{fmt.Sprintf("/t/big2-k/p/%d", 2*k+1), fmt.Sprintf("/t/big2-k/p/%d", 2*k+2)}}
			if k == 0 {
				m.Players[1] = bigName(1)
				m.PlayerURLs[1] = "/t/big2-k/p/2/4"
				if r == 4 {
					// Place 2's game of round 4: begun by bigName(12), handed
					// on to bigName(18), finished by its holder now.
					m.Part = [][]string{nil, {bigName(12), bigName(18)}}
					m.PartURLs = [][]string{nil, {"/t/big2-k/p/2/2", "/t/big2-k/p/2/3"}}
				} else {
					m.Players[1], m.PlayerURLs[1] = bigName(12), "/t/big2-k/p/2/2"
				}
			}
			pr.Matches = append(pr.Matches, m)
		}
		p.Pairings = append(p.Pairings, pr)
	}
	return p, nil
}

func (b bigSource) PlayerPage(slug string, n int) (*referee.PlayerPage, error) {
	if slug != "big2-k" {
		return b.Referee.PlayerPage(slug, n)
	}
	p := &referee.PlayerPage{ID: "big2", Title: "Dice Brewing", TourURL: "/t/big2-k", CrossURL: "/t/big2-k/crosstable", N: n,
		Name: bigName(n - 1), Table: 2, Place: n, Points: "7.5", Record: "12-3-10", Rating: "1623"}
	if n == 2 {
		// The page of a place that changed hands twice (issue 24).
		p.Replaced = bigStints
	}
	for r := 1; r <= 11; r++ {
		g := bymail.PlayerGame{Round: r, Table: r, Seat: r % 2, Opponents: []bymail.PageName{{Name: bigName(r), URL: "/t/big2-k/p/" + strconv.Itoa(r+1)}},
			State: "done", Result: []string{"1", "=", "0"}[r%3], Place: 1 + r%2, Of: 2, Points: []string{"1", "0.5", "0"}[r%3], Decided: true}
		if n == 2 {
			g.Played = bigPlayed(r, p.Name)
		}
		if r == 6 {
			// An opponent's game handed on twice.
			g.Opponents[0].Part = []string{bigName(21), bigName(11)}
			g.Opponents[0].PartURLs = []string{"/t/big2-k/p/7/1", "/t/big2-k/p/7/2"}
		}
		p.Games = append(p.Games, g)
		p.History = append(p.History, bymail.RatingStep{Round: r, Rating: strconv.Itoa(1500 + 11*r)})
	}
	return p, nil
}

// bigStints are the earlier holders of place 2 of the big events (issue
// 24): two between rounds, then two who each began round 4's game and
// handed it on after a move; the marks and names must fit a phone too.
var bigStints = []bymail.PageStint{{Name: bigName(15), First: 1, Through: 2}, {Name: bigName(12), First: 3, Through: 3, Into: 4},
	{Name: bigName(18), First: 4, Through: 3, Into: 4}}

// bigPlayed are who played round r for place 2 (bigStints), its holder
// now being now: nil for the rounds they played alone.
func bigPlayed(r int, now string) []string {
	switch {
	case r <= 2:
		return []string{bigName(15)}
	case r == 3:
		return []string{bigName(12)}
	case r == 4:
		return []string{bigName(12), bigName(18), now}
	}
	return nil
}
