package dicebrewing

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/notation"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

// spaceRule is the rule that describes each space (DB-5.5.x).
var spaceRule = [catalog.NumSpaces]string{"DB-5.5.1", "DB-5.5.2", "DB-5.5.3", "DB-5.5.4", "DB-5.5.5", "DB-5.5.6",
	"DB-5.5.7", "DB-5.5.8", "DB-5.5.9", "DB-5.5.10", "DB-5.5.11"}

// placed is an item checked against the position: the dice its references
// resolved to.
type placed struct {
	it     notation.Item
	die    int   // the item's die, -1 for a seed
	reroll []int // SS1: the dice to reroll
	swap   int   // SS2: the die offered for a swap, -1 otherwise
}

// fitCode says why a die may not be the main item of a space (DB-5.5.x):
// "" when it may, else "wrong_item", "die_at_max" or "blue_too_low". It
// allocates nothing, so that option lists stay cheap.
func (s *state) fitCode(sp int, d *position.Die) string {
	switch sp {
	case catalog.SpMH1, catalog.SpHP1:
		return "wrong_item"
	case catalog.SpMH2:
		if d.C != catalog.ColY {
			return "wrong_item"
		}
	case catalog.SpMH3:
		if d.C != catalog.ColY && d.C != catalog.ColK {
			return "wrong_item"
		}
		if d.F >= s.Rules.Faces {
			return "die_at_max"
		}
	case catalog.SpHP2:
		if d.C != catalog.ColG {
			return "wrong_item"
		}
		if d.F >= s.Rules.Faces {
			return "die_at_max"
		}
	case catalog.SpSS1, catalog.SpSS2, catalog.SpSS3:
		if d.C != catalog.ColB {
			return "wrong_item"
		}
		if d.Value() < s.Rules.BlueMin[sp] {
			return "blue_too_low"
		}
	case catalog.SpDS1:
		if d.C != catalog.ColG {
			return "wrong_item"
		}
	case catalog.SpDS2:
		if d.C != catalog.ColK {
			return "wrong_item"
		}
	case catalog.SpDS3:
		if d.C != catalog.ColB && d.C != catalog.ColK {
			return "wrong_item"
		}
	}
	return ""
}

// mainFits checks that a die may be the main item of a space (DB-5.5.x).
func (s *state) mainFits(sp int, d *position.Die) error {
	rule := spaceRule[sp]
	switch s.fitCode(sp, d) {
	case "wrong_item":
		return engine.Reject(rule, "wrong_item", "space", catalog.SpaceNames[sp], "need", s.needOf(sp, false), "item", position.DieText(d))
	case "die_at_max":
		return engine.Reject(rule, "die_at_max", "space", catalog.SpaceNames[sp], "die", position.DieText(d))
	case "blue_too_low":
		return engine.Reject(rule, "blue_too_low", "space", catalog.SpaceNames[sp], "need", s.Rules.BlueMin[sp], "die", position.DieText(d))
	}
	return nil
}

// canDeliver is deliverable without the error (DB-5.6.4).
func (s *state) canDeliver(sp int) bool {
	switch sp {
	case catalog.SpMH1:
		return s.SupplyCount(catalog.ColY) > 0
	case catalog.SpMH2:
		return s.SupplyCount(catalog.ColK) > 0
	case catalog.SpHP1:
		return s.SupplyCount(catalog.ColG) > 0
	case catalog.SpDS1:
		return s.SeedSupply >= s.Rules.DS1Seeds
	case catalog.SpDS2:
		return s.SeedSupply >= s.Rules.DS2Seeds
	}
	return true
}

// spaceFree is spaceOpen without the error: it allocates nothing.
func (s *state) spaceFree(seat, sp int, up bool) bool {
	b := catalog.SpaceBuilding[sp]
	if !s.BuildingOpen(b) {
		return false
	}
	p := &s.P[seat]
	if p.BlockB[b] != 0 && s.H.Options[position.OptBlockB] != "brewing" {
		return false
	}
	bs := &p.Board[sp]
	if !up {
		return !bs.Used && s.Uses[sp] < s.Capacity()
	}
	return s.Rules.Speedup[sp] > 0 && bs.Used && !bs.Done && s.canDeliver(sp)
}

