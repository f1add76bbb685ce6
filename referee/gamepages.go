package referee

// The data of the public pages (package pages draws them): each game's
// public view, and a tournament's standings and rounds (the desk's, package
// referee/tournament/bymail). Nothing here reads a seat's view: only what
// every spectator may see (seat -1).

import (
	"crypto/subtle"
	"sort"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
	"github.com/pbem-referee/referee/store"
	"github.com/pbem-referee/referee/templates"
)

// GamePage is the public page of a tournament game.
type GamePage struct {
	ID, Title, Status string
	Players           []string
	// Summary is the public view (seat -1) rendered as text.
	Summary string
	Waiting []string
	Log     []string
	// Result is the finished game's places, best first (one line a seat);
	// Adjudicated: the organiser adjudicated it (scored as it stood).
	Result      []PageResult
	Adjudicated bool
	// Game is the game's registered name; View its public view (seat -1),
	// from which package pages draws the board (nil when not started).
	Game string
	View any
	// SVG is the board drawn from View (package pages fills it).
	SVG           []byte
	Tournament    string
	TournamentURL string
}

// PageResult is one seat's place in a finished game (the page writes the
// place once: "1. Ann 45", never "1. 1. Ann").
type PageResult struct {
	Place, Seat int
	Name        string
	Score       int
}

func splitSlug(slug string) (id, key string, ok bool) {
	i := strings.LastIndexByte(slug, '-')
	if i <= 0 {
		return "", "", false
	}
	return slug[:i], slug[i+1:], true
}

// ErrNoPage: no public page at that address (unknown, wrong key, or not
// published). Pages answer it as 404 without saying which.
var ErrNoPage = bymail.ErrNoPage

// The tournament pages' data are the desk's (package
// referee/tournament/bymail).
type (
	TournamentPage = bymail.TournamentPage
	PageDate       = bymail.PageDate
	PageStanding   = bymail.PageStanding
	PageRound      = bymail.PageRound
	PageMatch      = bymail.PageMatch
	TournamentLink = bymail.TournamentLink
	PageExport     = bymail.PageExport
	TournamentFile = bymail.File
	CrossPage      = bymail.CrossPage
	PlayerPage     = bymail.PlayerPage
)

// PagesVersion grows with every write the store commits: a page rendered
// at one version is the same page until it changes (package pages keeps
// the rendered bytes by it).
func (r pageQueries) PagesVersion() uint64 { return uint64(r.db.WriteStats().Commits) }

// tournamentPage reads what load makes of a tournament by its page's
// address ("<id>-<key>") in one read transaction: the shape of every
// tournament page and file below.
func tournamentPage[P any](r pageQueries, slug string, load func(d deskHost, id, key string) (P, error)) (P, error) {
	var page P
	id, key, ok := splitSlug(slug)
	if !ok {
		return page, ErrNoPage
	}
	err := r.db.View(func(tx *store.Tx) error {
		var err error
		page, err = load(r.newWork(tx, r.clock.Now()).desk(), id, key)
		return err
	})
	return page, err
}

// CrossPage returns the crosstable page of a tournament by its address
// ("<id>-<key>").
func (r pageQueries) CrossPage(slug string) (*CrossPage, error) {
	return tournamentPage(r, slug, func(d deskHost, id, key string) (*CrossPage, error) {
		return bymail.CrossPageOf(d, id, key)
	})
}

// PlayerPage returns the page of entrant n (sign-up number, from 1) of a
// tournament by its address ("<id>-<key>").
func (r pageQueries) PlayerPage(slug string, n int) (*PlayerPage, error) {
	return tournamentPage(r, slug, func(d deskHost, id, key string) (*PlayerPage, error) {
		return bymail.PlayerPageOf(d, id, key, n)
	})
}

// TournamentPage returns the public page of a tournament by its address
// ("<id>-<key>"), its dates written for a reader of lang.
func (r pageQueries) TournamentPage(slug, lang string) (*TournamentPage, error) {
	return tournamentPage(r, slug, func(d deskHost, id, key string) (*TournamentPage, error) {
		return bymail.Page(d, id, key, lang)
	})
}

// TournamentFile returns one of the files of a tournament's page by the
// page's address ("<id>-<key>") and the file's name (standings.csv,
// results.csv, crosstable.csv, pairings.csv, tournament.trf, rounds.ics);
// the calendar's words in lang.
func (r pageQueries) TournamentFile(slug, name, lang string) (*TournamentFile, error) {
	return tournamentPage(r, slug, func(d deskHost, id, key string) (*TournamentFile, error) {
		return bymail.Export(d, id, key, name, lang)
	})
}

// TournamentRecord returns a tournament's whole record (seed included:
// for the organiser's tools and the demo, never for a page).
func (r pageQueries) TournamentRecord(id string) (*tournament.Tournament, error) {
	var t *tournament.Tournament
	err := r.db.View(func(tx *store.Tx) error {
		var err error
		t, err = bymail.Record(tx, id)
		return err
	})
	return t, err
}

// ListedTournaments are the tournaments their organisers listed.
func (r pageQueries) ListedTournaments() ([]TournamentLink, error) {
	var out []TournamentLink
	err := r.db.View(func(tx *store.Tx) error {
		var err error
		out, err = bymail.Listed(tx)
		return err
	})
	return out, err
}

