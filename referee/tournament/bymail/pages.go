package bymail

// The data of a tournament's public page (package pages draws it): its
// standings, rounds and calendar. Nothing here reads a seat's view.

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/tournament/bymail/tourrec"
	"github.com/pbem-referee/referee/templates"
)

// ErrNoPage: no public page at that address (unknown, wrong key, or not
// published). Pages answer it as 404 without saying which.
var ErrNoPage = errors.New("referee: no such page")

// TournamentPage is a tournament's public page.
type TournamentPage struct {
	ID, Title, Game, Format, Status string
	Table                           int
	Round, Rounds                   int
	// Points are the tournament points by place; Tiebreaks the tie-break
	// codes (buchholz, sb, score, h2h), named on the page in its language.
	Points     string
	Tiebreaks  []string
	Commitment string
	// Seed is revealed once the tournament is over.
	Seed      string
	Standings []PageStanding
	Pairings  []PageRound
	URL       string
	// Calendar is the rounds' dates (in the tournament's zone), when the
	// organiser set a calendar or rounds have deadlines.
	Calendar []PageDate
	// Exports are the tournament's files (exports.go).
	Exports []PageExport
	// CrossURL is the crosstable page's address.
	CrossURL string
	// AdjudicatedRatings: a rating in the standings is marked (the page
	// explains the mark).
	AdjudicatedRatings bool
}

// PageDate is one round of the calendar.
type PageDate struct {
	N           int
	Opens, Due  string
	Open, Ended bool
}

// PageStanding is one line of the standings.
type PageStanding struct {
	Place     int
	Name      string
	Points    string
	Record    string
	Tiebreaks []string
	Rating    string
	// RatingAdjudicated: adjudicated games count in the rating (marked).
	RatingAdjudicated bool
	Withdrawn         bool
	// URL is the player's page (playerPagePath).
	URL string
	// Replaced are the earlier holders of a place that changed hands
	// (REPLACE) who played some of its rounds, first to last (issue 24:
	// the page marks the place, as the mails do); Name holds it now.
	Replaced []PageStint
}

// PageStint is an earlier holder of a place and the rounds they played:
// First through Through whole (none when First > Through), and Into, a
// round whose game they started and handed on after a move (0: none).
type PageStint struct {
	Name                 string
	First, Through, Into int
	// URL is their own page (personPagePath).
	URL string
}

// replaced are the earlier holders of entrant e's place who played at
// least one of its rounds, whole or in part (a player replaced before
// their first move played none, and is not named).
func replaced(t *tournament.Tournament, e int) []PageStint {
	var out []PageStint
	held, _ := t.Entrants[e].Holders()
	for _, h := range held {
		out = append(out, PageStint{Name: h.Name, First: h.First, Through: h.Through, Into: h.Into, URL: personPagePath(t, e, h.K)})
	}
	return out
}

// PageRound is one round's tables.
type PageRound struct {
	N       int
	Due     string
	Matches []PageMatch
}

// PageMatch is one table (or a bye).
type PageMatch struct {
	Table   int
	Players []string
	// Part are, by seat, who played the game in part before Players[i]
	// took the place over (REPLACE after a move; nil for most): the
	// table names them, then the substitute.
	Part [][]string
	// PlayerURLs are, in seat order, the pages of who finished each
	// seat's game (Players[i]'s own page, personPagePath: the place's
	// page for a place never handed on), PartURLs by seat the pages of
	// those in Part (issue 24: a round's table links who played it).
	PlayerURLs []string
	PartURLs   [][]string
	Bye        bool
	State      string
	Result     string
	GameURL    string
}

// TournamentLink is an entry of the index of listed tournaments.
type TournamentLink struct {
	ID, Title, Status, URL string
	Entrants               int
}

// gamePageKey is the unguessable part of a tournament game's page address.
func gamePageKey(t *tournament.Tournament, gameID string) string {
	sum := sha256.Sum256([]byte("page/" + t.Key + "/" + gameID))
	return hex.EncodeToString(sum[:8])
}

// tourPagePath is the address of a tournament's page.
func tourPagePath(t *tournament.Tournament) string { return "/t/" + t.ID + "-" + t.Key }

// gamePagePath is the address of a tournament game's page.
func gamePagePath(t *tournament.Tournament, gid string) string {
	return "/g/" + gid + "-" + gamePageKey(t, gid)
}

// Page returns the public page of tournament id when key is its page key
// and it is published (ErrNoPage otherwise), its dates written for a
// reader of lang.
func Page(h Host, id, key, lang string) (*TournamentPage, error) {
	d := newDesk(h)
	t, err := tourrec.ForPage(d.rec, id)
	if err != nil || !t.Public || subtle.ConstantTimeCompare([]byte(key), []byte(t.Key)) != 1 {
		return nil, ErrNoPage
	}
	return d.tourPage(t, lang), nil
}

