package bymail

// The crosstable page and the page of each player of a tournament (issue
// 24): behind the tournament page's key, at /t/<id>-<key>/crosstable and
// /t/<id>-<key>/p/<n> (n the entrant's sign-up number). Names, places,
// results and ratings only: never an address.

import (
	"crypto/subtle"
	"strconv"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/tournament/bymail/tourrec"
)

// playerPagePath is the address of an entrant's page.
func playerPagePath(t *tournament.Tournament, entrant int) string {
	return tourPagePath(t) + "/p/" + strconv.Itoa(entrant+1)
}

// CrossPage is a tournament's crosstable: a line per entrant in standing
// order, a cell per round.
type CrossPage struct {
	ID, Title, URL string
	Table          int
	Tiebreaks      []string
	Rounds         []int
	Lines          []CrossLine
}

// CrossLine is one entrant's line.
type CrossLine struct {
	Line, Place int
	Name, URL   string
	Points      string
	Tiebreaks   []string
	Withdrawn   bool
	// Replaced: as PageStanding's (the line is the place's).
	Replaced []PageStint
	Cells    []CrossPageCell
}

// CrossPageCell is one round of an entrant, as the crosstable file writes
// it (tournament.CrossCell): the opponents' lines, the seat, the result.
type CrossPageCell struct {
	Opponents []int
	Seat      int
	// Result is tournament.CrossCell's code; Adjudicated marks it.
	Result      string
	Adjudicated bool
	// Players are who played the round for the line when not its named
	// holder alone, first to last (tournament.CrossCell.Players): more
	// than one, the game was handed on and the last is the substitute.
	Players []string
	// PlayedURLs, with Players, are their pages, one each in the same
	// order (personPagePath): everyone who played the game links their
	// own page, not only who finished it (issue 24).
	PlayedURLs []string
}

// PlayerPage is one entrant's page: their standing, every game and their
// rating after each round.
type PlayerPage struct {
	ID, Title, TourURL, CrossURL string
	N                            int
	Name                         string
	Table                        int
	Place                        int
	Points, Record, Rating       string
	RatingAdjudicated, Withdrawn bool
	// Replaced: as PageStanding's (the page is the place's, and its games
	// of those rounds were the earlier holders').
	Replaced []PageStint
	Games    []PlayerGame
	// History is the rating the place started from (Round 0: the one
	// its first rated game began from, a player who arrived rated's
	// own), then after each round (Glicko-2 at two-player tables,
	// Weng-Lin's μ−3σ scaled like Elo at more), read from the ratings
	// stored with the rated games as they ended (ratingHistory): every
	// rated game of the player counts, adjudicated ones too. Recomputed:
	// a record older than the stored ratings, computed from this
	// tournament's games alone, everyone starting as a newcomer.
	History    []RatingStep
	Recomputed bool
}

// PlayerGame is one round of a player.
type PlayerGame struct {
	Round, Table int
	Bye          bool
	Seat         int
	// Played are who played the round for the place when not the page's
	// named holder alone, first to last (tournament.CrossCell.Players):
	// an earlier holder's round names them; a game handed on after a move
	// names who started it, then the substitute who finished it.
	Played []string
	// PlayedURLs, with Played, are their pages, one each in the same
	// order (playedPaths: each holder's own page).
	PlayedURLs []string
	// Opponents are the others at the table, with their pages.
	Opponents []PageName
	// State is the match's state code; Result the crosstable's code
	// (tournament.CrossCell); Place and Score once decided.
	State     string
	Result    string
	Place, Of int
	Score     string
	Points    string
	Decided   bool
	GameURL   string
}

// PageName is a name with its page; Part, for an opponent, are who played
// the game in part before Name took the place over (a REPLACE after a
// move; nil for most): the page names them, then the substitute.
// PartURLs are the pages of those in Part (issue 24: each name links
// its own person's page).
type PageName struct {
	Name, URL string
	Part      []string
	PartURLs  []string
}

// RatingStep is a rating after a round (Round 0: the start). Before is
// the rating the round's game began from when it is not the step before's
// (a new holder after REPLACE, or games elsewhere in between; "" else).
type RatingStep struct {
	Round          int
	Rating, Before string
}

func (d *desk) publicTour(id, key string) (*tournament.Tournament, error) {
	t, err := tourrec.ForPage(d.rec, id)
	if err != nil || !t.Public || subtle.ConstantTimeCompare([]byte(key), []byte(t.Key)) != 1 {
		return nil, ErrNoPage
	}
	return t, nil
}

func tourTitle(t *tournament.Tournament) string {
	if eg, err := engine.Lookup(t.Game); err == nil {
		return eg.Info().Title
	}
	return t.Game
}

