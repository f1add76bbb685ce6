package dicebrewing

import (
	"fmt"
	"strconv"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

// settle runs the automatic steps of the game (rolls, skips, auto-passes,
// window closings, Tidying, the end of a round) until a seat owes a real
// decision or the game is over (DB-10.5). Turns where a player has nothing
// to do are skipped here, with an event, and never asked.
func (s *state) settle() {
	for guard := 0; guard < 10000; guard++ {
		switch s.Step {
		case position.StepW0, position.StepW3:
			if s.settleWindow() {
				return
			}
			if s.Step == position.StepW0 {
				s.startPlacement()
			} else {
				s.startBrewing()
			}
		case position.StepPlace:
			if s.settlePlace() {
				return
			}
			s.startPurchases()
		case position.StepBuy:
			if s.settleBuy() {
				return
			}
			// DB-5.7.7 / DB-5.1.3: the end of Phase 2 closes storing;
			// DB-5.9.1: Phase 3 opens with window W3.
			s.openWindow(position.StepW3)
		case position.StepBrew:
			if s.settleBrew() {
				return
			}
			s.tidy()
			s.endRound()
		case position.StepOver:
			s.Cur = -1
			return
		default:
			panic(fmt.Sprintf("dicebrewing: unknown step %q", s.Step))
		}
	}
	panic("dicebrewing: the game did not settle")
}

// startRound begins round r: the roll of every Active Reserve (DB-5.2.1),
// the standing AUTOSTORE orders, then window W0 (DB-5.2.3).
func (s *state) startRound(r int) {
	s.Round = r
	s.Step = position.StepW0
	s.Cur, s.Sub = -1, position.SubNone
	s.pub("db.round", -1, "round", r, "summer", s.Summer, "order", s.Order(), "priority", s.Priority)
	for _, seat := range s.Order() {
		ids := s.DiceAt(seat, position.LocAR)
		if len(ids) == 0 {
			continue
		}
		for _, id := range ids {
			s.roll(id)
		}
		s.pub("db.roll", seat, "dice", s.DiceTexts(ids), "why", "start")
	}
	for _, seat := range s.Order() {
		s.autostore(seat)
	}
	s.openWindow(position.StepW0)
}

// openWindow opens W0 or W3 (DB-5.8.4): every player may take window turns
// in player order, starting with the priority holder.
func (s *state) openWindow(step string) {
	s.Step = step
	s.Cur, s.From, s.Sub = -1, 0, position.SubNone
	for i := range s.P {
		s.P[i].WinDone = false
	}
}

// settleWindow finds the next window turn (DB-5.8.4): round-robin from the
// seat after the last one who acted, skipping players who said DONE since
// the last token played, players with a standing TOKENS NONE and players
// with no token playable now. It reports false when the window closes.
func (s *state) settleWindow() bool {
	if s.Cur >= 0 {
		if s.canActInWindow(s.Cur) {
			return true
		}
		s.From = s.Rank(s.Cur) + 1
		s.Cur = -1
	}
	for i := 0; i < s.N; i++ {
		seat := s.SeatAt(s.From + i)
		if s.canActInWindow(seat) {
			s.Cur, s.From = seat, s.Rank(seat)
			return true
		}
	}
	return false
}

func (s *state) canActInWindow(seat int) bool {
	p := &s.P[seat]
	return !p.WinDone && p.TokensNone == position.TNNone && len(s.tokenOptions(seat, s.WindowName(), 1)) > 0
}

// startPlacement begins the placement turns (DB-5.3.1).
func (s *state) startPlacement() {
	s.Step = position.StepPlace
	s.Cur, s.From, s.Sub = -1, 0, position.SubNone
	s.pub("db.phase", -1, "phase", "place", "round", s.Round)
}

// settlePlace finds the next placement turn: round-robin in player order,
// skipping passed players and passing those with no legal placement
// (DB-5.3.1, DB-5.3.8). It reports false when every player has passed.
func (s *state) settlePlace() bool {
	if s.Cur >= 0 {
		switch s.Sub {
		case position.SubNone:
			if s.hasPlacement(s.Cur) {
				return true
			}
			s.autoPass(s.Cur)
		case position.SubSecond:
			if len(s.placeSingles(s.Cur, 1)) > 0 {
				return true
			}
			s.pub("db.turn_end", s.Cur, "auto", true)
			s.endPlaceTurn()
		case position.SubReroll:
			if len(s.Picked) > 0 || len(s.rerollGroups(s.Cur)) > 0 {
				return true
			}
			s.endPlaceTurn()
		}
	}
	for i := 0; i < s.N; i++ {
		seat := s.SeatAt(s.From + i)
		if s.P[seat].Passed {
			continue
		}
		if !s.hasPlacement(seat) {
			s.autoPass(seat)
			continue
		}
		s.Cur, s.From, s.Sub = seat, s.Rank(seat), position.SubNone
		return true
	}
	return false
}

// autoPass passes a player who has no legal placement (DB-5.3.8).
func (s *state) autoPass(seat int) {
	s.P[seat].Passed = true
	s.pub("db.pass", seat, "phase", "place", "auto", true)
	if s.Cur == seat {
		s.Cur, s.Sub = -1, position.SubNone
		s.From = s.Rank(seat) + 1
	}
}

// endPlaceTurn ends the current placement turn; play goes to the next
// player in order.
func (s *state) endPlaceTurn() {
	seat := s.Cur
	s.P[seat].Turns++
	s.Cur, s.Sub = -1, position.SubNone
	s.Picked, s.PickThen = nil, false
	s.From = s.Rank(seat) + 1
}

// startPurchases begins Phase 2 (DB-5.7.1): one purchase turn per player.
func (s *state) startPurchases() {
	s.Step = position.StepBuy
	s.Cur, s.From, s.Sub = -1, 0, position.SubNone
	s.pub("db.phase", -1, "phase", "buy", "round", s.Round)
}

// settleBuy finds the next purchase turn. A turn is skipped when there is
// nothing the player could buy (DB-5.7.6); once begun it lasts while the
// player can buy or play a token, until NOBUY (DB-10.1a).
func (s *state) settleBuy() bool {
	if s.Cur >= 0 {
		if s.canBuyAny(s.Cur) || len(s.tokenOptions(s.Cur, catalog.WinW2, 1)) > 0 {
			return true
		}
		s.pub("db.buy_end", s.Cur, "auto", true)
		s.endBuyTurn()
	}
	for r := s.From; r < s.N; r++ {
		seat := s.SeatAt(r)
		if s.P[seat].BuyDone {
			continue
		}
		if !s.canBuyAny(seat) {
			s.P[seat].BuyDone = true
			s.pub("db.skip", seat, "phase", "buy", "why", s.noBuyReason(seat))
			continue
		}
		s.Cur, s.From = seat, r
		return true
	}
	return false
}

func (s *state) endBuyTurn() {
	seat := s.Cur
	s.P[seat].BuyDone = true
	s.Cur = -1
	s.From = s.Rank(seat) + 1
}

// startBrewing begins the brewing turns (DB-5.9.1).
func (s *state) startBrewing() {
	s.Step = position.StepBrew
	s.Cur, s.From, s.Sub = -1, 0, position.SubNone
	for i := range s.P {
		s.P[i].BrewPass, s.P[i].BrewSkip = -1, false
	}
	s.pub("db.phase", -1, "phase", "brew", "round", s.Round)
}

// settleBrew finds the next brewing turn (DB-5.9.2, DB-5.9.7): round-robin,
// skipping players who passed (unless a card was revealed since) and those
// with nothing brewable. It reports false when Phase 3 is over.
func (s *state) settleBrew() bool {
	if s.Cur >= 0 {
		if s.Sub == position.SubReward || s.hasBrewable(s.Cur) {
			return true
		}
		s.From = s.Rank(s.Cur) + 1
		s.Cur = -1
	}
	for i := 0; i < s.N; i++ {
		seat := s.SeatAt(s.From + i)
		p := &s.P[seat]
		if p.BrewPass >= 0 && p.BrewPass == s.Reveals {
			continue
		}
		if !s.hasBrewable(seat) {
			if !p.BrewSkip {
				p.BrewSkip = true
				s.pub("db.skip", seat, "phase", "brew", "why", "nothing_brewable")
			}
			continue
		}
		s.Cur, s.From, s.Sub = seat, s.Rank(seat), position.SubNone
		return true
	}
	return false
}

// claim is a gain that Tidying could not fill yet (DB-5.10.3).
type claim struct {
	seat int
	kind int // a colour index, or kindSeed
}

const kindSeed = catalog.NumColours

func kindName(k int) string {
	if k == kindSeed {
		return "SEED"
	}
	return catalog.ColourLetters[k]
}

// tidy runs Phase 4 (DB-5.10): each player's steps T1 to T3 in player
// order, pending claims, then the cleanup.
func (s *state) tidy() {
	s.Step = "tidy"
	s.Cur = -1
	s.pub("db.phase", -1, "phase", "tidy", "round", s.Round)
	var pending []claim
	// fill satisfies pending claims of a kind after something returned to
	// the supply (DB-5.10.4), the earliest player in order first.
	fill := func(kind int) {
		kept := pending[:0]
		for _, c := range pending {
			if c.kind == kind && s.give(c.seat, kind, "claim") {
				s.pub("db.claim", c.seat, "what", kindName(kind), "state", "filled")
				continue
			}
			kept = append(kept, c)
		}
		pending = kept
	}
	want := func(seat, kind int, source string) {
		if !s.give(seat, kind, source) {
			pending = append(pending, claim{seat: seat, kind: kind})
			s.pub("db.claim", seat, "what", kindName(kind), "state", "pending")
		}
	}
	for _, seat := range s.Order() {
		p := &s.P[seat]
		// DB-5.8.5 (block_building_timing = brewing): pending effects of a
		// blocked building do not happen; the items go back unchanged.
		for b := 0; b < catalog.NumBuildings; b++ {
			if p.BlockB[b] == 0 || s.H.Options[position.OptBlockB] != "brewing" {
				continue
			}
			var back []string
			for sp := 0; sp < catalog.NumSpaces; sp++ {
				bs := &p.Board[sp]
				if catalog.SpaceBuilding[sp] != b || !bs.Used || bs.Done {
					continue
				}
				bs.Done = true
				if bs.Seed {
					bs.Seed = false
					p.Seeds++
					back = append(back, "SEED")
				}
				if id := s.BoardDie(seat, sp, false); id >= 0 {
					s.Dice[id].L = position.LocAR
					back = append(back, position.DieText(&s.Dice[id]))
				}
			}
			if len(back) > 0 {
				s.pub("db.cancel", seat, "building", catalog.BuildingNames[b], "items", back)
			}
		}
		// T1: value changes (DB-5.5.3, DB-5.5.5).
		for _, sp := range []int{catalog.SpMH3, catalog.SpHP2} {
			bs := &p.Board[sp]
			if !bs.Used || bs.Done {
				continue
			}
			bs.Done = true
			id := s.BoardDie(seat, sp, false)
			d := &s.Dice[id]
			before := position.DieText(d)
			d.F = min(d.F+s.Rules.ImproveBy, s.Rules.Faces)
			d.Plus = false
			d.L, d.S, d.Up = position.LocST, 0, false
			s.pub("db.improve", seat, "space", catalog.SpaceNames[sp], "from", before, "to", position.DieText(d), "when", "tidy")
		}
		// T2: returns of blue dice (DB-5.6.3, DB-5.7.4, DB-5.5.8).
		var back []int
		ss3 := false
		for i := range s.Dice {
			d := &s.Dice[i]
			if d.O != seat {
				continue
			}
			if d.L == position.LocMarket || (d.L == position.LocBoard && (d.Up || catalog.SpaceBuilding[d.S] == catalog.BSS)) {
				if d.L == position.LocBoard && d.S == catalog.SpSS3 && !d.Up && !p.Board[catalog.SpSS3].Done {
					ss3 = true
				}
				d.L, d.S, d.Up = position.LocAR, 0, false
				back = append(back, i)
			}
		}
		if len(back) > 0 {
			s.pub("db.return", seat, "dice", s.DiceTexts(back))
		}
		if ss3 {
			p.Board[catalog.SpSS3].Done = true
			want(seat, catalog.ColB, "SS3")
		}
		// T3: payments first (DB-5.10.1, DB-5.10.2), then the claims.
		var paid []string
		var gains []func()
		if bs := &p.Board[catalog.SpMH1]; bs.Used && !bs.Done && bs.Seed {
			bs.Seed, bs.Done = false, true
			s.SeedSupply++
			paid = append(paid, "SEED")
			gains = append(gains, func() { want(seat, catalog.ColY, "MH1") })
			fill(kindSeed)
		}
		if bs := &p.Board[catalog.SpHP1]; bs.Used && !bs.Done && bs.Seed {
			bs.Seed, bs.Done = false, true
			s.SeedSupply++
			paid = append(paid, "SEED")
			gains = append(gains, func() { want(seat, catalog.ColG, "HP1") })
			fill(kindSeed)
		}
		for _, sp := range []int{catalog.SpMH2, catalog.SpDS1, catalog.SpDS2, catalog.SpDS3} {
			bs := &p.Board[sp]
			if !bs.Used || bs.Done {
				continue
			}
			bs.Done = true
			id := s.BoardDie(seat, sp, false)
			c := s.Dice[id].C
			paid = append(paid, position.DieText(&s.Dice[id]))
			s.toSupply(id)
			switch sp {
			case catalog.SpMH2:
				gains = append(gains, func() { want(seat, catalog.ColK, "MH2") })
			case catalog.SpDS1:
				gains = append(gains, func() {
					for k := 0; k < s.Rules.DS1Seeds; k++ {
						want(seat, kindSeed, "DS1")
					}
				})
			case catalog.SpDS2:
				gains = append(gains, func() {
					for k := 0; k < s.Rules.DS2Seeds; k++ {
						want(seat, kindSeed, "DS2")
					}
				})
			case catalog.SpDS3:
				coins := s.Rules.DS3Black
				if c == catalog.ColB {
					coins = s.Rules.DS3Blue
				}
				gains = append(gains, func() {
					s.P[seat].Coins += coins
					s.pub("db.gain", seat, "what", "coins", "n", coins, "source", "DS3")
				})
			}
			fill(c)
		}
		if len(paid) > 0 {
			s.pub("db.pay", seat, "items", paid)
		}
		for _, g := range gains {
			g()
		}
	}
	for _, c := range pending {
		s.pub("db.claim", c.seat, "what", kindName(c.kind), "state", "lost")
	}
	s.cleanup()
}

// give moves one die (into AR, unrolled) or one seed (into ST) from the
// supply to a seat; it reports false when the supply has none (DB-2.2).
func (s *state) give(seat, kind int, source string) bool {
	if kind == kindSeed {
		if s.SeedSupply == 0 {
			return false
		}
		s.SeedSupply--
		s.P[seat].Seeds++
		if source != "claim" {
			s.pub("db.gain", seat, "what", "SEED", "n", 1, "source", source)
		}
		return true
	}
	id := s.SupplyDie(kind)
	if id < 0 {
		return false
	}
	s.Dice[id] = position.Die{C: kind, O: seat, L: position.LocAR}
	if source != "claim" {
		s.pub("db.gain", seat, "what", catalog.ColourLetters[kind], "n", 1, "source", source)
	}
	return true
}

// cleanup ends Tidying (DB-5.10.5, DB-5.10.6): boards are empty, the
// effects of used tokens end, and the round's flags are cleared.
func (s *state) cleanup() {
	for i := range s.Dice {
		d := &s.Dice[i]
		d.Plus, d.Sh, d.R = false, 0, false
	}
	s.BlockedR, s.BlockRBy = nil, nil
	s.Uses = [catalog.NumSpaces]int{}
	for i := range s.P {
		p := &s.P[i]
		p.Board = [catalog.NumSpaces]position.Space{}
		p.BlockB = [catalog.NumBuildings]int{}
		p.Passed, p.Turns, p.BoughtM, p.BoughtBM, p.BuyDone, p.Swapped = false, 0, false, false, false, false
		p.CreditUsed, p.WinDone, p.BrewPass, p.BrewSkip = 0, false, -1, false
		if p.TokensNone == position.TNRound {
			p.TokensNone = position.TNNone
		}
	}
}

// endRound passes the Season/Priority token (DB-5.11.1), hands out the
// Summer seeds (DB-5.11.2) and ends the game or starts the next round
// (DB-5.11.3, DB-7.1).
func (s *state) endRound() {
	s.Priority = (s.Priority + 1) % s.N
	s.Summer = !s.Summer
	s.pub("db.season", s.Priority, "summer", s.Summer, "round", s.Round)
	if s.Summer {
		for _, seat := range s.Order() {
			n := min(s.Rules.SummerSeeds, s.SeedSupply)
			if n == 0 {
				break
			}
			s.SeedSupply -= n
			s.P[seat].Seeds += n
			s.pub("db.gain", seat, "what", "SEED", "n", n, "source", "summer")
		}
	}
	if s.BrewedAll >= s.Target() || s.roundLimitReached() {
		s.Step = position.StepOver
		s.Cur, s.Sub = -1, position.SubNone
		res := s.Result()
		totals := make([]int, len(res.Scores))
		for i, sc := range res.Scores {
			totals[i] = sc.Total
		}
		s.pub(engine.EvGameOver, -1, "rank", res.Rank, "totals", totals, "brewed", s.BrewedAll, "round", s.Round)
		return
	}
	s.startRound(s.Round + 1)
}

// roundLimitReached reports whether the round_limit house rule ends the
// game after this round (not in the rulebook; off by default).
func (s *state) roundLimitReached() bool {
	l := s.H.Options[position.OptLimit]
	if l == "" || l == "none" {
		return false
	}
	n, err := strconv.Atoi(l)
	return err == nil && s.Round >= n
}

// Pending implements engine.State.
func (s *state) Pending() []engine.Decision {
	if s.Step == position.StepOver || s.Cur < 0 {
		return nil
	}
	return []engine.Decision{s.decision()}
}
