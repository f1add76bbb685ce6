package referee

// The core's side of the public pages' data (package referee/query, Pages:
// the pages' answers, each on a snapshot): pageCore and pageSnap give it a
// read transaction and what a spectator may see of a game (publicPage,
// the seat -1 view); PUBLISH gives a game outside tournaments its page.

import (
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/organise"
	"github.com/pbem-referee/referee/referee/query"
	"github.com/pbem-referee/referee/referee/records"
	"github.com/pbem-referee/referee/referee/settle"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
	"github.com/pbem-referee/referee/store"
	"github.com/pbem-referee/referee/templates"
)

// The pages' data are package referee/query's (a game's) and the desk's
// (package referee/tournament/bymail: a tournament's), under the core's
// names.
type (
	GamePage       = query.GamePage
	PageResult     = query.PageResult
	GameLink       = query.GameLink
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
	PersonPage     = bymail.PersonPage
)

// ErrNoPage: no public page at that address (unknown, wrong key, or not
// published). Pages answer it as 404 without saying which.
var ErrNoPage = query.ErrNoPage

// pageQueries is the room of the Referee's API that answers the public
// pages (query.Pages, on pageCore).
type pageQueries = query.Pages

// pageCore is the core as the pages' data see it (query.Core).
type pageCore struct{ r *Referee }

func (c pageCore) Version() uint64 { return uint64(c.r.db.WriteStats().Commits) }

func (c pageCore) View(fn func(query.Snapshot) error) error {
	return c.r.db.View(func(tx *store.Tx) error {
		return fn(pageSnap{c.r.newWork(tx, c.r.clock.Now())})
	})
}

// pageSnap is one read transaction as the pages' data see it
// (query.Snapshot).
type pageSnap struct{ w *work }

func (s pageSnap) Desk() bymail.Host                          { return s.w.desk() }
func (s pageSnap) Records() bymail.Records                    { return s.w.tx }
func (s pageSnap) Tournament(game string) string              { return s.w.tx.GameTournament(game) }
func (s pageSnap) ListedGames(fn func(id string) error) error { return s.w.tx.ListedGames(fn) }

func (s pageSnap) Game(id string) (query.GameHead, bool, error) {
	if !s.w.tx.HasGame(id) {
		return query.GameHead{}, false, nil
	}
	gw, err := s.w.game(id)
	if err != nil {
		return query.GameHead{}, false, err
	}
	return query.GameHead{Title: gw.eg.Info().Title, Status: gw.g.Status, Players: gw.g.HoldingNames(), PageKey: gw.g.PageKey}, true, nil
}

func (s pageSnap) PublicPage(id, lang string) (*GamePage, error) {
	gw, err := s.w.game(id)
	if err != nil {
		return nil, err
	}
	return teller{gw}.publicPage(lang)
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
		return "", organise.Fail("usage", "syntax", "PUBLISH <game> [listed|off]")
	}
	if gw.w.tx.GameTournament(g.ID) != "" {
		return "", organise.Fail("tournament_game", "game", g.ID, "tournament", gw.w.tx.GameTournament(g.ID))
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
	var err error
	g := gw.g
	p := &GamePage{ID: g.ID, Title: gw.eg.Info().Title, Status: g.Status, Players: g.HoldingNames(), Game: g.Game}
	rd := g.ReaderIn(-1, lang)
	if p.Holders, err = gw.w.r.render.SeatsHeld(rd, g.TellGame().Seats); err != nil {
		return nil, err
	}
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
		// A game the organiser adjudicated (closed, scored as it stands:
		// Adjudicate in desk.go) shows that result, marked.
		var res *engine.Result
		if res, p.Adjudicated = settle.Result(g, gw.tb.State, all); res != nil {
			p.Result = query.Places(res, g.Names(), p.Holders)
		}
	}
	if p.Log, err = tell.PublicLog(gw.w.r.render.Renderer, rd, records.TellEntries(all)); err != nil {
		return nil, err
	}
	return p, nil
}
