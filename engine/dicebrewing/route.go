package dicebrewing

import (
	"fmt"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

// stepIndex orders the steps of a round; slot names use the same names.
var stepIndex = map[string]int{position.StepW0: 0, position.StepPlace: 1, "reroll": 1, position.StepBuy: 2, position.StepW3: 3, position.StepBrew: 4, "reward": 4}

// mainPhase maps sub-slots to the phase they belong to.
func mainPhase(p string) string {
	switch p {
	case "reroll", position.StepW0:
		return position.StepPlace
	case "reward", position.StepW3:
		return position.StepBrew
	}
	return p
}

func secondWord(o engine.Order) string {
	if len(o.Alts) == 0 || len(o.Alts[0]) == 0 {
		return ""
	}
	f := strings.Fields(o.Alts[0][0])
	if len(f) < 2 {
		return ""
	}
	return strings.ToUpper(f[1])
}

// slotErr says why a seat's line for a step of this round can no longer be
// applied, or nil (DB-10.1).
func (s *state) slotErr(seat int, step string) error {
	if stepIndex[step] < stepIndex[s.Step] || s.Step == position.StepOver {
		return engine.Reject("DB-10.1", engine.CodeSlotClosed, "slot", s.slot(step))
	}
	p := &s.P[seat]
	switch mainPhase(step) {
	case position.StepPlace:
		if p.Passed {
			return engine.Reject("DB-5.3.7", "already_passed")
		}
		if step == position.StepW0 && s.Step != position.StepW0 {
			return engine.Reject("DB-10.1", engine.CodeSlotClosed, "slot", s.slot(step))
		}
	case position.StepBuy:
		if p.BuyDone {
			return engine.Reject("DB-5.7.1", "purchase_over")
		}
	}
	return nil
}

// SlotOpen implements engine.State: queues are per round (emptied at the
// end of the round, DB-10.1) and per step.
func (s *state) SlotOpen(seat int, slot string) bool {
	var r int
	var step string
	if _, err := fmt.Sscanf(strings.Replace(slot, ".", " ", 1), "r%d %s", &r, &step); err != nil {
		return false
	}
	if _, ok := stepIndex[step]; !ok || r != s.Round || seat < 0 || seat >= s.N {
		return false
	}
	return s.slotErr(seat, step) == nil
}

// marketErr refuses a BUY line for a market that is closed this round
// (DB-4.3, DB-5.7.8): it could never be applied.
func (s *state) marketErr(o engine.Order) error {
	if o.Keyword() != "BUY" {
		return nil
	}
	code := secondWord(o)
	switch {
	case s.Rules.Ingr(code) >= 0 && !s.MarketOpen():
		return engine.Reject("DB-4.3", "market_closed", "round", s.Round, "opens", s.Rules.OpenMarket)
	case s.Rules.Tok(code) >= 0 && !s.BlackMarketOpen():
		return engine.Reject("DB-4.3", "black_market_closed", "round", s.Round, "opens", s.Rules.OpenBlackMarket)
	}
	return nil
}