// GamePage returns the public page of a game by its address
// ("<game>-<key>"): the spectators' view only, its summary and log in lang.
func (r pageQueries) GamePage(slug, lang string) (*GamePage, error) {
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
		tourURL, ok := bymail.GamePage(tx, tid, gid, key)
		if !ok {
			return ErrNoPage
		}
		w := r.newWork(tx, r.clock.Now())
		gw, err := w.game(gid)
		if err != nil {
			return err
		}
		page, err = teller{gw}.publicPage(lang)
		if err != nil {
			return err
		}
		page.Tournament, page.TournamentURL = tid, tourURL
		return nil
	})
	return page, err
}

// singleGamePage is the page of a game outside tournaments, when its
// organiser published it (PUBLISH <game>).
func (r pageQueries) singleGamePage(tx *store.Tx, gid, key, lang string, page **GamePage) error {
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
	*page, err = teller{gw}.publicPage(lang)
	return err
}

// publish runs PUBLISH <game> [listed|off] for a game outside tournaments:
// its public page (the spectators' view) at an unguessable address;
// "listed" also puts it on the pages' index; "off" removes the page (its
// address dies) and the listing. Its answers and refusals are in the
// organiser's language (org.done.PUBLISH, org.error.<code>: issue 22).
func (gw *gameWork) publish(args []string) (string, error) {
	g := gw.g
	listed := false
	switch {
	case len(args) == 1 && strings.EqualFold(args[0], "off"):
		g.PageKey = ""
		if err := gw.w.tx.SetGameListed(g.ID, false); err != nil {
			return "", err
		}
		return gw.w.orgText("org.done.PUBLISH.off", "game", g.ID), nil
	case len(args) == 1 && strings.EqualFold(args[0], "listed"):
		listed = true
	case len(args) > 0:
		return "", orgFail("usage", "syntax", "PUBLISH <game> [listed|off]")
	}
	if gw.w.tx.GameTournament(g.ID) != "" {
		return "", orgFail("tournament_game", "game", g.ID, "tournament", gw.w.tx.GameTournament(g.ID))
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
	return gw.w.orgText("org.done.PUBLISH", "game", g.ID, "listed", listed, "url", teller{gw}.gamePageURL()), nil
}

// GameLink is an entry of the index of listed games.
type GameLink struct {
	ID, Title, Status, URL string
	Players                []string
}

// ListedGames are the games outside tournaments their organisers listed
// (PUBLISH <game> listed).
func (r pageQueries) ListedGames() ([]GameLink, error) {
	var out []GameLink
	err := r.db.View(func(tx *store.Tx) error {
		w := r.newWork(tx, r.clock.Now())
		return tx.ListedGames(func(id string) error {
			gw, err := w.game(id)
			if err != nil || gw.g.PageKey == "" {
				return nil // gone, or no page any more: not shown
			}
			out = append(out, GameLink{ID: id, Title: gw.eg.Info().Title, Status: gw.g.Status,
				URL: "/g/" + id + "-" + gw.g.PageKey, Players: gw.g.Names()})
			return nil
		})
	})
	return out, err
}

// gamePageURL is the address of a published game's page ("" when none).
func (gw teller) gamePageURL() string {
	if gw.g.PageKey == "" {
		return ""
	}
	return gw.w.r.PageBase() + "/g/" + gw.g.ID + "-" + gw.g.PageKey
}

// publicPage is what a spectator (seat -1) may see of a game, in lang.
func (gw teller) publicPage(lang string) (*GamePage, error) {
	if !templates.IsLanguage(lang) {
		lang = "en"
	}
	g := gw.g
	p := &GamePage{ID: g.ID, Title: gw.eg.Info().Title, Status: g.Status, Players: g.Names(), Game: g.Game}
	rd := Reader{Game: g.Game, Lang: lang, Seat: -1, Seats: g.Names()}
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
	}
	all, err := entries(gw.w.tx, g.ID, 1)
	if err != nil {
		return nil, err
	}
	if gw.tb != nil {
		res := gw.tb.State.Result()
		// A game the organiser adjudicated (closed, scored as it stands:
		// Adjudicate in desk.go) shows that result, marked.
		if adj, ok := gw.tb.State.(interface{ Adjudicate() *engine.Result }); ok && res == nil && g.Status == StatusAborted && adjudicated(all) {
			res, p.Adjudicated = adj.Adjudicate(), true
		}
		if res != nil {
			for _, s := range res.Scores {
				if s.Seat >= 0 && s.Seat < len(g.Seats) && s.Seat < len(res.Rank) {
					p.Result = append(p.Result, PageResult{Place: res.Rank[s.Seat], Seat: s.Seat, Name: g.Seats[s.Seat].Name, Score: s.Total})
				}
			}
			sort.Slice(p.Result, func(i, j int) bool {
				a, b := p.Result[i], p.Result[j]
				return a.Place < b.Place || a.Place == b.Place && a.Seat < b.Seat
			})
		}
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

// adjudicated reports whether a game's log records its closing by
// adjudication (closeDecided's entry).
func adjudicated(all []Entry) bool {
	for _, e := range all {
		if e.Kind == EntryOrg && e.Params["command"] == "ADJUDICATED" {
			return true
		}
	}
	return false
}