// checkItem checks one placement item against the current position and
// resolves its dice (DB-5.3.3 to DB-5.3.5, DB-5.4, DB-5.5, DB-5.6).
func (s *state) checkItem(seat int, it notation.Item) (placed, error) {
	pl := placed{it: it, die: -1, swap: -1}
	if err := s.SpaceOpen(seat, it.Space, it.Up); err != nil {
		return pl, err
	}
	sp := it.Space
	if it.Seed {
		if it.Up || (sp != catalog.SpMH1 && sp != catalog.SpHP1) {
			return pl, engine.Reject(spaceRule[sp], "wrong_item", "space", catalog.SpaceNames[sp], "need", s.needOf(sp, it.Up), "item", "SEED")
		}
		if s.P[seat].Seeds == 0 {
			return pl, engine.Reject("DB-5.3.3", "no_seed")
		}
		return pl, nil
	}
	if it.Die.Seat >= 0 && it.Die.Seat != seat {
		return pl, engine.Reject("DB-5.3.3", "not_your_die", "die", it.Die.String())
	}
	id, err := s.resolve(seat, it.Die, placeLocs, false, s.usableErr("DB-5.3.5"))
	if err != nil {
		return pl, err
	}
	d := &s.Dice[id]
	if it.Up {
		if d.C != catalog.ColB {
			return pl, engine.Reject("DB-5.6.1", "wrong_item", "space", catalog.SpaceNames[sp]+"+", "need", "B", "item", position.DieText(d))
		}
		if d.Value() < s.Rules.Speedup[sp] {
			return pl, engine.Reject("DB-5.6.1", "blue_too_low", "space", catalog.SpaceNames[sp]+"+", "need", s.Rules.Speedup[sp], "die", position.DieText(d))
		}
		pl.die = id
		return pl, nil
	}
	if err := s.mainFits(sp, d); err != nil {
		return pl, err
	}
	pl.die = id
	switch sp {
	case catalog.SpSS1:
		used := map[int]bool{id: true}
		okFor := func(x int) error {
			if used[x] {
				return engine.Reject("DB-5.5.6", "same_die_twice", "die", position.DieText(&s.Dice[x]))
			}
			return s.usableErr("DB-5.5.6")(x)
		}
		for _, r := range it.Reroll {
			if r.Seat >= 0 && r.Seat != seat {
				return pl, engine.Reject("DB-5.5.6", "not_your_die", "die", r.String())
			}
			x, err := s.resolve(seat, r, placeLocs, false, okFor)
			if err != nil {
				return pl, err
			}
			used[x] = true
			pl.reroll = append(pl.reroll, x)
		}
		if len(it.Reroll) == 0 {
			others := false
			for x := range s.Dice {
				if x != id && s.OwnUsable(seat)(x) {
					others = true
					break
				}
			}
			if !others {
				return pl, engine.Reject("DB-5.5.6", "nothing_to_reroll")
			}
		}
	case catalog.SpSS2:
		if s.P[seat].Swapped {
			return pl, engine.Reject("DB-5.5.7", "already_swapped")
		}
		r := *it.Swap
		if r.Seat >= 0 && r.Seat != seat {
			return pl, engine.Reject("DB-5.5.7", "not_your_die", "die", r.String())
		}
		if r.C == catalog.ColB {
			return pl, engine.Reject("DB-5.5.7", "swap_colour", "die", r.String())
		}
		x, err := s.resolve(seat, r, placeLocs, false, s.usableErr("DB-5.5.7"))
		if err != nil {
			return pl, err
		}
		if s.SupplyCount(r.C) == 0 {
			return pl, engine.Reject("DB-5.5.7", "supply_empty", "space", "SS2", "kind", catalog.ColourLetters[r.C])
		}
		pl.swap = x
	}
	return pl, nil
}

