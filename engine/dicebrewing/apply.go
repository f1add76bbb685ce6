package dicebrewing

import (
	"fmt"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/notation"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

// slot returns the queue slot of a step of the current round.
func (s *state) slot(name string) string { return fmt.Sprintf("r%d.%s", s.Round, name) }

// kind returns the kind of the decision owed now (s.Cur >= 0).
func (s *state) kind() string {
	switch s.Step {
	case position.StepW0, position.StepW3:
		return position.KindWindow
	case position.StepPlace:
		switch s.Sub {
		case position.SubSecond:
			return position.KindSecond
		case position.SubReroll:
			return position.KindReroll
		}
		return position.KindPlace
	case position.StepBuy:
		return position.KindBuy
	case position.StepBrew:
		if s.Sub == position.SubReward {
			return position.KindReward
		}
		return position.KindBrew
	}
	return ""
}

// decision returns the decision owed now (s.Cur >= 0).
func (s *state) decision() engine.Decision {
	d := engine.Decision{Seat: s.Cur, Mode: engine.Sequential, Rank: s.Rank(s.Cur),
		Params: map[string]any{"round": s.Round, "summer": s.Summer}}
	switch s.Step {
	case position.StepW0, position.StepW3:
		d.Kind, d.Slot, d.Pass, d.Default = position.KindWindow, s.slot(s.Step), "DONE", "DONE"
		d.Params["window"] = s.WindowName()
	case position.StepPlace:
		p := &s.P[s.Cur]
		d.Params["turn"] = p.Turns + 1
		switch s.Sub {
		case position.SubSecond:
			d.Kind, d.Slot, d.Pass, d.Default = position.KindSecond, s.slot("place"), "END", "END"
		case position.SubReroll:
			d.Kind, d.Slot, d.Default = position.KindReroll, s.slot("reroll"), s.rerollDefault()
			d.Params["picked"] = s.DiceTexts(s.Picked)
		default:
			d.Kind, d.Slot, d.Pass, d.Default = position.KindPlace, s.slot("place"), "PASS", "PASS"
		}
	case position.StepBuy:
		d.Kind, d.Slot, d.Pass, d.Default = position.KindBuy, s.slot("buy"), "NOBUY", "NOBUY"
	case position.StepBrew:
		if s.Sub == position.SubReward {
			d.Kind, d.Slot, d.Default = position.KindReward, s.slot("reward"), "GET "+s.defaultChoice()
			d.Params["card"] = s.Reward.Card
			d.Params["need"] = s.Reward.Needs[0]
		} else {
			d.Kind, d.Slot, d.Pass, d.Default = position.KindBrew, s.slot("brew"), "PASS", "PASS"
		}
	}
	return d
}

// rerollDefault is the deadline move of the reroll decision: reroll what
// is picked, or else the lowest die.
func (s *state) rerollDefault() string {
	if len(s.Picked) > 0 {
		return "REROLL"
	}
	gs := s.rerollGroups(s.Cur)
	if len(gs) == 0 {
		return "REROLL"
	}
	best := gs[0]
	for _, g := range gs[1:] {
		if s.Dice[g.id].Value() < s.Dice[best.id].Value() {
			best = g
		}
	}
	return "REROLL " + best.ref.String()
}

// Legal implements engine.State. Every list is complete up to moves that
// are outcome-equivalent or dominated, as doc.go explains: a placement
// turn's second item is chosen after the first (PLACE ... THEN), the dice
// of an SS1 reroll one group at a time (PICK), and brews use the default
// dice selection.
func (s *state) Legal(d engine.Decision) []engine.Option {
	if s.Cur < 0 || d.Seat != s.Cur || d.Kind != s.kind() {
		return nil
	}
	seat := d.Seat
	out := make([]engine.Option, 0, 32)
	opt := func(cmd string) { out = append(out, engine.Option{Cmd: cmd}) }
	switch d.Kind {
	case position.KindWindow:
		out = append(out, s.tokenOptions(seat, s.WindowName(), 0)...)
		opt("DONE")
	case position.KindPlace, position.KindSecond:
		singles := s.placeSingles(seat, 0)
		for _, a := range singles {
			m := &notation.Move{Verb: "PLACE", Items: []notation.Item{a.it}}
			out = append(out, engine.Option{Cmd: m.String()})
			if d.Kind == position.KindPlace && s.thenUseful(seat, a, singles) {
				m.Then = true
				out = append(out, engine.Option{Cmd: m.String()})
			}
		}
		if d.Kind == position.KindPlace {
			out = append(out, s.tokenOptions(seat, catalog.WinW1, 0)...)
		}
		out = append(out, s.storeOptions(seat)...)
		if d.Kind == position.KindSecond {
			opt("END")
		}
		opt("PASS")
	case position.KindReroll:
		for _, g := range s.rerollGroups(seat) {
			opt("PICK " + g.ref.String())
		}
		if len(s.Picked) > 0 {
			opt("REROLL")
		}
	case position.KindBuy:
		out = append(out, s.buyOptions(seat)...)
		out = append(out, s.tokenOptions(seat, catalog.WinW2, 0)...)
		out = append(out, s.storeOptions(seat)...)
		opt("NOBUY")
	case position.KindBrew:
		out = append(out, s.brewOptions(seat)...)
		opt("PASS")
	case position.KindReward:
		for _, c := range s.rewardOptions() {
			opt("GET " + c)
		}
	}
	return s.grouped(out)
}

// storeOptions lists one STORE per group of dice a seat may store now. The
// store is a free action; it is listed in the seat's own turns so that
// numbered replies and bots can use it (DB-5.1.1).
func (s *state) storeOptions(seat int) []engine.Option {
	if !s.storingOpen() {
		return nil
	}
	var out []engine.Option
	for _, g := range s.groups(seat, func(id int) bool {
		d := &s.Dice[id]
		return d.O == seat && d.L == position.LocAR && !d.Blocked()
	}, []int{position.LocAR}, false) {
		out = append(out, engine.Option{Cmd: "STORE " + g.ref.String()})
	}
	return out
}

// storingOpen reports whether dice may be stored now (DB-5.1.1, DB-5.1.3).
func (s *state) storingOpen() bool {
	return s.Step == position.StepW0 || s.Step == position.StepPlace || s.Step == position.StepBuy
}

// Apply implements engine.State.
func (s *state) Apply(seat int, mv engine.Move) ([]engine.Event, error) {
	m, ok := mv.(*notation.Move)
	if !ok {
		return nil, engine.Reject("", engine.CodeSyntax, "line", mv.String())
	}
	if seat < 0 || seat >= s.N {
		return nil, engine.Reject("", engine.CodeNotSeated, "seat", seat)
	}
	// The NOBUY that Route appends to a message's purchase lines does
	// nothing once the turn is over (DB-10.1a), also when a purchase ended
	// the game (round_limit: the last brewing turns are forced); any other
	// move is refused (DB-7.1).
	if s.Step == position.StepOver && m.Verb != "NOBUY" {
		return nil, engine.Reject("DB-7.1", engine.CodeGameOver)
	}
	s.ev = nil
	var err error
	switch m.Verb {
	case "STORE":
		err = s.store(seat, m)
	case "AUTOSTORE":
		p := &s.P[seat]
		p.AutoStore, p.AutoStoreB = m.N, m.Blue
		s.emit(engine.NewEvent("db.autostore", seat, engine.Only(seat), "n", m.N, "blue", m.Blue))
		if m.N > 0 {
			s.autostore(seat)
		}
	case "TOKENS":
		p := &s.P[seat]
		switch m.Scope {
		case "ROUND":
			p.TokensNone = position.TNRound
		case "GAME":
			p.TokensNone = position.TNGame
		default:
			p.TokensNone = position.TNNone
		}
		s.emit(engine.NewEvent("db.tokens", seat, engine.Only(seat), "scope", m.Scope))
		if p.TokensNone != position.TNNone && s.Cur == seat && (s.Step == position.StepW0 || s.Step == position.StepW3) {
			// The standing DONE answers the window turn at once.
			p.WinDone = true
			s.From = s.Rank(seat) + 1
			s.Cur = -1
			s.pub("db.done", seat, "window", s.WindowName(), "auto", true)
		}
	case "NOBUY":
		if s.Step != position.StepBuy || s.Cur != seat {
			// NOBUY outside one's purchase turn does nothing: it closes
			// the purchase lines of a message (see Route, DB-10.1a).
			break
		}
		err = s.decide(seat, m)
	default:
		err = s.decide(seat, m)
	}
	if err != nil {
		s.ev = nil
		return nil, err
	}
	s.H.Moves++
	s.settle()
	evs := s.ev
	s.ev = nil
	return evs, nil
}

// store moves dice from AR to ST (DB-5.1).
func (s *state) store(seat int, m *notation.Move) error {
	if !s.storingOpen() {
		return engine.Reject("DB-5.1.3", "storing_closed")
	}
	var ids []int
	if m.All {
		for id := range s.Dice {
			d := &s.Dice[id]
			if d.O == seat && d.L == position.LocAR && !d.Blocked() && d.F > 0 && d.Value() >= m.AllMin {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			return engine.Reject("DB-5.1.1", "nothing_to_store")
		}
	} else {
		used := map[int]bool{}
		for _, r := range m.Dice {
			if r.Seat >= 0 && r.Seat != seat {
				return engine.Reject("DB-5.1.1", "not_your_die", "die", r.String())
			}
			id, err := s.resolve(seat, r, []int{position.LocAR}, false, func(id int) error {
				d := &s.Dice[id]
				if used[id] {
					return engine.Reject("DB-5.1.1", "same_die_twice", "die", position.DieText(d))
				}
				if d.L != position.LocAR {
					return engine.Reject("DB-5.1.2", "not_in_ar", "die", position.DieText(d))
				}
				if d.Blocked() {
					return engine.Reject("DB-5.1.4", "die_blocked", "die", position.DieText(d), "by", d.Sh-1)
				}
				return nil
			})
			if err != nil {
				if re, ok := engine.AsRuleError(err); ok && re.Code == "no_such_die" && r.Loc == notation.RefAny {
					// Say so when the die is already stored (DB-5.1.2).
					if _, e2 := s.resolve(seat, r, []int{position.LocST}, false, nil); e2 == nil {
						return engine.Reject("DB-5.1.2", "not_in_ar", "die", r.String())
					}
				}
				return err
			}
			used[id] = true
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		s.Dice[id].L = position.LocST
	}
	s.pub("db.store", seat, "dice", s.DiceTexts(ids), "auto", false)
	return nil
}

// decide applies a move that answers the seat's pending decision.
func (s *state) decide(seat int, m *notation.Move) error {
	if s.Cur != seat {
		if s.Step == position.StepPlace && s.P[seat].Passed && (m.Verb == "PLACE" || m.Verb == "PASS") {
			return engine.Reject("DB-5.3.7", "already_passed")
		}
		if s.Cur < 0 {
			return engine.Reject("", engine.CodeNotYourTurn)
		}
		return engine.Reject("", engine.CodeNotYourTurn, "waiting_for", []int{s.Cur})
	}
	kind := s.kind()
	wrong := func() error { return engine.Reject("", engine.CodeWrongDecision, "kind", kind, "verb", m.Verb) }
	switch kind {
	case position.KindWindow:
		switch m.Verb {
		case "PLAY":
			if err := s.playToken(seat, m, s.WindowName()); err != nil {
				return err
			}
			// DB-5.8.4: a token played gives every other player another turn.
			for i := range s.P {
				if i != seat {
					s.P[i].WinDone = false
				}
			}
		case "DONE":
			s.P[seat].WinDone = true
			s.pub("db.done", seat, "window", s.WindowName(), "auto", false)
		default:
			return wrong()
		}
		s.From = s.Rank(seat) + 1
		s.Cur = -1
		return nil
	case position.KindPlace:
		switch m.Verb {
		case "PLAY":
			return s.playToken(seat, m, catalog.WinW1)
		case "PASS":
			s.pass(seat)
			return nil
		case "PLACE":
			return s.placeTurn(seat, m)
		}
		return wrong()
	case position.KindSecond:
		switch m.Verb {
		case "END":
			s.pub("db.turn_end", seat, "auto", false)
			s.endPlaceTurn()
			return nil
		case "PASS":
			s.pub("db.turn_end", seat, "auto", false)
			s.endPlaceTurn()
			s.P[seat].Passed = true
			s.pub("db.pass", seat, "phase", "place", "auto", false)
			return nil
		case "PLACE":
			if len(m.Items) != 1 || m.Then {
				return engine.Reject("DB-5.3.3", "one_more_item")
			}
			pl, err := s.checkItem(seat, m.Items[0])
			if err != nil {
				return err
			}
			if s.applyItem(seat, pl) {
				s.Sub, s.PickThen = position.SubReroll, false
				return nil
			}
			s.endPlaceTurn()
			return nil
		}
		return wrong()
	case position.KindReroll:
		switch m.Verb {
		case "PICK", "REROLL":
			extra := map[int]bool{}
			var ids []int
			for _, r := range m.Dice {
				if r.Seat >= 0 && r.Seat != seat {
					return engine.Reject("DB-5.5.6", "not_your_die", "die", r.String())
				}
				id, err := s.resolve(seat, r, placeLocs, false, s.pickErr(extra))
				if err != nil {
					return err
				}
				extra[id] = true
				ids = append(ids, id)
			}
			if m.Verb == "PICK" {
				s.Picked = append(s.Picked, ids...)
				s.pub("db.pick", seat, "dice", s.DiceTexts(ids))
				return nil
			}
			all := append(append([]int(nil), s.Picked...), ids...)
			if len(all) == 0 {
				return engine.Reject("DB-5.5.6", "nothing_picked")
			}
			s.Picked = nil
			s.rerollDice(seat, all, "SS1")
			if s.PickThen {
				s.Sub, s.PickThen = position.SubSecond, false
				return nil
			}
			s.endPlaceTurn()
			return nil
		}
		return wrong()
	case position.KindBuy:
		switch m.Verb {
		case "BUY":
			return s.buy(seat, m)
		case "PLAY":
			return s.playToken(seat, m, catalog.WinW2)
		case "NOBUY", "DONE", "PASS":
			s.pub("db.buy_end", seat, "auto", false)
			s.endBuyTurn()
			return nil
		}
		return wrong()
	case position.KindBrew:
		switch m.Verb {
		case "BREW":
			pl, err := s.checkBrew(seat, m)
			if err != nil {
				return err
			}
			s.applyBrew(seat, m, pl)
			return nil
		case "PASS":
			s.P[seat].BrewPass = s.Reveals
			s.pub("db.pass", seat, "phase", "brew", "auto", false)
			s.endBrewTurn()
			return nil
		}
		return wrong()
	case position.KindReward:
		if m.Verb != "GET" {
			return wrong()
		}
		return s.applyGet(seat, m)
	}
	return wrong()
}

// pass ends a player's placement for the round (DB-5.3.2, DB-5.3.7).
func (s *state) pass(seat int) {
	s.P[seat].Passed = true
	s.pub("db.pass", seat, "phase", "place", "auto", false)
	s.Cur, s.Sub = -1, position.SubNone
	s.From = s.Rank(seat) + 1
}

// placeTurn plays a placement turn (DB-5.3.3, DB-5.3.4): the first item
// must be legal; the second is checked after the first has resolved and is
// dropped, with an event, if it has become illegal.
func (s *state) placeTurn(seat int, m *notation.Move) error {
	pl, err := s.checkItem(seat, m.Items[0])
	if err != nil {
		return err
	}
	if s.applyItem(seat, pl) {
		s.Sub, s.PickThen = position.SubReroll, m.Then
		return nil
	}
	if len(m.Items) == 2 {
		pl2, err := s.checkItem(seat, m.Items[1])
		if err != nil {
			re, _ := engine.AsRuleError(err)
			ev := engine.NewEvent("db.item_dropped", seat, engine.Public, "item", m.Items[1].String(), "code", re.Code, "rule", re.Rule, "params", re.Params)
			ev.Err = re // the partial echo reads Err, never "code" (issue 21)
			s.emit(ev)
			s.endPlaceTurn()
			return nil
		}
		if s.applyItem(seat, pl2) {
			s.Sub, s.PickThen = position.SubReroll, false
			return nil
		}
		s.endPlaceTurn()
		return nil
	}
	if m.Then {
		s.Sub = position.SubSecond
		return nil
	}
	s.endPlaceTurn()
	return nil
}
