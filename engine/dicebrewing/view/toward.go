package view

import (
	"sort"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/notation"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

// What an option gives toward the reader's goal (issue 22, "decide from
// the mail alone"): for each option of the reader's own decision now that
// puts a die into the reader's storage, gives a new die or buys an
// ingredient, the recipes on display that it brings closer to brewing.
// The templates say it in words after the option ("# helps brew R02").
// It is computed for the View only (a mail), never in Legal: the bots'
// hot path does not pay for it.
//
//   - A die that reaches storage (STORE; MH3 and HP2, which return it +1 to
//     storage, DB-5.4) helps a recipe when, with it, the reader's stored
//     dice meet more of the recipe's required dice than without it
//     (DB-5.9.3 b: a die of the colour with a value at least the minimum,
//     each die used once). A die moved from storage to MH3/HP2 counts as
//     taken out, then put back +1.
//   - A new die (MH1 a Y die, MH2 a K die, HP1 a G die; rolled next round,
//     its value unknown) helps a recipe that still misses a die of its
//     colour.
//   - An ingredient (BUY) helps a recipe that needs it and that the reader
//     lacks (DB-5.9.3 c).
//
// A recipe the reader can already brew is not listed as helped: nothing
// helps it more (it is listed as costed).
//
// What an option costs toward the goal (away): an option that pays a die
// (DS1 a G die, DS2 a K die, DS3 a B or K die, MH2 a Y die; DB-5.4) costs
// the recipes that die would help: a stored die the recipe uses (the
// stored dice meet fewer of its dice without it), or a die of the active
// reserve that would help the recipe once stored (as STORE would).

// toward returns, by the option's canonical command, the ids of the
// recipes on display the option helps and those it costs a die, in display
// order; nil when the seat has no decision now or no option helps (costs).
func (s builder) toward(seat int, kind string) (helps, costs map[string][]string) {
	if seat < 0 || seat != s.Cur {
		return nil, nil
	}
	if kind != position.KindPlace && kind != position.KindSecond && kind != position.KindBuy {
		return nil, nil
	}
	type open struct {
		id    string
		rc    *catalog.Recipe
		ready bool // brewable already: nothing helps it more
	}
	var cards []open
	stored := s.storedDice(seat)
	for _, id := range s.Display {
		if id == "" {
			continue
		}
		rc := s.Card(id)
		ready := met(rc.Dice, stored) == len(rc.Dice) && len(s.MissingTokens(seat, rc, -1)) == 0
		cards = append(cards, open{id, rc, ready})
	}
	if len(cards) == 0 {
		return nil, nil
	}
	out, cost := map[string][]string{}, map[string][]string{}
	for _, o := range s.g.Legal(engine.Decision{Seat: seat, Kind: kind}) {
		mv, err := s.g.Parse(seat, o.Cmd)
		if err != nil {
			continue
		}
		m := mv.(*notation.Move)
		var ids, costs []string
		for _, c := range cards {
			if !c.ready && s.helps(seat, m, c.rc, stored) {
				ids = append(ids, c.id)
			}
			if costsDie(m, c.rc, stored) {
				costs = append(costs, c.id)
			}
		}
		if len(ids) > 0 {
			out[o.Cmd] = ids
		}
		if len(costs) > 0 {
			cost[o.Cmd] = costs
		}
	}
	if len(out) == 0 {
		out = nil
	}
	if len(cost) == 0 {
		cost = nil
	}
	return out, cost
}

// costsDie reports whether move m pays a die that recipe rc needs (away).
func costsDie(m *notation.Move, rc *catalog.Recipe, stored []cv) bool {
	if m.Verb != "PLACE" {
		return false
	}
	before := met(rc.Dice, stored)
	for _, it := range m.Items {
		if it.Seed || it.Up {
			continue
		}
		switch it.Space {
		case catalog.SpDS1, catalog.SpDS2, catalog.SpDS3, catalog.SpMH2:
		default:
			continue
		}
		d := cv{it.Die.C, refValue(it.Die)}
		if it.Die.Loc == notation.RefST {
			if met(rc.Dice, without(stored, d)) < before {
				return true
			}
		} else if met(rc.Dice, append(append([]cv(nil), stored...), d)) > before {
			return true
		}
	}
	return false
}

// cv is a die as a recipe sees it: its colour and its value.
type cv struct{ c, v int }

// storedDice are the seat's dice in storage that may be brewed with.
func (s builder) storedDice(seat int) []cv {
	var out []cv
	for _, id := range s.BrewDice(seat) {
		out = append(out, cv{s.Dice[id].C, s.Dice[id].Value()})
	}
	return out
}

// met counts the required dice that the dice meet, each die used once
// (DB-5.9.3 b): per colour, the dice and the minimums from the lowest up,
// each die taking the lowest minimum not met yet that it reaches.
func met(reqs []catalog.Req, dice []cv) int {
	n := 0
	for c := 0; c < catalog.NumColours; c++ {
		var mins, vals []int
		for _, r := range reqs {
			if r.C == c {
				mins = append(mins, r.Min)
			}
		}
		if len(mins) == 0 {
			continue
		}
		for _, d := range dice {
			if d.c == c {
				vals = append(vals, d.v)
			}
		}
		sort.Ints(mins)
		sort.Ints(vals)
		k := 0
		for _, v := range vals {
			if k < len(mins) && v >= mins[k] {
				k++
			}
		}
		n += k
	}
	return n
}

// refValue is the value of the die a reference names (its face, +1 with
// a PLUS).
func refValue(r notation.DieRef) int {
	if r.Plus {
		return r.F + 1
	}
	return r.F
}

// helps reports whether move m brings recipe rc closer for seat (toward).
func (s builder) helps(seat int, m *notation.Move, rc *catalog.Recipe, stored []cv) bool {
	before := met(rc.Dice, stored)
	switch m.Verb {
	case "STORE":
		with := append([]cv(nil), stored...)
		for _, r := range m.Dice {
			with = append(with, cv{r.C, refValue(r)})
		}
		return met(rc.Dice, with) > before
	case "PLACE":
		for _, it := range m.Items {
			if it.Up {
				continue
			}
			switch it.Space {
			case catalog.SpMH3, catalog.SpHP2:
				if it.Seed {
					continue
				}
				with := stored
				if it.Die.Loc == notation.RefST {
					with = without(stored, cv{it.Die.C, refValue(it.Die)})
				}
				with = append(append([]cv(nil), with...), cv{it.Die.C, refValue(it.Die) + 1})
				if met(rc.Dice, with) > before {
					return true
				}
			case catalog.SpMH1, catalog.SpMH2, catalog.SpHP1:
				c := map[int]int{catalog.SpMH1: catalog.ColY, catalog.SpMH2: catalog.ColK, catalog.SpHP1: catalog.ColG}[it.Space]
				if missesColour(rc.Dice, stored, c) {
					return true
				}
			}
		}
	case "BUY":
		for _, t := range rc.Tokens {
			if s.Rules.Ingredients[t].Code == m.Code {
				for _, miss := range s.MissingTokens(seat, rc, -1) {
					if miss == m.Code {
						return true
					}
				}
			}
		}
	}
	return false
}

// without returns dice without one die equal to d.
func without(dice []cv, d cv) []cv {
	out := make([]cv, 0, len(dice))
	done := false
	for _, x := range dice {
		if !done && x == d {
			done = true
			continue
		}
		out = append(out, x)
	}
	return out
}

// missesColour reports whether the stored dice leave a required die of
// colour c unmet.
func missesColour(reqs []catalog.Req, stored []cv, c int) bool {
	var mine []catalog.Req
	for _, r := range reqs {
		if r.C == c {
			mine = append(mine, r)
		}
	}
	return len(mine) > 0 && met(mine, stored) < len(mine)
}