// needOf describes the main item a space takes, for error messages.
func (s *state) needOf(sp int, up bool) string {
	if up {
		return "B"
	}
	switch sp {
	case catalog.SpMH1, catalog.SpHP1:
		return "SEED"
	case catalog.SpMH2:
		return "Y"
	case catalog.SpMH3:
		return "Y|K"
	case catalog.SpHP2, catalog.SpDS1:
		return "G"
	case catalog.SpDS2:
		return "K"
	case catalog.SpDS3:
		return "B|K"
	}
	return "B"
}

// applyItem places a checked item and resolves its immediate effects
// (DB-5.3.4, DB-5.3.6, DB-5.5, DB-5.6.2). It reports whether the item is
// an SS1 whose dice are still to be chosen.
func (s *state) applyItem(seat int, pl placed) (choose bool) {
	it := pl.it
	p := &s.P[seat]
	bs := &p.Board[it.Space]
	text := "SEED"
	if pl.die >= 0 {
		text = position.DieText(&s.Dice[pl.die])
	}
	if it.Up {
		d := &s.Dice[pl.die]
		d.L, d.S, d.Up = position.LocBoard, it.Space, true
		s.pub("db.place", seat, "space", catalog.SpaceNames[it.Space], "speedup", true, "item", text)
		s.resolveSpeedup(seat, it.Space)
		return false
	}
	bs.Used = true
	s.Uses[it.Space]++
	if it.Seed {
		p.Seeds--
		bs.Seed = true
	} else {
		d := &s.Dice[pl.die]
		d.L, d.S, d.Up = position.LocBoard, it.Space, false
	}
	s.pub("db.place", seat, "space", catalog.SpaceNames[it.Space], "speedup", false, "item", text)
	switch it.Space {
	case catalog.SpSS1:
		bs.Done = true
		if len(pl.reroll) == 0 {
			return true
		}
		s.rerollDice(seat, pl.reroll, "SS1")
	case catalog.SpSS2:
		bs.Done = true
		s.swap(seat, pl.swap)
	}
	return false
}

// rerollDice rerolls a player's dice in place (DB-5.5.6).
func (s *state) rerollDice(seat int, ids []int, why string) {
	before := make([]string, len(ids))
	after := make([]string, len(ids))
	for i, id := range ids {
		before[i] = position.DieText(&s.Dice[id])
		s.roll(id)
		after[i] = position.DieText(&s.Dice[id])
	}
	s.pub("db.reroll", seat, "from", before, "to", after, "why", why)
	s.autostore(seat)
}

// swap resolves SS2 (DB-5.5.7, §9 A-20): every supply die of the offered
// die's colour is rolled, and the offered die is swapped for the highest
// one if that beats its value.
func (s *state) swap(seat, id int) {
	c := s.Dice[id].C
	best, bestV := -1, 0
	var rolled []int
	for x := range s.Dice {
		if s.Dice[x].L != position.LocSupply || s.Dice[x].C != c {
			continue
		}
		v := s.roll(x)
		rolled = append(rolled, v)
		if v > bestV {
			best, bestV = x, v
		}
	}
	s.P[seat].Swapped = true
	old := s.Dice[id]
	swapped := best >= 0 && bestV > old.Value()
	if swapped {
		s.Dice[best] = position.Die{C: c, F: bestV, O: seat, L: old.L, R: s.Dice[best].R}
		s.toSupply(id)
	}
	for x := range s.Dice {
		if s.Dice[x].L == position.LocSupply {
			s.Dice[x].F, s.Dice[x].R = 0, false
		}
	}
	kv := []any{"colour", catalog.ColourLetters[c], "rolled", rolled, "offered", position.DieText(&old), "swapped", swapped}
	if swapped {
		kv = append(kv, "got", position.DieText(&s.Dice[best]))
	}
	s.pub("db.swap", seat, kv...)
	if swapped && old.L == position.LocAR {
		s.autostore(seat)
	}
}

