package dicebrewing

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/notation"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

func (s *state) tokenAllowed(t int, window string) bool {
	for _, w := range s.TokenWindows(t) {
		if w == window {
			return true
		}
	}
	return false
}

// Search orders of token targets (DB-5.8.7 to DB-5.8.10).
var (
	takeLocs   = []int{position.LocST}
	rerollLocs = []int{position.LocAR, position.LocST, position.LocBoard}
	shieldLocs = []int{position.LocAR, position.LocST}
	plusLocs   = []int{position.LocAR, position.LocST, position.LocBoard}
)

// targetErr checks a die as the target of a token played by actor.
func (s *state) targetErr(actor int, code string) func(id int) error {
	return func(id int) error {
		d := &s.Dice[id]
		text := position.DieText(d)
		if d.F == 0 {
			return engine.Reject("DB-5.8.11", "no_such_die", "die", text)
		}
		if d.ProtectedFrom(actor) {
			return engine.Reject("DB-5.8.9", "die_protected", "die", text, "owner", d.O)
		}
		if d.O == actor && d.Blocked() {
			return engine.Reject("DB-5.8.9", "die_blocked", "die", text, "by", d.Sh-1)
		}
		switch code {
		case catalog.TokTAKE:
			if d.L != position.LocST {
				return engine.Reject("DB-5.8.7", "take_not_stored", "die", text)
			}
		case catalog.TokREROLL:
			if d.L != position.LocAR && d.L != position.LocST && d.L != position.LocBoard {
				return engine.Reject("DB-5.8.10", "no_such_die", "die", text)
			}
		case catalog.TokSHIELD:
			if d.L != position.LocAR && d.L != position.LocST {
				return engine.Reject("DB-5.8.9", "no_such_die", "die", text)
			}
			if d.Sh != 0 {
				return engine.Reject("DB-5.8.9", "already_shielded", "die", text)
			}
		case catalog.TokPLUS:
			if d.O != actor {
				return engine.Reject("DB-5.8.8", "plus_own_only", "die", text)
			}
			if d.L != position.LocAR && d.L != position.LocST && d.L != position.LocBoard {
				return engine.Reject("DB-5.8.8", "no_such_die", "die", text)
			}
			if d.Plus {
				return engine.Reject("DB-5.8.8", "already_plus", "die", text)
			}
			if d.F >= s.Rules.Faces {
				return engine.Reject("DB-5.8.8", "die_at_max", "die", text)
			}
		}
		return nil
	}
}

func locsOf(code string) []int {
	switch code {
	case catalog.TokTAKE:
		return takeLocs
	case catalog.TokREROLL:
		return rerollLocs
	case catalog.TokSHIELD:
		return shieldLocs
	}
	return plusLocs
}

// tokenOptions lists the PLAY commands a seat may play in a window, in
// canonical form (limit > 0 stops early). Window turns of W0 and W3 use it,
// and so do the W1 placement turn and the W2 purchase turn (DB-5.8.3).
func (s *state) tokenOptions(seat int, window string, limit int) []engine.Option {
	var out []engine.Option
	p := &s.P[seat]
	add := func(cmd string, kv ...any) bool {
		o := engine.Option{Cmd: cmd}
		if len(kv) > 0 {
			o.Params = engine.Params(kv...)
		}
		out = append(out, o)
		return limit > 0 && len(out) >= limit
	}
	for t, at := range s.Rules.Tokens {
		if p.Tok[t] == 0 || !s.tokenAllowed(t, window) {
			continue
		}
		code := at.Code
		switch code {
		case catalog.TokBLOCKB:
			for o := range s.P {
				if o == seat {
					continue
				}
				for b := 0; b < catalog.NumBuildings; b++ {
					if s.P[o].BlockB[b] != 0 {
						continue
					}
					if add("PLAY BLOCKB "+s.refName(o)+":"+catalog.BuildingNames[b], "token", code, "seat", o, "building", catalog.BuildingNames[b]) {
						return out
					}
				}
			}
		case catalog.TokBLOCKR:
			for _, c := range s.Display {
				if c == "" || s.RecipeBlocked(c) {
					continue
				}
				if add("PLAY BLOCKR "+c, "token", code, "card", c) {
					return out
				}
			}
		default:
			check := s.targetErr(seat, code)
			locs := locsOf(code)
			for _, g := range s.groups(seat, func(id int) bool {
				d := &s.Dice[id]
				if code == catalog.TokPLUS && d.O != seat {
					return false
				}
				inLocs := false
				for _, l := range locs {
					if d.L == l {
						inLocs = true
					}
				}
				return inLocs && check(id) == nil
			}, nil, true) {
				if add("PLAY "+code+" "+g.ref.String(), "token", code, "seat", s.Dice[g.id].O, "die", position.DieText(&s.Dice[g.id])) {
					return out
				}
			}
		}
	}
	return out
}

