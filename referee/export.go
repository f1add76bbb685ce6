package referee

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/enginelog"
	"github.com/pbem-referee/referee/store"
)

func storeSeatToken(game, addr string) store.Token {
	return store.Token{Kind: string(KindSeat), Game: game, Address: addr}
}

// engineLog is the complete, unredacted engine log of the game, rebuilt
// from its referee log (package referee/enginelog): what players receive at
// the end and what `referee replay` checks.
func (gw *gameWork) engineLog() (*engine.Log, error) {
	all, err := entries(gw.w.tx, gw.g.ID, 1)
	if err != nil {
		return nil, err
	}
	return enginelog.Rebuild(gw.g, all, gw.w.tx.Ruleset, gw.eg, gw.tb)
}

// ExportLog returns a game's engine log. Before the game is over the seed is
// withheld unless reveal is set (organisers checking a dispute offline).
func (r queries) ExportLog(id string, reveal bool) (*engine.Log, error) {
	var lg *engine.Log
	err := r.db.View(func(tx *store.Tx) error {
		w := r.newWork(tx, r.clock.Now())
		gw, err := w.game(id)
		if err != nil {
			return err
		}
		if lg, err = gw.engineLog(); err != nil {
			return err
		}
		if gw.g.Status != StatusOver && gw.g.Status != StatusAborted && !reveal {
			lg.Config.Seed = ""
		}
		return nil
	})
	return lg, err
}

// GameRecord returns a copy of a game's record.
func (r queries) GameRecord(id string) (*Game, error) {
	var g *Game
	err := r.db.View(func(tx *store.Tx) error {
		var err error
		g, err = loadGame(tx, id)
		return err
	})
	return g, err
}