// resolveSpeedup makes a space's deferred effect happen at once (DB-5.6.2).
func (s *state) resolveSpeedup(seat, sp int) {
	p := &s.P[seat]
	bs := &p.Board[sp]
	bs.Done = true
	gainDie := func(c int) {
		id := s.SupplyDie(c)
		s.Dice[id] = position.Die{C: c, O: seat, L: position.LocAR}
		s.roll(id)
		s.pub("db.gain", seat, "what", catalog.ColourLetters[c], "n", 1, "source", catalog.SpaceNames[sp]+"+", "die", position.DieText(&s.Dice[id]))
		s.autostore(seat)
	}
	payDie := func() int {
		id := s.BoardDie(seat, sp, false)
		c := s.Dice[id].C
		s.pub("db.pay", seat, "items", []string{position.DieText(&s.Dice[id])})
		s.toSupply(id)
		return c
	}
	switch sp {
	case catalog.SpMH1, catalog.SpHP1:
		bs.Seed = false
		s.SeedSupply++
		s.pub("db.pay", seat, "items", []string{"SEED"})
		if sp == catalog.SpMH1 {
			gainDie(catalog.ColY)
		} else {
			gainDie(catalog.ColG)
		}
	case catalog.SpMH2:
		payDie()
		gainDie(catalog.ColK)
	case catalog.SpMH3, catalog.SpHP2:
		id := s.BoardDie(seat, sp, false)
		d := &s.Dice[id]
		before := position.DieText(d)
		d.F = min(d.F+s.Rules.ImproveBy, s.Rules.Faces)
		d.L, d.S, d.Up = position.LocST, 0, false
		s.pub("db.improve", seat, "space", catalog.SpaceNames[sp], "from", before, "to", position.DieText(d), "when", "speedup")
	case catalog.SpDS1, catalog.SpDS2:
		payDie()
		n := s.Rules.DS1Seeds
		if sp == catalog.SpDS2 {
			n = s.Rules.DS2Seeds
		}
		s.SeedSupply -= n
		p.Seeds += n
		s.pub("db.gain", seat, "what", "SEED", "n", n, "source", catalog.SpaceNames[sp]+"+")
	case catalog.SpDS3:
		c := payDie()
		coins := s.Rules.DS3Black
		if c == catalog.ColB {
			coins = s.Rules.DS3Blue
		}
		p.Coins += coins
		s.pub("db.gain", seat, "what", "coins", "n", coins, "source", "DS3+")
	}
}

// placeOpt is one legal single item, with its canonical text.
type placeOpt struct {
	it  notation.Item
	key groupKey // the item's die group (seed: owner -1)
	n   int      // dice in the group (seeds: the seeds held)
}

// placeSingles lists the legal single items of a seat now, in canonical
// form (limit > 0 stops early). SS1 appears without its dice (they are
// chosen in the reroll decision); SS2 with each possible swap die.
func (s *state) placeSingles(seat, limit int) []placeOpt {
	var out []placeOpt
	if limit <= 0 {
		out = make([]placeOpt, 0, 32)
	}
	p := &s.P[seat]
	usable := s.OwnUsable(seat)
	gs := s.groups(seat, usable, placeLocs, false)
	total := 0
	for _, g := range gs {
		total += g.n
	}
	var swaps []group
	for sp := 0; sp < catalog.NumSpaces; sp++ {
		for u := 0; u < 2; u++ {
			up := u == 1
			if !s.spaceFree(seat, sp, up) {
				continue
			}
			if !up && (sp == catalog.SpMH1 || sp == catalog.SpHP1) {
				if p.Seeds > 0 {
					out = append(out, placeOpt{it: notation.Item{Space: sp, Seed: true}, key: groupKey{owner: -1}, n: p.Seeds})
					if limit > 0 && len(out) >= limit {
						return out
					}
				}
				continue
			}
			for _, g := range gs {
				d := &s.Dice[g.id]
				if up {
					if d.C != catalog.ColB || d.Value() < s.Rules.Speedup[sp] {
						continue
					}
				} else if s.fitCode(sp, d) != "" {
					continue
				}
				it := notation.Item{Space: sp, Up: up, Die: g.ref}
				k := s.keyOf(g.id)
				switch {
				case up:
				case sp == catalog.SpSS1:
					if total < 2 {
						continue // no other die to reroll (DB-5.5.6)
					}
				case sp == catalog.SpSS2:
					if p.Swapped {
						continue
					}
					if swaps == nil {
						swaps = s.groups(seat, func(id int) bool { return usable(id) && s.Dice[id].C != catalog.ColB }, placeLocs, false)
					}
					for _, w := range swaps {
						if s.SupplyCount(s.Dice[w.id].C) == 0 {
							continue
						}
						ref := w.ref
						out = append(out, placeOpt{it: notation.Item{Space: sp, Die: g.ref, Swap: &ref}, key: k, n: g.n})
						if limit > 0 && len(out) >= limit {
							return out
						}
					}
					continue
				}
				out = append(out, placeOpt{it: it, key: k, n: g.n})
				if limit > 0 && len(out) >= limit {
					return out
				}
			}
		}
	}
	return out
}

