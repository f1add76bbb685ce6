package referee

// The data of the public pages (package pages draws them): a tournament's
// standings and rounds, and each of its games' public view. Nothing here
// reads a seat's view: only what every spectator may see (seat -1).

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/store"
	"github.com/pbem-referee/referee/templates"
)

// ErrNoPage: no public page at that address (unknown, wrong key, or not
// published). Pages answer it as 404 without saying which.
var ErrNoPage = fmt.Errorf("referee: no such page")

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
	Withdrawn bool
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
	Bye     bool
	State   string
	Result  string
	GameURL string
}

// GamePage is the public page of a tournament game.
type GamePage struct {
	ID, Title, Status string
	Players           []string
	// Summary is the public view (seat -1) rendered as text.
	Summary string
	Waiting []string
	Log     []string
	Result  []string
	// Game is the game's registered name; View its public view (seat -1),
	// from which package pages draws the board (nil when not started).
	Game string
	View any
	// SVG is the board drawn from View (package pages fills it).
	SVG           []byte
	Tournament    string
	TournamentURL string
}

// TournamentLink is an entry of the index of listed tournaments.
type TournamentLink struct {
	ID, Title, Status, URL string
	Entrants               int
}

func splitSlug(slug string) (id, key string, ok bool) {
	i := strings.LastIndexByte(slug, '-')
	if i <= 0 {
		return "", "", false
	}
	return slug[:i], slug[i+1:], true
}

// gamePageKey is the unguessable part of a tournament game's page address.
func gamePageKey(t *tournament.Tournament, gameID string) string {
	sum := sha256.Sum256([]byte("page/" + t.Key + "/" + gameID))
	return hex.EncodeToString(sum[:8])
}

func (r *Referee) tourPagePath(t *tournament.Tournament) string { return "/t/" + t.ID + "-" + t.Key }

func (r *Referee) gamePagePath(t *tournament.Tournament, gid string) string {
	return "/g/" + gid + "-" + gamePageKey(t, gid)
}

// TournamentPage returns the public page of a tournament by its address
// ("<id>-<key>"), its dates written for a reader of lang.
func (r *Referee) TournamentPage(slug, lang string) (*TournamentPage, error) {
	id, key, ok := splitSlug(slug)
	if !ok {
		return nil, ErrNoPage
	}
	var page *TournamentPage
	err := r.db.View(func(tx *store.Tx) error {
		t, err := loadTour(tx, id)
		if err != nil || !t.Public || subtle.ConstantTimeCompare([]byte(key), []byte(t.Key)) != 1 {
			return ErrNoPage
		}
		w := r.newWork(tx, r.clock.Now())
		page = w.tourPage(t, lang)
		return nil
	})
	return page, err
}

