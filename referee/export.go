package referee

import (
	"fmt"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/store"
)

func storeSeatToken(game, addr string) store.Token {
	return store.Token{Kind: string(KindSeat), Game: game, Address: addr}
}

// engineLog rebuilds the complete, unredacted engine log of a game from its
// referee log: the configuration with the seed, the setup events, every step
// in effect (steps undone by a rollback are left out) and the errata. It is
// what players receive at the end and what `referee replay` checks.
func (gw *gameWork) engineLog() (*engine.Log, error) {
	all, err := entries(gw.w.tx, gw.g.ID, 1)
	if err != nil {
		return nil, err
	}
	g := gw.g
	lg := &engine.Log{Game: g.Game}
	var initial string
	for _, e := range all {
		switch e.Kind {
		case EntryCreate:
			if s, ok := e.Params["ruleset"].(string); ok {
				initial = s
			}
		case EntryStart:
			lg.Setup = e.Setup
			var names []string
			if order, ok := e.Params["order"].([]any); ok {
				for _, n := range order {
					names = append(names, fmt.Sprint(n))
				}
			}
			lg.Config = engine.Config{Variant: g.Variant, Options: g.Options, Seats: names, Seed: g.Seed}
		case EntryStep:
			lg.Steps = append(lg.Steps, *e.Step)
		case EntryRollback:
			to := 0
			if v, ok := e.Params["to"].(float64); ok {
				to = int(v)
			}
			kept := lg.Steps[:0]
			for _, s := range lg.Steps {
				if s.Token <= to {
					kept = append(kept, s)
				}
			}
			lg.Steps = kept
			errata := lg.Errata[:0]
			for _, er := range lg.Errata {
				if er.Before <= len(kept) {
					errata = append(errata, er)
				}
			}
			lg.Errata = errata
		case EntryErratum:
			data, err := gw.w.tx.Ruleset(e.Ruleset)
			if err != nil {
				return nil, err
			}
			lg.Errata = append(lg.Errata, engine.Erratum{Before: len(lg.Steps), Ruleset: data})
		}
	}
	if initial != "" {
		data, err := gw.w.tx.Ruleset(initial)
		if err != nil {
			return nil, err
		}
		lg.Ruleset, lg.RulesetSHA = data, initial
	} else if gw.tb != nil {
		lg.RulesetSHA = engine.RulesetSHA(gw.eg.DefaultRuleset())
	}
	if gw.tb != nil {
		h, err := engine.StateHash(gw.tb.State)
		if err != nil {
			return nil, err
		}
		lg.Final = h
	}
	return lg, nil
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