// GamePage checks the key of a tournament game's page: ok when the
// tournament is published and key is the game's; the tournament's page
// address comes back.
func GamePage(rec Records, tid, gid, key string) (tourURL string, ok bool) {
	raw, err := rec.Tournament(tid)
	if err != nil {
		return "", false
	}
	// Its id, key and whether it is published, no entrant nor round
	// decoded (issue 24: a game's page decoded the whole tournament).
	var t tournament.Tournament
	var head struct {
		ID     string `json:"id"`
		Key    string `json:"key"`
		Public bool   `json:"public"`
	}
	if json.Unmarshal(raw, &head) != nil {
		return "", false
	}
	t.ID, t.Key, t.Public = head.ID, head.Key, head.Public
	if !t.Public || subtle.ConstantTimeCompare([]byte(key), []byte(gamePageKey(&t, gid))) != 1 {
		return "", false
	}
	return tourPagePath(&t), true
}

func (d *desk) tourPage(t *tournament.Tournament, lang string) *TournamentPage {
	if !templates.IsLanguage(lang) {
		lang = "en"
	}
	title := t.Game
	if eg, err := engine.Lookup(t.Game); err == nil {
		title = eg.Info().Title
	}
	pts := t.Points
	if t.Draw != nil && len(pts) == 2 {
		pts = []float64{pts[0], *t.Draw, pts[1]}
	}
	p := &TournamentPage{ID: t.ID, Title: title, Game: t.Game, Format: t.Format, Status: t.Status, Table: t.Table,
		Round: len(t.Rounds), Rounds: t.PlannedRounds(), Points: fmtPoints(pts), Tiebreaks: t.Tiebreaks,
		Commitment: t.Commitment, URL: tourPagePath(t), Exports: pageExports(t), CrossURL: tourPagePath(t) + "/crosstable"}
	if t.Status == tournament.StatusOver {
		p.Seed = t.Seed
	}
	loc := templates.Zone(t.TZ)
	for _, row := range d.calendar(t, lang, loc) {
		n := row["n"].(int)
		p.Calendar = append(p.Calendar, PageDate{N: n, Opens: row["opens"].(string), Due: row["due"].(string),
			Open: n <= len(t.Rounds), Ended: n <= len(t.Rounds) && t.Rounds[n-1].Complete()})
	}
	for _, row := range d.tourStandingRows(t) {
		// The page has room for the whole name (the mails' rows cut it).
		p.Standings = append(p.Standings, PageStanding{Place: row.Place, Name: t.Entrants[row.entrant].Name, Points: row.Points, Record: row.Record,
			Tiebreaks: strings.Fields(row.Tiebreaks), Rating: row.Rating, RatingAdjudicated: row.Adjudicated, Withdrawn: row.Withdrawn,
			URL: playerPagePath(t, row.entrant), Replaced: replaced(t, row.entrant)})
		p.AdjudicatedRatings = p.AdjudicatedRatings || row.Adjudicated
	}
	for i := len(t.Rounds) - 1; i >= 0; i-- {
		rd := t.Rounds[i]
		pr := PageRound{N: rd.N}
		if !rd.Due.IsZero() {
			pr.Due = templates.FormatTime(lang, rd.Due.In(templates.Zone(t.TZ)))
		}
		for _, m := range rd.Matches {
			pm := PageMatch{Table: m.Table, Bye: m.State == tournament.MatchBye, State: m.State}
			for _, e := range m.Seats {
				w := playedName(t, e, rd.N)
				pm.Players, pm.PlayerURLs = append(pm.Players, w.Name), append(pm.PlayerURLs, w.URL)
				pm.Part, pm.PartURLs = append(pm.Part, w.Part), append(pm.PartURLs, w.PartURLs)
			}
			if m.GameID != "" {
				pm.GameURL = gamePagePath(t, m.GameID)
			}
			if m.Decided() && len(m.Rank) == len(m.Seats) && !pm.Bye {
				var parts []string
				for k := range m.Seats {
					s := fmt.Sprintf("%d.", m.Rank[k])
					if k < len(m.Scores) && m.State != tournament.MatchForfeit {
						s += fmt.Sprintf(" %d", m.Scores[k])
					}
					parts = append(parts, s)
				}
				pm.Result = strings.Join(parts, " / ")
			}
			pr.Matches = append(pr.Matches, pm)
		}
		p.Pairings = append(p.Pairings, pr)
	}
	return p
}

// Listed are the tournaments their organisers listed, by id.
func Listed(rec Records) ([]TournamentLink, error) {
	var out []TournamentLink
	err := rec.Tournaments(func(id string, _ []byte) error {
		t, err := tourrec.ForPage(rec, id)
		if err != nil || !t.Listed || !t.Public {
			return err
		}
		title := t.Game
		if eg, err := engine.Lookup(t.Game); err == nil {
			title = eg.Info().Title
		}
		out = append(out, TournamentLink{ID: t.ID, Title: title, Status: t.Status, URL: tourPagePath(t), Entrants: len(t.Entrants)})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, err
}
