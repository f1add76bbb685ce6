package dicebrewing

import (
	"sort"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/notation"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

// atLoc reports whether a die is at a search location: locAR, locST, or
// locBoard with the reference's space and slot (when the reference gives
// one).
func atLoc(d *position.Die, loc int, r notation.DieRef) bool {
	if d.L != loc {
		return false
	}
	if loc == position.LocBoard && r.Loc == notation.RefBoard {
		return d.S == r.Space && d.Up == r.Up
	}
	return true
}

// refLocs returns the locations a reference allows, given the command's
// default search order.
func refLocs(r notation.DieRef, def []int) []int {
	switch r.Loc {
	case notation.RefAR:
		return []int{position.LocAR}
	case notation.RefST:
		return []int{position.LocST}
	case notation.RefBoard:
		return []int{position.LocBoard}
	}
	return def
}

// resolve finds the die a reference names (§10.3). owner is the seat whose
// dice are searched; def is the command's default search order; ok checks
// that a candidate may be used (nil error) and says why not. A reference
// without "+" prefers dice without a PLUS token and falls back to dice
// with one. With strict set, a reference without a location must not match
// usable dice in two different places (token targets, §10.3).
func (s *state) resolve(owner int, r notation.DieRef, def []int, strict bool, ok func(id int) error) (int, error) {
	locs := refLocs(r, def)
	plusOrder := []bool{false, true}
	if r.Plus {
		plusOrder = []bool{true}
	}
	var firstErr error
	for _, plus := range plusOrder {
		found, foundLoc := -1, -1
		for _, loc := range locs {
			best := -1
			for id := range s.Dice {
				d := &s.Dice[id]
				if d.O != owner || d.C != r.C || d.F != r.F || d.Plus != plus || !atLoc(d, loc, r) {
					continue
				}
				if ok != nil {
					if err := ok(id); err != nil {
						if firstErr == nil {
							firstErr = err
						}
						continue
					}
				}
				if best < 0 || s.Preferred(id, best) {
					best = id
				}
			}
			if best < 0 {
				continue
			}
			if found < 0 {
				found, foundLoc = best, loc
				if !strict || r.Loc != notation.RefAny {
					break
				}
				continue
			}
			if foundLoc != loc {
				return -1, engine.Reject("DB-5.8.11", "ambiguous_die", "die", r.String())
			}
		}
		if found >= 0 {
			return found, nil
		}
	}
	if firstErr != nil {
		return -1, firstErr
	}
	return -1, engine.Reject("", "no_such_die", "die", r.String())
}

// group is a set of a player's dice that a reference cannot tell apart.
type group struct {
	id  int             // the die the reference resolves to
	n   int             // how many dice the group has
	ref notation.DieRef // the canonical reference
}

// groupKey orders dice into groups: place, colour, face, bonus, slot.
type groupKey struct {
	owner, loc, space int
	up                bool
	c, f              int
	plus              bool
}

func (s *state) keyOf(id int) groupKey {
	d := &s.Dice[id]
	k := groupKey{owner: d.O, loc: d.L, c: d.C, f: d.F, plus: d.Plus}
	if d.L == position.LocBoard {
		k.space, k.up = d.S, d.Up
	}
	return k
}

func (a groupKey) less(b groupKey) bool {
	if a.owner != b.owner {
		return a.owner < b.owner
	}
	if a.loc != b.loc {
		return a.loc < b.loc
	}
	if a.space != b.space {
		return a.space < b.space
	}
	if a.up != b.up {
		return !a.up
	}
	if a.c != b.c {
		return a.c < b.c
	}
	if a.f != b.f {
		return a.f < b.f
	}
	return !a.plus && b.plus
}

// groups returns the groups of the dice accepted by ok, in groupKey order.
// Each group's reference is written for actor: an owner prefix for another
// player's die; a location when explicit is set, or else only when the
// default search order def would find another group first (§10.3).
func (s *state) groups(actor int, ok func(id int) bool, def []int, explicit bool) []group {
	out := make([]group, 0, 16)
	keys := make([]groupKey, 0, 16)
	find := func(k groupKey) int {
		for i := range keys {
			if keys[i] == k {
				return i
			}
		}
		return -1
	}
	for id := range s.Dice {
		d := &s.Dice[id]
		if d.O < 0 || d.F == 0 || !ok(id) {
			continue
		}
		k := s.keyOf(id)
		if i := find(k); i >= 0 {
			out[i].n++
			if s.Preferred(id, out[i].id) {
				out[i].id = id
			}
			continue
		}
		out = append(out, group{id: id, n: 1})
		keys = append(keys, k)
	}
	for i := range out {
		d := &s.Dice[out[i].id]
		r := notation.DieRef{Seat: -1, C: d.C, F: d.F, Plus: d.Plus}
		if d.O != actor {
			r.Seat, r.Owner = d.O, s.refName(d.O)
		}
		switch {
		case explicit || d.L == position.LocBoard || d.L == position.LocMarket:
			r.Loc, r.Space, r.Up = locRef(d)
		default:
			// A location is needed only when a location searched earlier
			// holds a group the plain reference would find first.
			for _, loc := range def {
				if loc == d.L {
					break
				}
				k := keys[i]
				k.loc = loc
				if find(k) >= 0 {
					r.Loc, r.Space, r.Up = locRef(d)
					break
				}
			}
		}
		out[i].ref = r
	}
	sort.SliceStable(out, func(a, b int) bool { return s.keyOf(out[a].id).less(s.keyOf(out[b].id)) })
	return out
}

// locRef returns the explicit reference location of a die.
func locRef(d *position.Die) (int, int, bool) {
	switch d.L {
	case position.LocAR:
		return notation.RefAR, 0, false
	case position.LocST:
		return notation.RefST, 0, false
	case position.LocBoard:
		return notation.RefBoard, d.S, d.Up
	}
	return notation.RefAny, 0, false
}

// placeLocs is the default search order of PLACE, SS1 rerolls, SS2 swaps
// and Market discounts: AR first, then ST (§10.3).
var placeLocs = []int{position.LocAR, position.LocST}

// usableErr is ownUsable with a reason (DB-5.3.5 and the like).
func (s *state) usableErr(rule string) func(id int) error {
	return func(id int) error {
		d := &s.Dice[id]
		if d.L != position.LocAR && d.L != position.LocST {
			return engine.Reject(rule, "no_such_die", "die", position.DieText(d))
		}
		if d.Blocked() {
			return engine.Reject(rule, "die_blocked", "die", position.DieText(d), "by", d.Sh-1)
		}
		return nil
	}
}

// autostore applies a seat's AUTOSTORE standing order to its AR while
// storing is allowed (Phases 1 and 2, DB-5.1.1, DB-5.1.3).
func (s *state) autostore(seat int) {
	p := &s.P[seat]
	if p.AutoStore == 0 || !(s.Step == position.StepW0 || s.Step == position.StepPlace || s.Step == position.StepBuy) {
		return
	}
	var moved []int
	for id := range s.Dice {
		d := &s.Dice[id]
		if d.O != seat || d.L != position.LocAR || d.Blocked() || d.F == 0 || d.Value() < p.AutoStore {
			continue
		}
		if d.C == catalog.ColB && !p.AutoStoreB {
			continue
		}
		d.L = position.LocST
		moved = append(moved, id)
	}
	if len(moved) > 0 {
		s.pub("db.store", seat, "dice", s.DiceTexts(moved), "auto", true)
	}
}
