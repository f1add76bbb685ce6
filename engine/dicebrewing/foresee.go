package dicebrewing

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/notation"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

// Foresee implements engine.Foreseer for placements (issue 12.6): the
// error a PLACE line is certain to meet when its turn in slot comes,
// whatever happens before then, so that the Table reports it when the
// message arrives instead of showing it queued (or "ok") and failing later:
//
//   - an item that never fits its space: a seed anywhere but MH1/HP1, a die
//     on MH1/HP1, a colour the space does not take, a die at its maximum
//     for an improvement, a blue die too low even with a PLUS token, a
//     speed-up of a space that has none, a blue die offered for a swap
//     (DB-5.5, DB-5.6.1, DB-5.5.7); two main items on one space (DB-5.4.2);
//   - in the placement phase the slot names, when it is the current one: a
//     space the seat has used, a full space, a closed building, a second
//     swap (DB-5.4.2, DB-5.4.3, DB-4.3, DB-5.5.7): they stay so all round;
//   - on the seat's own placement turn, the second item of a two-item
//     PLACE when the first resolves without any random draw (no reroll, no
//     swap, no die gained): DB-5.3.4 checks the second item after the
//     first, and here that check can be made now. A second item that only
//     a roll can make illegal is still dropped, with its reason, when the
//     turn is played.
func (s *state) Foresee(seat int, slot, line string) *engine.RuleError {
	if seat < 0 || seat >= len(s.P) {
		return nil
	}
	m, ok := engine.ParsedMove[*notation.Move](s, seat, line)
	if !ok || m.Verb != "PLACE" || len(m.Items) == 0 {
		return nil
	}
	for _, it := range m.Items {
		if re := s.neverFits(it); re != nil {
			return re
		}
	}
	if len(m.Items) == 2 {
		a, b := m.Items[0], m.Items[1]
		if a.Space == b.Space && !a.Up && !b.Up {
			return engine.Reject("DB-5.4.2", "space_used", "space", catalog.SpaceNames[b.Space])
		}
	}
	if s.Step != position.StepPlace || slot != s.slot("place") {
		return nil
	}
	for _, it := range m.Items {
		if re := s.closedAllRound(seat, it); re != nil {
			return re
		}
	}
	if len(m.Items) == 2 && s.Cur == seat && s.Sub == position.SubNone {
		return s.secondFails(seat, m)
	}
	return nil
}

// neverFits checks what an item says by itself: the kind of item its
// space takes, whatever the position (DB-5.5, DB-5.6.1, DB-5.5.7).
func (s *state) neverFits(it notation.Item) *engine.RuleError {
	sp := it.Space
	as := func(err error) *engine.RuleError {
		re, _ := engine.AsRuleError(err)
		return re
	}
	if it.Up && s.Rules.Speedup[sp] == 0 {
		return engine.Reject("DB-5.6.1", "no_speedup", "space", catalog.SpaceNames[sp])
	}
	if it.Seed {
		if it.Up || (sp != catalog.SpMH1 && sp != catalog.SpHP1) {
			return engine.Reject(spaceRule[sp], "wrong_item", "space", catalog.SpaceNames[sp], "need", s.needOf(sp, it.Up), "item", "SEED")
		}
		return nil
	}
	d := position.Die{C: it.Die.C, F: it.Die.F, Plus: it.Die.Plus}
	// The best value a die of this reference can have: a reference
	// without "+" may still name a die with a PLUS token (§10.3).
	best := d
	best.Plus = true
	if it.Up {
		if d.C != catalog.ColB {
			return engine.Reject("DB-5.6.1", "wrong_item", "space", catalog.SpaceNames[sp]+"+", "need", "B", "item", position.DieText(&d))
		}
		if best.Value() < s.Rules.Speedup[sp] {
			return engine.Reject("DB-5.6.1", "blue_too_low", "space", catalog.SpaceNames[sp]+"+", "need", s.Rules.Speedup[sp], "die", position.DieText(&d))
		}
		return nil
	}
	switch s.fitCode(sp, &d) {
	case "wrong_item", "die_at_max":
		return as(s.mainFits(sp, &d))
	}
	if s.fitCode(sp, &best) == "blue_too_low" {
		return as(s.mainFits(sp, &d))
	}
	if sp == catalog.SpSS2 && it.Swap != nil && it.Swap.C == catalog.ColB {
		return engine.Reject("DB-5.5.7", "swap_colour", "die", it.Swap.String())
	}
	return nil
}

// closedAllRound checks what stays so for the rest of the placement
// phase: the seat's own use of a space, a full space, a closed building,
// the round's one swap (DB-5.4.2, DB-5.4.3, DB-4.3, DB-5.5.7).
func (s *state) closedAllRound(seat int, it notation.Item) *engine.RuleError {
	sp := it.Space
	if !s.BuildingOpen(catalog.SpaceBuilding[sp]) {
		return engine.Reject("DB-4.3", "building_closed", "space", catalog.SpaceNames[sp], "round", s.Round, "opens", s.Rules.OpenBuilding[catalog.SpaceBuilding[sp]])
	}
	if it.Up {
		if s.P[seat].Board[sp].Done {
			return engine.Reject("DB-5.6.1", "speedup_resolved", "space", catalog.SpaceNames[sp])
		}
		return nil
	}
	if s.P[seat].Board[sp].Used {
		return engine.Reject("DB-5.4.2", "space_used", "space", catalog.SpaceNames[sp])
	}
	if s.Uses[sp] >= s.Capacity() {
		return engine.Reject("DB-5.4.3", "space_full", "space", catalog.SpaceNames[sp], "users", s.SpaceUsers(sp), "capacity", s.Capacity())
	}
	if sp == catalog.SpSS2 && s.P[seat].Swapped {
		return engine.Reject("DB-5.5.7", "already_swapped")
	}
	return nil
}

// secondFails plays the first item of a two-item PLACE on a blinded copy
// and checks the second as DB-5.3.4 will: when the first item drew
// nothing at random, the second's fate is known now.
func (s *state) secondFails(seat int, m *notation.Move) *engine.RuleError {
	c := s.clone()
	c.H.Rand.Blind()
	pl, err := c.checkItem(seat, m.Items[0])
	if err != nil {
		return nil // the turn itself reports the first item
	}
	drawn := c.H.Rand.Drawn()
	if c.applyItem(seat, pl) || c.H.Rand.Drawn() != drawn {
		return nil
	}
	if _, err := c.checkItem(seat, m.Items[1]); err != nil {
		re, _ := engine.AsRuleError(err)
		// The reason names the second item: "you have no seed" alone
		// would puzzle a player who holds one for the first.
		return engine.Reject("DB-5.3.4", "second_item", "item", m.Items[1].String(),
			"code", re.Code, "rule", re.Rule, "params", re.Params)
	}
	return nil
}