// hasPlacement reports whether a seat has any legal placement (DB-5.3.8).
func (s *state) hasPlacement(seat int) bool { return len(s.placeSingles(seat, 1)) > 0 }

// thenUseful reports whether "PLACE <a> THEN" can lead to a second item:
// the first item rolls or gains dice, or another single item would still
// be legal after it (DB-5.3.3, DB-5.3.4).
func (s *state) thenUseful(seat int, a placeOpt, all []placeOpt) bool {
	it := a.it
	if !it.Up && (it.Space == catalog.SpSS1 || it.Space == catalog.SpSS2) {
		return true
	}
	if it.Up && (it.Space == catalog.SpMH1 || it.Space == catalog.SpMH2 || it.Space == catalog.SpHP1) {
		return true
	}
	if !it.Up && s.Rules.Speedup[it.Space] > 0 && s.canDeliver(it.Space) {
		// A speed-up of the same space: another qualifying blue die.
		usable := s.OwnUsable(seat)
		for id := range s.Dice {
			d := &s.Dice[id]
			if usable(id) && d.C == catalog.ColB && d.Value() >= s.Rules.Speedup[it.Space] && (s.keyOf(id) != a.key || a.n > 1) {
				return true
			}
		}
	}
	for _, b := range all {
		if b.it.Space == it.Space {
			continue
		}
		if b.key == a.key && a.n < 2 {
			continue
		}
		return true
	}
	return false
}

// rerollGroups lists the dice groups a seat may still pick for its SS1
// reroll, in canonical order: only groups at or after the last group
// picked, so that every set of dice has exactly one sequence of PICKs.
func (s *state) rerollGroups(seat int) []group {
	picked := map[int]bool{}
	var last *groupKey
	for _, id := range s.Picked {
		picked[id] = true
		k := s.keyOf(id)
		if last == nil || last.less(k) {
			kk := k
			last = &kk
		}
	}
	usable := s.OwnUsable(seat)
	gs := s.groups(seat, func(id int) bool { return usable(id) && !picked[id] }, placeLocs, false)
	if last == nil {
		return gs
	}
	out := gs[:0]
	for _, g := range gs {
		if !s.keyOf(g.id).less(*last) {
			out = append(out, g)
		}
	}
	return out
}

// pickErr accepts dice for an SS1 reroll that are not picked yet.
func (s *state) pickErr(extra map[int]bool) func(id int) error {
	picked := map[int]bool{}
	for _, id := range s.Picked {
		picked[id] = true
	}
	return func(id int) error {
		if picked[id] || extra[id] {
			return engine.Reject("DB-5.5.6", "same_die_twice", "die", position.DieText(&s.Dice[id]))
		}
		return s.usableErr("DB-5.5.6")(id)
	}
}