func (w *work) tourPage(t *tournament.Tournament, lang string) *TournamentPage {
	if !templates.IsLanguage(lang) {
		lang = "en"
	}
	title := t.Game
	if eg, err := lookupGame(t.Game); err == nil {
		title = eg.Info().Title
	}
	pts := t.Points
	if t.Draw != nil && len(pts) == 2 {
		pts = []float64{pts[0], *t.Draw, pts[1]}
	}
	p := &TournamentPage{ID: t.ID, Title: title, Game: t.Game, Format: t.Format, Status: t.Status, Table: t.Table,
		Round: len(t.Rounds), Rounds: t.PlannedRounds(), Points: fmtPoints(pts), Tiebreaks: t.Tiebreaks,
		Commitment: t.Commitment, URL: w.r.tourPagePath(t)}
	if t.Status == tournament.StatusOver {
		p.Seed = t.Seed
	}
	loc := location(t.TZ)
	for _, row := range w.calendar(t, lang, loc) {
		n := row["n"].(int)
		p.Calendar = append(p.Calendar, PageDate{N: n, Opens: row["opens"].(string), Due: row["due"].(string),
			Open: n <= len(t.Rounds), Ended: n <= len(t.Rounds) && t.Rounds[n-1].Complete()})
	}
	for _, row := range w.tourStandingRows(t) {
		p.Standings = append(p.Standings, PageStanding{Place: row.Place, Name: row.Name, Points: row.Points, Record: row.Record,
			Tiebreaks: strings.Fields(row.Tiebreaks), Rating: row.Rating, Withdrawn: row.Withdrawn})
	}
	for i := len(t.Rounds) - 1; i >= 0; i-- {
		rd := t.Rounds[i]
		pr := PageRound{N: rd.N}
		if !rd.Due.IsZero() {
			pr.Due = templates.FormatTime(lang, rd.Due.In(location(t.TZ)))
		}
		for _, m := range rd.Matches {
			pm := PageMatch{Table: m.Table, Bye: m.State == tournament.MatchBye, State: m.State}
			for _, e := range m.Seats {
				pm.Players = append(pm.Players, t.Entrants[e].Name)
			}
			if m.GameID != "" {
				pm.GameURL = w.r.gamePagePath(t, m.GameID)
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

// TournamentRecord returns a tournament's whole record (seed included:
// for the organiser's tools and the demo, never for a page).
func (r *Referee) TournamentRecord(id string) (*tournament.Tournament, error) {
	var t *tournament.Tournament
	err := r.db.View(func(tx *store.Tx) error {
		var err error
		t, err = loadTour(tx, id)
		return err
	})
	return t, err
}

// ListedTournaments are the tournaments their organisers listed.
func (r *Referee) ListedTournaments() ([]TournamentLink, error) {
	var out []TournamentLink
	err := r.db.View(func(tx *store.Tx) error {
		return tx.Tournaments(func(id string, _ []byte) error {
			t, err := loadTour(tx, id)
			if err != nil || !t.Listed || !t.Public {
				return err
			}
			title := t.Game
			if eg, err := lookupGame(t.Game); err == nil {
				title = eg.Info().Title
			}
			out = append(out, TournamentLink{ID: t.ID, Title: title, Status: t.Status, URL: r.tourPagePath(t), Entrants: len(t.Entrants)})
			return nil
		})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, err
}

// GamePage returns the public page of a game by its address
// ("<game>-<key>"): the spectators' view only, its summary and log in lang.
func (r *Referee) GamePage(slug, lang string) (*GamePage, error) {
	gid, key, ok := splitSlug(slug)
	if !ok {
		return nil, ErrNoPage
	}
	var page *GamePage
	err := r.db.View(func(tx *store.Tx) error {
		tid := tx.GameTournament(gid)
		if tid == "" {
			return r.singleGamePage(tx, gid, key, lang, &page)
		}
		t, err := loadTour(tx, tid)
		if err != nil || !t.Public || subtle.ConstantTimeCompare([]byte(key), []byte(gamePageKey(t, gid))) != 1 {
			return ErrNoPage
		}
		w := r.newWork(tx, r.clock.Now())
		gw, err := w.game(gid)
		if err != nil {
			return err
		}
		page, err = gw.publicPage(lang)
		if err != nil {
			return err
		}
		page.Tournament, page.TournamentURL = t.ID, r.tourPagePath(t)
		return nil
	})
	return page, err
}

// singleGamePage is the page of a game outside tournaments, when its
// organiser published it (PUBLISH <game>).
func (r *Referee) singleGamePage(tx *store.Tx, gid, key, lang string, page **GamePage) error {
	if !tx.HasGame(gid) {
		return ErrNoPage
	}
	w := r.newWork(tx, r.clock.Now())
	gw, err := w.game(gid)
	if err != nil {
		return err
	}
	if gw.g.PageKey == "" || subtle.ConstantTimeCompare([]byte(key), []byte(gw.g.PageKey)) != 1 {
		return ErrNoPage
	}
	*page, err = gw.publicPage(lang)
	return err
}

// publish runs PUBLISH <game> [listed|off] for a game outside tournaments:
// its public page (the spectators' view) at an unguessable address;
// "listed" also puts it on the pages' index; "off" removes the page (its
// address dies) and the listing.
func (gw *gameWork) publish(args []string) (string, error) {
	g := gw.g
	listed := false
	switch {
	case len(args) == 1 && strings.EqualFold(args[0], "off"):
		g.PageKey = ""
		if err := gw.w.tx.SetGameListed(g.ID, false); err != nil {
			return "", err
		}
		return "the page of " + g.ID + " is off", nil
	case len(args) == 1 && strings.EqualFold(args[0], "listed"):
		listed = true
	case len(args) > 0:
		return "", fmt.Errorf("usage: PUBLISH <game> [listed|off]")
	}
	if gw.w.tx.GameTournament(g.ID) != "" {
		return "", fmt.Errorf("%s is a tournament game: PUBLISH its tournament", g.ID)
	}
	if g.PageKey == "" {
		k, err := gw.w.randomHex()
		if err != nil {
			return "", err
		}
		g.PageKey = k[:16]
	}
	if err := gw.w.tx.SetGameListed(g.ID, listed); err != nil {
		return "", err
	}
	how := "unlisted: share the address as you like"
	if listed {
		how = "listed on the index of the pages"
	}
	return "the page of " + g.ID + " (the spectators' view; " + how + "):\n  " + gw.gamePageURL(), nil
}

// GameLink is an entry of the index of listed games.
type GameLink struct {
	ID, Title, Status, URL string
	Players                []string
}

// ListedGames are the games outside tournaments their organisers listed
// (PUBLISH <game> listed).
func (r *Referee) ListedGames() ([]GameLink, error) {
	var out []GameLink
	err := r.db.View(func(tx *store.Tx) error {
		w := r.newWork(tx, r.clock.Now())
		return tx.ListedGames(func(id string) error {
			gw, err := w.game(id)
			if err != nil || gw.g.PageKey == "" {
				return nil // gone, or no page any more: not shown
			}
			out = append(out, GameLink{ID: id, Title: gw.eg.Info().Title, Status: gw.g.Status,
				URL: "/g/" + id + "-" + gw.g.PageKey, Players: gw.g.names()})
			return nil
		})
	})
	return out, err
}

// gamePageURL is the address of a published game's page ("" when none).
func (gw *gameWork) gamePageURL() string {
	if gw.g.PageKey == "" {
		return ""
	}
	return gw.w.r.PageBase() + "/g/" + gw.g.ID + "-" + gw.g.PageKey
}

// publicPage is what a spectator (seat -1) may see of a game, in lang.
func (gw *gameWork) publicPage(lang string) (*GamePage, error) {
	if !templates.IsLanguage(lang) {
		lang = "en"
	}
	g := gw.g
	p := &GamePage{ID: g.ID, Title: gw.eg.Info().Title, Status: g.Status, Players: g.names(), Game: g.Game}
	rd := Reader{Game: g.Game, Lang: lang, Seat: -1, Seats: g.names()}
	if gw.tb != nil {
		view := gw.tb.State.View(-1)
		sum, err := gw.w.r.render.Summary(rd, view)
		if err != nil {
			return nil, err
		}
		p.Summary = sum
		if g.Status == StatusRunning {
			p.Waiting = gw.waitingNames()
		}
		p.View = view
		if res := gw.tb.State.Result(); res != nil {
			for _, s := range res.Scores {
				p.Result = append(p.Result, fmt.Sprintf("%d. %s %d", res.Rank[s.Seat], g.Seats[s.Seat].Name, s.Total))
			}
			sort.Strings(p.Result)
		}
	}
	all, err := entries(gw.w.tx, g.ID, 1)
	if err != nil {
		return nil, err
	}
	for _, e := range all {
		if e.Kind == EntryInput {
			continue
		}
		if e.Kind != EntryStep && !e.Vis.Public {
			continue
		}
		ls, err := gw.entryLines(rd, e)
		if err != nil {
			return nil, err
		}
		for _, l := range ls {
			p.Log = append(p.Log, e.At.UTC().Format("01-02 15:04")+"  "+l)
		}
	}
	return p, nil
}

var _ = engine.Public
