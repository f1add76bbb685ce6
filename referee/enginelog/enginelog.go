package enginelog

import (
	"fmt"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/records"
)

// Rebuild returns the complete, unredacted engine log of game g from its
// log entries (all of them, in order): ruleset reads a stored data file
// by its SHA-256 (store.Tx.Ruleset); eg and tb are the game's engine and
// its current table, nil before the game starts (then the log has no
// final hash, and no ruleset SHA unless the game was created with one).
func Rebuild(g *records.Game, all []records.Entry, ruleset func(sha string) ([]byte, error), eg engine.Game, tb *engine.Table) (*engine.Log, error) {
	lg := &engine.Log{Game: g.Game}
	var initial string
	for _, e := range all {
		switch e.Kind {
		case records.EntryCreate:
			if s, ok := e.Params["ruleset"].(string); ok {
				initial = s
			}
		case records.EntryStart:
			lg.Setup = e.Setup
			// The entry as decoded from the store ([]any) or as the unit
			// of work that wrote it holds it ([]string, issue 25).
			var names []string
			switch order := e.Params["order"].(type) {
			case []any:
				for _, n := range order {
					names = append(names, fmt.Sprint(n))
				}
			case []string:
				names = append(names, order...)
			}
			lg.Config = engine.Config{Variant: g.Variant, Options: g.Options, Seats: names, Seed: g.Seed}
		case records.EntryStep:
			lg.Steps = append(lg.Steps, *e.Step)
		case records.EntryRollback:
			to := 0
			switch v := e.Params["to"].(type) {
			case float64:
				to = int(v)
			case int:
				to = v
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
		case records.EntryErratum:
			data, err := ruleset(e.Ruleset)
			if err != nil {
				return nil, err
			}
			lg.Errata = append(lg.Errata, engine.Erratum{Before: len(lg.Steps), Ruleset: data})
		}
	}
	if initial != "" {
		data, err := ruleset(initial)
		if err != nil {
			return nil, err
		}
		lg.Ruleset, lg.RulesetSHA = data, initial
	} else if tb != nil {
		lg.RulesetSHA = engine.RulesetSHA(eg.DefaultRuleset())
	}
	if tb != nil {
		h, err := engine.StateHash(tb.State)
		if err != nil {
			return nil, err
		}
		lg.Final = h
	}
	return lg, nil
}

// Rollback cuts lg back to the state after move `to` (a ROLLBACK): it
// keeps the steps of tokens up to `to`, the errata that came into effect
// before the last step kept (engine.Erratum.Before counts steps), and no
// final hash. The core replays what is left from the seed.
func Rollback(lg *engine.Log, to int) {
	var keep []engine.Step
	for _, s := range lg.Steps {
		if s.Token <= to {
			keep = append(keep, s)
		}
	}
	lg.Steps, lg.Final = keep, ""
	var errata []engine.Erratum
	for _, e := range lg.Errata {
		if e.Before <= len(keep) {
			errata = append(errata, e)
		}
	}
	lg.Errata = errata
}
