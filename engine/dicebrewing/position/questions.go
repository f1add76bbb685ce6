package position

import (
	"sort"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
)

// BrewDice returns a seat's dice that brewing may use: in ST, not blocked
// by an opponent's SHIELD (DB-5.9.3 b).
func (s *Position) BrewDice(seat int) []int {
	var out []int
	for i := range s.Dice {
		d := &s.Dice[i]
		if d.O == seat && d.L == LocST && !d.Blocked() {
			out = append(out, i)
		}
	}
	return out
}

// LowFirst orders dice by value, then face, then preference: the order in
// which the default selection takes them (DB-5.9.5).
func (s *Position) LowFirst(ids []int) {
	sort.SliceStable(ids, func(a, b int) bool {
		da, db := &s.Dice[ids[a]], &s.Dice[ids[b]]
		if da.Value() != db.Value() {
			return da.Value() < db.Value()
		}
		if da.F != db.F {
			return da.F < db.F
		}
		return s.Preferred(ids[a], ids[b])
	})
}

// Assign picks the dice of a recipe's base from ids (DB-5.9.5): for each
// requirement from the highest minimum down, the lowest-valued die that
// meets it. It returns the dice, or the requirements nobody can meet. The
// greedy choice succeeds whenever an assignment exists (DB-5.9.3), and it
// keeps the remaining dice as high as possible.
func (s *Position) Assign(rc *catalog.Recipe, ids []int) ([]int, []string) {
	free := append([]int(nil), ids...)
	s.LowFirst(free)
	order := make([]int, len(rc.Dice))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rc.Dice[order[a]].Min > rc.Dice[order[b]].Min })
	var got []int
	var missing []string
	for _, k := range order {
		rq := rc.Dice[k]
		found := -1
		for j, id := range free {
			d := &s.Dice[id]
			if d.C == rq.C && d.Value() >= rq.Min {
				found = j
				break
			}
		}
		if found < 0 {
			missing = append(missing, rc.DiceText[k])
			continue
		}
		got = append(got, free[found])
		free = append(free[:found:found], free[found+1:]...)
	}
	return got, missing
}

// MissingTokens lists the base-recipe ingredients a seat lacks (DB-5.9.3 c).
func (s *Position) MissingTokens(seat int, rc *catalog.Recipe, extra int) []string {
	need := map[int]int{}
	for _, t := range rc.Tokens {
		need[t]++
	}
	if extra >= 0 {
		need[extra]++
	}
	var out []string
	for i := range s.Rules.Ingredients {
		for k := s.P[seat].Ingr[i]; k < need[i]; k++ {
			out = append(out, s.Rules.Ingredients[i].Code)
		}
	}
	return out
}

// Preferred reports whether die a is the better pick than die b among dice
// a reference cannot tell apart (same owner, colour, face, bonus and place):
// dice without SHIELD marks first, then dice not marked as rolled this round
// (they cannot earn unlucky-roll credit), then the lower number. Identical
// dice are interchangeable, so this only settles the rare marked cases.
func (s *Position) Preferred(a, b int) bool {
	da, db := &s.Dice[a], &s.Dice[b]
	if (da.Sh != 0) != (db.Sh != 0) {
		return da.Sh == 0
	}
	if da.R != db.R {
		return !da.R
	}
	return a < b
}

// WindowName returns "W0" or "W3" for the current window step.
func (s *Position) WindowName() string {
	if s.Step == StepW0 {
		return catalog.WinW0
	}
	return catalog.WinW3
}

// UnluckyDice counts a seat's dice that earn unlucky-roll credit: in AR or
// ST, value 1, rolled this round, not SHIELD-blocked (DB-5.7.9).
func (s *Position) UnluckyDice(seat int) int {
	if s.H.Options[OptUnlucky] != "true" {
		return 0
	}
	n := 0
	for i := range s.Dice {
		d := &s.Dice[i]
		if d.O == seat && (d.L == LocAR || d.L == LocST) && d.R && d.Value() == 1 && !d.Blocked() {
			n++
		}
	}
	return n
}

// Credit is the unlucky-roll credit a seat may still spend in this round's
// Phase 2 (DB-5.7.9): it is used before coins and what is left is lost.
func (s *Position) Credit(seat int) int {
	if s.H.Options[OptUnlucky] != "true" || s.Step != StepBuy {
		return 0
	}
	return max(0, s.Rules.UnluckyCreditFor(s.UnluckyDice(seat))-s.P[seat].CreditUsed)
}

