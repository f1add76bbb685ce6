package dicebrewing

import (
	"fmt"

	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

// Check implements engine.State: it verifies the invariants of a position.
//
//   - Dice are conserved (14/14/12/10 by default, DB-2.1): each die is in
//     the supply or with one player, in AR, ST, one board slot or on the
//     Market; board dice match the board's records; faces are in range.
//   - Seeds (DB-2.3), special ingredients and action tokens are conserved:
//     supply + players + board = 6 seeds; Market + players = the stocks;
//     Black Market + owned + used = the stocks (at most 18), and used
//     tokens never come back (DB-5.8.2).
//   - No negative coins, XP or stock; cards are conserved (display, deck,
//     brewed piles) and the brewed count matches the piles.
//   - The turn state is consistent with the step.
func (s *state) Check() error {
	r := s.Rules
	if s.N < 2 || s.N > 4 || len(s.P) != s.N {
		return fmt.Errorf("%d players", s.N)
	}
	if len(s.Dice) != r.TotalDice() {
		return fmt.Errorf("%d dice, want %d", len(s.Dice), r.TotalDice())
	}
	var perColour [catalog.NumColours]int
	var slotDie [4][catalog.NumSpaces][2]int
	var marketDice [4]int
	for id := range s.Dice {
		d := &s.Dice[id]
		if d.C < 0 || d.C >= catalog.NumColours {
			return fmt.Errorf("die %d has colour %d", id, d.C)
		}
		perColour[d.C]++
		if d.F < 0 || d.F > r.Faces {
			return fmt.Errorf("die %d shows %d", id, d.F)
		}
		if d.L == position.LocSupply {
			if d.O != -1 || d.F != 0 || d.Plus || d.Sh != 0 || d.R {
				return fmt.Errorf("supply die %d carries state %+v", id, *d)
			}
			continue
		}
		if d.O < 0 || d.O >= s.N {
			return fmt.Errorf("die %d has owner %d", id, d.O)
		}
		switch d.L {
		case position.LocAR:
		case position.LocST, position.LocBoard, position.LocMarket:
			if d.F == 0 {
				return fmt.Errorf("die %d is unrolled at location %d", id, d.L)
			}
		default:
			return fmt.Errorf("die %d has location %d", id, d.L)
		}
		if d.L == position.LocBoard {
			if d.S < 0 || d.S >= catalog.NumSpaces {
				return fmt.Errorf("die %d on space %d", id, d.S)
			}
			slotDie[d.O][d.S][b2i(d.Up)]++
			if slotDie[d.O][d.S][b2i(d.Up)] > 1 {
				return fmt.Errorf("two dice in %s%s of seat %d", catalog.SpaceNames[d.S], plusIf(d.Up), d.O)
			}
			bs := s.P[d.O].Board[d.S]
			if !bs.Used {
				return fmt.Errorf("die %d on unused space %s", id, catalog.SpaceNames[d.S])
			}
			if d.Up && d.C != catalog.ColB {
				return fmt.Errorf("a non-blue die in speed-up slot %s+", catalog.SpaceNames[d.S])
			}
		}
		if d.L == position.LocMarket {
			marketDice[d.O]++
			if d.C != catalog.ColB || marketDice[d.O] > 1 || !s.P[d.O].BoughtM {
				return fmt.Errorf("bad Market die %d of seat %d", id, d.O)
			}
		}
		if d.Sh < 0 || d.Sh > s.N {
			return fmt.Errorf("die %d has shield mark %d", id, d.Sh)
		}
	}
	for c := 0; c < catalog.NumColours; c++ {
		if perColour[c] != r.DiceCount[c] {
			return fmt.Errorf("%d %s dice, want %d", perColour[c], catalog.ColourLetters[c], r.DiceCount[c])
		}
	}
	// Seeds.
	seeds := s.SeedSupply
	if s.SeedSupply < 0 {
		return fmt.Errorf("seed supply %d", s.SeedSupply)
	}
	for seat := range s.P {
		p := &s.P[seat]
		if p.Seeds < 0 || p.Coins < 0 || p.XP < 0 {
			return fmt.Errorf("seat %d: seeds %d, coins %d, xp %d", seat, p.Seeds, p.Coins, p.XP)
		}
		seeds += p.Seeds
		for sp := 0; sp < catalog.NumSpaces; sp++ {
			bs := p.Board[sp]
			if bs.Seed {
				if sp != catalog.SpMH1 && sp != catalog.SpHP1 || !bs.Used || bs.Done {
					return fmt.Errorf("seat %d: seed on %s in state %+v", seat, catalog.SpaceNames[sp], bs)
				}
				seeds++
			}
			main := slotDie[seat][sp][0]
			if bs.Used && !bs.Done && !bs.Seed && main == 0 && s.Step != "tidy" {
				return fmt.Errorf("seat %d: %s waits with no item", seat, catalog.SpaceNames[sp])
			}
			if slotDie[seat][sp][1] > 0 && !bs.Done {
				return fmt.Errorf("seat %d: speed-up on %s but not resolved", seat, catalog.SpaceNames[sp])
			}
		}
	}
	if seeds != r.Seeds {
		return fmt.Errorf("%d seeds, want %d", seeds, r.Seeds)
	}
	// Ingredients and action tokens.
	for i, in := range r.Ingredients {
		n := s.Market[i]
		if n < 0 {
			return fmt.Errorf("market %s stock %d", in.Code, n)
		}
		for seat := range s.P {
			if s.P[seat].Ingr[i] < 0 {
				return fmt.Errorf("seat %d has %d %s", seat, s.P[seat].Ingr[i], in.Code)
			}
			n += s.P[seat].Ingr[i]
		}
		if n != in.Stock {
			return fmt.Errorf("%d %s tokens, want %d", n, in.Code, in.Stock)
		}
	}
	all := 0
	for t, at := range r.Tokens {
		n := s.BM[t] + s.Removed[t]
		if s.BM[t] < 0 || s.Removed[t] < 0 {
			return fmt.Errorf("token %s: stock %d, removed %d", at.Code, s.BM[t], s.Removed[t])
		}
		for seat := range s.P {
			if s.P[seat].Tok[t] < 0 {
				return fmt.Errorf("seat %d has %d %s", seat, s.P[seat].Tok[t], at.Code)
			}
			n += s.P[seat].Tok[t]
		}
		if n != at.Stock {
			return fmt.Errorf("%d %s tokens in play or used, want %d", n, at.Code, at.Stock)
		}
		all += n
	}
	if total := r.TotalTokens(); all != total {
		return fmt.Errorf("%d action tokens, want %d", all, total)
	}
	// Cards.
	seen := make([]bool, len(r.Recipes))
	count := 0
	note := func(id string) error {
		rc := s.Card(id)
		if rc == nil {
			return fmt.Errorf("unknown card %s", id)
		}
		if seen[rc.Index] {
			return fmt.Errorf("card %s is in two places", id)
		}
		seen[rc.Index] = true
		count++
		return nil
	}
	if len(s.Display) != r.Players[s.N].Display {
		return fmt.Errorf("display has %d slots", len(s.Display))
	}
	for _, c := range s.Display {
		if c == "" {
			if len(s.Deck) > 0 {
				return fmt.Errorf("an empty display slot while the deck has cards")
			}
			continue
		}
		if err := note(c); err != nil {
			return err
		}
	}
	for _, c := range s.Deck {
		if err := note(c); err != nil {
			return err
		}
	}
	brewed := 0
	for seat := range s.P {
		for _, c := range s.P[seat].Brewed {
			if err := note(c); err != nil {
				return err
			}
			brewed++
		}
	}
	if count != len(r.Recipes) {
		return fmt.Errorf("%d cards, want %d", count, len(r.Recipes))
	}
	if brewed != s.BrewedAll {
		return fmt.Errorf("brewed count %d, piles hold %d", s.BrewedAll, brewed)
	}
	// Space uses.
	for sp := 0; sp < catalog.NumSpaces; sp++ {
		if u := len(s.SpaceUsers(sp)); u != s.Uses[sp] || u > s.Capacity() {
			return fmt.Errorf("space %s: %d users recorded, %d on boards, capacity %d", catalog.SpaceNames[sp], s.Uses[sp], u, s.Capacity())
		}
	}
	// Turn state.
	switch s.Step {
	case position.StepOver:
		if s.Cur != -1 {
			return fmt.Errorf("game over with seat %d to act", s.Cur)
		}
	case position.StepW0, position.StepW3, position.StepPlace, position.StepBuy, position.StepBrew:
		if s.Cur < 0 || s.Cur >= s.N {
			return fmt.Errorf("step %s with no seat to act (%d)", s.Step, s.Cur)
		}
		switch s.Sub {
		case position.SubNone:
		case position.SubSecond, position.SubReroll:
			if s.Step != position.StepPlace {
				return fmt.Errorf("sub-step %s in step %s", s.Sub, s.Step)
			}
		case position.SubReward:
			if s.Step != position.StepBrew || s.Reward == nil || len(s.Reward.Needs) == 0 {
				return fmt.Errorf("reward sub-step without a pending reward")
			}
		default:
			return fmt.Errorf("unknown sub-step %q", s.Sub)
		}
		if s.Step == position.StepPlace && s.P[s.Cur].Passed {
			return fmt.Errorf("a passed player (%d) is to place", s.Cur)
		}
		if s.Step == position.StepBuy && s.P[s.Cur].BuyDone {
			return fmt.Errorf("seat %d buys twice", s.Cur)
		}
	default:
		return fmt.Errorf("unknown step %q", s.Step)
	}
	if s.Step != position.StepPlace && (len(s.Picked) > 0 || s.PickThen) {
		return fmt.Errorf("reroll picks outside placement")
	}
	if s.Sub != position.SubReward && s.Reward != nil {
		return fmt.Errorf("a pending reward outside the reward sub-step")
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func plusIf(b bool) string {
	if b {
		return "+"
	}
	return ""
}
