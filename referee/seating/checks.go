package seating

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/pbem-referee/referee/engine"
)

// Checks are the set-ups checked in one unit of work (Host.Checks): the
// games of a kind opened together (a tournament round's batch: hundreds
// of games of one game, variant, options and table size) share one
// throw-away set-up, not one each (issue 24: every game was set up
// twice, the check and its table; a Heaven & Ale set-up is 30-300 µs,
// 348 allocations, 26 KB). The check is a pure
// function of its key (the engine is pure, the seats' names and the seed
// are the check's own): a kind that failed fails again with the same
// error, without a second set-up. The zero value is ready; the core keeps
// one per unit of work, so a run that is undone and run again checks
// afresh.
type Checks struct {
	done map[string]error
}

// check sets up a throw-away game of eg (named game) with ng's variant,
// options, ruleset and n seats, once per such kind in c (nil: every
// time).
func (c *Checks) check(eg engine.Game, game string, ng NewGame, n int) error {
	if c == nil {
		return setUp(eg, ng, n)
	}
	key := checkKey(game, ng, n)
	if err, ok := c.done[key]; ok {
		return err
	}
	err := setUp(eg, ng, n)
	if c.done == nil {
		c.done = map[string]error{}
	}
	c.done[key] = err
	return err
}

// setUp sets up a throw-away game of eg with ng's variant, options,
// ruleset and n seats named p1, p2...: its error is the check's.
func setUp(eg engine.Game, ng NewGame, n int) error {
	dummy := make([]string, n)
	for i := range dummy {
		dummy[i] = fmt.Sprintf("p%d", i+1)
	}
	_, _, err := eg.NewState(engine.Config{Variant: ng.Variant, Options: ng.Options, Seats: dummy, Seed: "check", Ruleset: ng.Ruleset})
	return err
}

// checkKey is everything a throw-away set-up reads: the game, the
// variant, the number of seats, the ruleset (by its hash) and the
// options (in the order of their names), each part length-prefixed so
// that no two kinds share a key.
func checkKey(game string, ng NewGame, n int) string {
	k := make([]byte, 0, 64)
	part := func(s string) {
		k = strconv.AppendInt(k, int64(len(s)), 10)
		k = append(append(k, ':'), s...)
	}
	part(game)
	part(ng.Variant)
	k = append(strconv.AppendInt(k, int64(n), 10), ';')
	if ng.Ruleset != nil {
		part("r" + engine.RulesetSHA(ng.Ruleset))
	} else {
		part("")
	}
	names := make([]string, 0, len(ng.Options))
	for name := range ng.Options {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		part(name)
		part(ng.Options[name])
	}
	return string(k)
}
