package query

// The data of the public pages (package pages draws them): each game's
// public view, and a tournament's standings and rounds (the desk's, package
// referee/tournament/bymail). Nothing here reads a seat's view: only what
// every spectator may see (seat -1), which the core gives (Snapshot).

import (
	"crypto/subtle"
	"slices"
	"sort"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
)

// GamePage is the public page of a game.
type GamePage struct {
	ID, Title, Status string
	// Players are the seats' names in the game (the board's labels);
	// Holders, by seat, who held each seat that changed hands (REPLACE),
	// in the page's language ("" for one that never did: issue 24).
	Players []string
	Holders []string
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

// Named are the players as the page names them: each seat by its name,
// or by who held it when it changed hands.
func (p *GamePage) Named() []string {
	out := slices.Clone(p.Players)
	for i, h := range p.Holders {
		if h != "" && i < len(out) {
			out[i] = h
		}
	}
	return out
}

// PageResult is one seat's place in a finished game (the page writes the
// place once: "1. Ann 45", never "1. 1. Ann").
type PageResult struct {
	Place, Seat int
	Name        string
	Score       int
	// Holders names who held the seat when it changed hands ("": never).
	Holders string
}

// Places are a finished game's places, best first (ties by seat), each
// with the seat's name (names, by seat) and who held it (holders, by
// seat: GamePage.Holders).
func Places(res *engine.Result, names, holders []string) []PageResult {
	var out []PageResult
	for _, s := range res.Scores {
		if s.Seat >= 0 && s.Seat < len(names) && s.Seat < len(res.Rank) {
			r := PageResult{Place: res.Rank[s.Seat], Seat: s.Seat, Name: names[s.Seat], Score: s.Total}
			if s.Seat < len(holders) {
				r.Holders = holders[s.Seat]
			}
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.Place < b.Place || a.Place == b.Place && a.Seat < b.Seat
	})
	return out
}

// GameLink is an entry of the index of listed games.
type GameLink struct {
	ID, Title, Status, URL string
	Players                []string
}

// GameHead is what the pages read of a game besides its public view.
type GameHead struct {
	Title, Status string
	Players       []string
	// PageKey is the key of its page's address ("" when unpublished).
	PageKey string
}

// ErrNoPage: no public page at that address (unknown, wrong key, or not
// published). Pages answer it as 404 without saying which.
var ErrNoPage = bymail.ErrNoPage

// Core is the core as the pages' data see it.
type Core interface {
	// Version grows with every write the store commits: a page rendered
	// at one version is the same page until it changes.
	Version() uint64
	// View runs fn on a snapshot of the core: one read transaction.
	View(fn func(Snapshot) error) error
}

// Snapshot is the core's records in one read transaction, as a spectator
// may see them.
type Snapshot interface {
	// Desk is the tournament desk's host on the snapshot.
	Desk() bymail.Host
	// Records are the store's tournament records.
	Records() bymail.Records
	// Tournament is the tournament a game is played for ("" when none).
	Tournament(game string) string
	// Game is a game's head; false when there is no such game.
	Game(id string) (GameHead, bool, error)
	// PublicPage is what a spectator may see of a game, in lang.
	PublicPage(id, lang string) (*GamePage, error)
	// ListedGames calls fn with each game outside tournaments its
	// organiser listed (PUBLISH <game> listed).
	ListedGames(fn func(id string) error) error
}

// Pages answers the public pages (package pages) from snapshots of the
// core: each answer is one read transaction.
type Pages struct{ Core Core }

// PagesVersion grows with every write the store commits (package pages
// keeps the rendered bytes by it).
func (p Pages) PagesVersion() uint64 { return p.Core.Version() }

// splitSlug splits a page's address "<id>-<key>".
func splitSlug(slug string) (id, key string, ok bool) {
	i := strings.LastIndexByte(slug, '-')
	if i <= 0 {
		return "", "", false
	}
	return slug[:i], slug[i+1:], true
}

// tournamentPage reads what load makes of a tournament by its page's
// address ("<id>-<key>") in one read transaction: the shape of every
// tournament page and file below.
func tournamentPage[P any](p Pages, slug string, load func(d bymail.Host, id, key string) (P, error)) (P, error) {
	var page P
	id, key, ok := splitSlug(slug)
	if !ok {
		return page, ErrNoPage
	}
	err := p.Core.View(func(s Snapshot) error {
		var err error
		page, err = load(s.Desk(), id, key)
		return err
	})
	return page, err
}

// CrossPage returns the crosstable page of a tournament by its address
// ("<id>-<key>").
func (p Pages) CrossPage(slug string) (*bymail.CrossPage, error) {
	return tournamentPage(p, slug, func(d bymail.Host, id, key string) (*bymail.CrossPage, error) {
		return bymail.CrossPageOf(d, id, key)
	})
}

// PlayerPage returns the page of entrant n (sign-up number, from 1) of a
// tournament by its address ("<id>-<key>").
func (p Pages) PlayerPage(slug string, n int) (*bymail.PlayerPage, error) {
	return tournamentPage(p, slug, func(d bymail.Host, id, key string) (*bymail.PlayerPage, error) {
		return bymail.PlayerPageOf(d, id, key, n)
	})
}

// PersonPage returns the page of holder k (from 1) of entrant n's place
// of a tournament by its address ("<id>-<key>").
func (p Pages) PersonPage(slug string, n, k int) (*bymail.PersonPage, error) {
	return tournamentPage(p, slug, func(d bymail.Host, id, key string) (*bymail.PersonPage, error) {
		return bymail.PersonPageOf(d, id, key, n, k)
	})
}

// TournamentPage returns the public page of a tournament by its address
// ("<id>-<key>"), its dates written for a reader of lang.
func (p Pages) TournamentPage(slug, lang string) (*bymail.TournamentPage, error) {
	return tournamentPage(p, slug, func(d bymail.Host, id, key string) (*bymail.TournamentPage, error) {
		return bymail.Page(d, id, key, lang)
	})
}

// TournamentFile returns one of the files of a tournament's page by the
// page's address ("<id>-<key>") and the file's name (standings.csv,
// results.csv, crosstable.csv, pairings.csv, tournament.trf, rounds.ics);
// the calendar's words in lang.
func (p Pages) TournamentFile(slug, name, lang string) (*bymail.File, error) {
	return tournamentPage(p, slug, func(d bymail.Host, id, key string) (*bymail.File, error) {
		return bymail.Export(d, id, key, name, lang)
	})
}

// TournamentRecord returns a tournament's whole record (seed included:
// for the organiser's tools and the demo, never for a page).
func (p Pages) TournamentRecord(id string) (*tournament.Tournament, error) {
	var t *tournament.Tournament
	err := p.Core.View(func(s Snapshot) error {
		var err error
		t, err = bymail.Record(s.Records(), id)
		return err
	})
	return t, err
}

// ListedTournaments are the tournaments their organisers listed.
func (p Pages) ListedTournaments() ([]bymail.TournamentLink, error) {
	var out []bymail.TournamentLink
	err := p.Core.View(func(s Snapshot) error {
		var err error
		out, err = bymail.Listed(s.Records())
		return err
	})
	return out, err
}

// GamePage returns the public page of a game by its address
// ("<game>-<key>"): the spectators' view only, its summary and log in
// lang. A tournament's game has the key the desk gives it; a game outside
// tournaments has a page when its organiser published it (PUBLISH
// <game>).
func (p Pages) GamePage(slug, lang string) (*GamePage, error) {
	gid, key, ok := splitSlug(slug)
	if !ok {
		return nil, ErrNoPage
	}
	var page *GamePage
	err := p.Core.View(func(s Snapshot) error {
		if tid := s.Tournament(gid); tid != "" {
			tourURL, ok := bymail.GamePage(s.Records(), tid, gid, key)
			if !ok {
				return ErrNoPage
			}
			pg, err := s.PublicPage(gid, lang)
			if err != nil {
				return err
			}
			pg.Tournament, pg.TournamentURL = tid, tourURL
			page = pg
			return nil
		}
		head, ok, err := s.Game(gid)
		if err != nil {
			return err
		}
		if !ok || head.PageKey == "" || subtle.ConstantTimeCompare([]byte(key), []byte(head.PageKey)) != 1 {
			return ErrNoPage
		}
		page, err = s.PublicPage(gid, lang)
		return err
	})
	return page, err
}

// ListedGames are the games outside tournaments their organisers listed
// (PUBLISH <game> listed); a game gone, or whose page was taken down, is
// not shown.
func (p Pages) ListedGames() ([]GameLink, error) {
	var out []GameLink
	err := p.Core.View(func(s Snapshot) error {
		return s.ListedGames(func(id string) error {
			head, ok, err := s.Game(id)
			if err != nil || !ok || head.PageKey == "" {
				return nil
			}
			out = append(out, GameLink{ID: id, Title: head.Title, Status: head.Status,
				URL: "/g/" + id + "-" + head.PageKey, Players: head.Players})
			return nil
		})
	})
	return out, err
}