// CrossPageOf returns the crosstable page of tournament id when key is its
// page key and it is published (ErrNoPage otherwise).
func CrossPageOf(h Host, id, key string) (*CrossPage, error) {
	d := newDesk(h)
	t, err := d.publicTour(id, key)
	if err != nil {
		return nil, err
	}
	p := &CrossPage{ID: t.ID, Title: tourTitle(t), URL: tourPagePath(t), Table: t.Table, Tiebreaks: t.Tiebreaks}
	for r := range t.Rounds {
		p.Rounds = append(p.Rounds, r+1)
	}
	for _, row := range tournament.Crosstable(t) {
		l := CrossLine{Line: row.Line, Place: row.Place, Name: row.Name, URL: playerPagePath(t, row.Entrant),
			Points: fmtNum(row.Points), Withdrawn: t.Entrants[row.Entrant].Withdrawn > 0, Replaced: replaced(t, row.Entrant)}
		for _, x := range row.Tiebreaks {
			l.Tiebreaks = append(l.Tiebreaks, fmtNum(x))
		}
		for _, c := range row.Rounds {
			cell := CrossPageCell{Opponents: c.Opponents, Seat: c.Seat, Result: c.Result, Adjudicated: c.Adjudicated,
				Players: c.Players}
			if len(c.Players) > 0 && len(l.Cells) < len(t.Rounds) {
				cell.PlayedURLs = playedPaths(t, row.Entrant, t.Rounds[len(l.Cells)].N)
			}
			l.Cells = append(l.Cells, cell)
		}
		p.Lines = append(p.Lines, l)
	}
	return p, nil
}

// PlayerPageOf returns the page of entrant n (the sign-up number, from 1)
// of tournament id when key is its page key and it is published
// (ErrNoPage otherwise).
func PlayerPageOf(h Host, id, key string, n int) (*PlayerPage, error) {
	d := newDesk(h)
	t, err := d.publicTour(id, key)
	if err != nil || n < 1 || n > len(t.Entrants) {
		return nil, ErrNoPage
	}
	e := n - 1
	p := &PlayerPage{ID: t.ID, Title: tourTitle(t), TourURL: tourPagePath(t), CrossURL: tourPagePath(t) + "/crosstable",
		N: n, Name: t.Entrants[e].Name, Table: t.Table, Withdrawn: t.Entrants[e].Withdrawn > 0,
		Replaced: replaced(t, e)}
	// The place needs the whole standings; only this row is formatted and
	// only this entrant's rating read (issue 24).
	for _, s := range t.Standings() {
		if s.Entrant == e {
			row := d.standingRow(t, s)
			p.Place, p.Points, p.Record, p.Rating, p.RatingAdjudicated = row.Place, row.Points, row.Record, row.Rating, row.Adjudicated
		}
	}
	for _, rd := range t.Rounds {
		for _, m := range rd.Matches {
			for seat, x := range m.Seats {
				if x == e {
					p.Games = append(p.Games, d.placeGame(t, rd.N, m, seat))
				}
			}
		}
	}
	p.History, p.Recomputed = ratingHistory(t, e)
	return p, nil
}

// placeGame is round n of the place at seat of match m, as the place's
// page shows it: its result as the place's crosstable cell has it
// (tournament.Cell: that cell alone, issue 24). Each opponent is named as
// the holders who played that game, and links the page of the one who
// finished it (personPagePath).
func (d *desk) placeGame(t *tournament.Tournament, n int, m tournament.Match, seat int) PlayerGame {
	g := PlayerGame{Round: n, Table: m.Table, Bye: m.State == tournament.MatchBye, Seat: seat + 1, State: m.State,
		Decided: m.Decided()}
	c := t.Cell(n, m, seat)
	g.Result, g.Played = c.Result, c.Players
	if len(c.Players) > 0 {
		g.PlayedURLs = playedPaths(t, m.Seats[seat], n)
	}
	if c.Result != "*" && c.Result != "" {
		g.Points = fmtNum(c.Points)
	}
	for i, x := range m.Seats {
		if i != seat {
			g.Opponents = append(g.Opponents, playedName(t, x, n))
		}
	}
	if m.GameID != "" {
		g.GameURL = gamePagePath(t, m.GameID)
	}
	if m.Decided() && len(m.Rank) == len(m.Seats) && !g.Bye {
		g.Place, g.Of = m.Rank[seat], len(m.Seats)
		if seat < len(m.Scores) && m.State != tournament.MatchForfeit {
			g.Score = strconv.Itoa(m.Scores[seat])
		}
	}
	return g
}

// playedName is who played round n's game for entrant x's place, each
// with their own page: those who began it (Part, PartURLs), then the one
// who finished it (Name, URL).
func playedName(t *tournament.Tournament, x, n int) PageName {
	names, urls := t.Entrants[x].Played(n), playedPaths(t, x, n)
	last := len(names) - 1
	p := PageName{Name: names[last], URL: urls[last]}
	if last > 0 {
		p.Part, p.PartURLs = names[:last], urls[:last]
	}
	return p
}