// playToken plays an action token (DB-5.8): it checks the window, the
// token and the target, then resolves the effect at once (DB-5.8.11). The
// token is removed from the game (DB-5.8.2).
func (s *state) playToken(seat int, m *notation.Move, window string) error {
	t := s.Rules.Tok(m.Token)
	p := &s.P[seat]
	if p.Tok[t] == 0 {
		return engine.Reject("DB-5.8.1", "no_token", "token", m.Token)
	}
	if !s.tokenAllowed(t, window) {
		return engine.Reject("DB-5.8.3", "token_window", "token", m.Token, "window", window, "allowed", s.TokenWindows(t))
	}
	kv := []any{"token", m.Token}
	switch m.Token {
	case catalog.TokBLOCKB:
		if m.TSeat == seat {
			return engine.Reject("DB-5.8.5", "blockb_self")
		}
		if by := s.P[m.TSeat].BlockB[m.TBuilding]; by != 0 {
			return engine.Reject("DB-5.8.5", "already_blocked", "seat", m.TSeat, "building", catalog.BuildingNames[m.TBuilding])
		}
		s.P[m.TSeat].BlockB[m.TBuilding] = seat + 1
		kv = append(kv, "target", m.TSeat, "building", catalog.BuildingNames[m.TBuilding])
	case catalog.TokBLOCKR:
		if s.InDisplay(m.Card) < 0 {
			return engine.Reject("DB-5.8.6", "not_in_display", "card", m.Card)
		}
		if s.RecipeBlocked(m.Card) {
			return engine.Reject("DB-5.8.6", "recipe_blocked", "card", m.Card)
		}
		s.BlockedR = append(s.BlockedR, m.Card)
		s.BlockRBy = append(s.BlockRBy, seat)
		kv = append(kv, "card", m.Card)
	default:
		r := *m.Target
		owner := seat
		if r.Seat >= 0 {
			owner = r.Seat
		}
		id, err := s.resolve(owner, r, locsOf(m.Token), true, s.targetErr(seat, m.Token))
		if err != nil {
			return err
		}
		d := &s.Dice[id]
		kv = append(kv, "target", owner, "die", position.DieText(d), "where", whereOf(d))
		switch m.Token {
		case catalog.TokTAKE:
			d.L = position.LocAR
		case catalog.TokSHIELD:
			d.Sh = seat + 1
			kv = append(kv, "protect", owner == seat)
		case catalog.TokPLUS:
			d.Plus = true
			kv = append(kv, "to", position.DieText(d))
		case catalog.TokREROLL:
			s.roll(id)
			kv = append(kv, "to", position.DieText(d))
		}
		defer func() {
			if m.Token == catalog.TokREROLL && s.Dice[id].L == position.LocAR {
				s.autostore(owner)
			}
		}()
	}
	p.Tok[t]--
	s.Removed[t]++
	s.pub("db.play", seat, append(kv, "window", window)...)
	return nil
}

// whereOf names a die's place for events and views: "AR", "ST", a slot
// such as "MH3" or "MH3+", or "MARKET".
func whereOf(d *position.Die) string {
	switch d.L {
	case position.LocAR:
		return "AR"
	case position.LocST:
		return "ST"
	case position.LocBoard:
		if d.Up {
			return catalog.SpaceNames[d.S] + "+"
		}
		return catalog.SpaceNames[d.S]
	case position.LocMarket:
		return "MARKET"
	}
	return "SUPPLY"
}