// DiscountOf returns the discount a blue die gives on an ingredient
// (DB-5.7.4): the best one its value reaches, 0 if none.
func (s *Position) DiscountOf(ingr int, blue *Die) int {
	best := 0
	for _, d := range s.Rules.Ingredients[ingr].Discounts {
		if blue.Value() >= d.BlueMin && d.Minus > best {
			best = d.Minus
		}
	}
	return best
}

// Deliverable checks that the supply can deliver a speed-up's gain now
// (DB-5.6.4).
func (s *Position) Deliverable(sp int) error {
	short := func(kind string) error {
		return engine.Reject("DB-5.6.4", "supply_empty", "space", catalog.SpaceNames[sp], "kind", kind)
	}
	switch sp {
	case catalog.SpMH1:
		if s.SupplyCount(catalog.ColY) == 0 {
			return short("Y")
		}
	case catalog.SpMH2:
		if s.SupplyCount(catalog.ColK) == 0 {
			return short("K")
		}
	case catalog.SpHP1:
		if s.SupplyCount(catalog.ColG) == 0 {
			return short("G")
		}
	case catalog.SpDS1:
		if s.SeedSupply < s.Rules.DS1Seeds {
			return short("SEED")
		}
	case catalog.SpDS2:
		if s.SeedSupply < s.Rules.DS2Seeds {
			return short("SEED")
		}
	}
	return nil
}

// SpaceOpen checks the rules that concern the space itself: its building is
// open (DB-4.3, DB-5.4.6), not blocked by a BLOCKB token (DB-5.8.5), and
// the main slot is free for this player (DB-5.4.2, DB-5.4.3) or the
// speed-up slot can be used (DB-5.6.1).
func (s *Position) SpaceOpen(seat, sp int, up bool) error {
	b := catalog.SpaceBuilding[sp]
	if !s.BuildingOpen(b) {
		return engine.Reject("DB-4.3", "building_closed", "space", catalog.SpaceNames[sp], "round", s.Round, "opens", s.Rules.OpenBuilding[b])
	}
	p := &s.P[seat]
	if by := p.BlockB[b]; by != 0 && s.H.Options[OptBlockB] != "brewing" {
		return engine.Reject("DB-5.8.5", "building_blocked", "building", catalog.BuildingNames[b], "by", by-1)
	}
	bs := &p.Board[sp]
	if !up {
		if bs.Used {
			return engine.Reject("DB-5.4.2", "space_used", "space", catalog.SpaceNames[sp])
		}
		if s.Uses[sp] >= s.Capacity() {
			return engine.Reject("DB-5.4.3", "space_full", "space", catalog.SpaceNames[sp], "users", s.SpaceUsers(sp), "capacity", s.Capacity())
		}
		return nil
	}
	if s.Rules.Speedup[sp] == 0 {
		return engine.Reject("DB-5.6.1", "no_speedup", "space", catalog.SpaceNames[sp])
	}
	if !bs.Used {
		return engine.Reject("DB-5.6.1", "speedup_no_main", "space", catalog.SpaceNames[sp])
	}
	if bs.Done {
		return engine.Reject("DB-5.6.1", "speedup_resolved", "space", catalog.SpaceNames[sp])
	}
	return s.Deliverable(sp)
}

// SpaceUsers returns the seats that used a space this round.
func (s *Position) SpaceUsers(sp int) []int {
	var out []int
	for i := range s.P {
		if s.P[i].Board[sp].Used {
			out = append(out, i)
		}
	}
	return out
}

// TokenWindows returns the windows in which a token type may be played
// (DB-5.8.3, §8.4; BLOCKB follows block_building_timing, §9 A-7).
func (s *Position) TokenWindows(t int) []string {
	at := s.Rules.Tokens[t]
	if at.Code == catalog.TokBLOCKB && s.H.Options[OptBlockB] == "brewing" {
		return at.WindowsBrewing
	}
	return at.Windows
}

// OwnUsable accepts a seat's own dice in AR or ST that are not blocked by
// an opponent's SHIELD.
func (s *Position) OwnUsable(seat int) func(id int) bool {
	return func(id int) bool {
		d := &s.Dice[id]
		return d.O == seat && (d.L == LocAR || d.L == LocST) && !d.Blocked()
	}
}
