package dicebrewing

import (
	"fmt"
	"strings"

	"github.com/pbem-referee/referee/engine"
)

// stepIndex orders the steps of a round; slot names use the same names.
var stepIndex = map[string]int{stepW0: 0, stepPlace: 1, "reroll": 1, stepBuy: 2, stepW3: 3, stepBrew: 4, "reward": 4}

// Route implements engine.State (DB-10.1): free commands apply on receipt;
// every other line joins the queue of one step of the current round.
//
//   - PLACE, END, PICK and REROLL go to Phase 1; BUY and NOBUY to Phase 2;
//     BREW to Phase 3; GET to the reward choice of Phase 3.
//   - PASS joins the phase of the nearest line before it (PLAY and DONE
//     lines aside), else the current phase.
//   - PLAY and DONE join the line after them: before the first PLACE of the
//     message they go to window W0 (while W0 is still to come), before a
//     later PLACE to the W1 of that placement turn, before a BUY to the
//     purchase turn, before the first BREW to window W3. With no line
//     after them they join the phase of the line before, else the current
//     step.
//   - The last Phase 2 line of a message ends the purchase turn (a NOBUY
//     is added to it, DB-10.1a); to buy in several messages, write all
//     the purchase lines in the last one.
//
// Lines for a step that is over are rejected (slot_closed).
func (s *state) Route(seat int, orders []engine.Order) []error {
	var errs []error
	fail := func(i int, err error) {
		if errs == nil {
			errs = make([]error, len(orders))
		}
		errs[i] = err
	}
	cur := s.Step
	if cur == stepOver {
		for i := range orders {
			fail(i, engine.Reject("DB-7.1", engine.CodeGameOver))
		}
		return errs
	}
	// Phase of each line: the anchors first.
	phase := make([]string, len(orders))
	for i, o := range orders {
		switch o.Keyword() {
		case "STORE", "AUTOSTORE", "TOKENS":
			phase[i] = "now"
		case "PLACE", "END":
			phase[i] = stepPlace
		case "PICK", "REROLL":
			phase[i] = "reroll"
		case "BUY", "NOBUY":
			phase[i] = stepBuy
		case "BREW":
			phase[i] = stepBrew
		case "GET":
			phase[i] = "reward"
		case "PASS", "PLAY", "DONE":
		default:
			phase[i] = "unknown"
		}
	}
	curPhase := func() string {
		switch cur {
		case stepW0, stepPlace:
			return stepPlace
		case stepBuy:
			return stepBuy
		}
		return stepBrew
	}
	// PASS lines: the nearest phase before them.
	for i, o := range orders {
		if o.Keyword() != "PASS" {
			continue
		}
		phase[i] = curPhase()
		for j := i - 1; j >= 0; j-- {
			if p := phase[j]; p != "" && p != "now" && p != "unknown" {
				phase[i] = mainPhase(p)
				break
			}
		}
	}
	// PLAY and DONE lines: the line after them.
	firstPlace, firstBrew := -1, -1
	for i, o := range orders {
		if o.Keyword() == "PLACE" && firstPlace < 0 {
			firstPlace = i
		}
		if o.Keyword() == "BREW" && firstBrew < 0 {
			firstBrew = i
		}
	}
	for i, o := range orders {
		k := o.Keyword()
		if k != "PLAY" && k != "DONE" {
			continue
		}
		next := -1
		for j := i + 1; j < len(orders); j++ {
			if kw := orders[j].Keyword(); kw != "PLAY" && kw != "DONE" && phase[j] != "now" {
				next = j
				break
			}
		}
		switch {
		case next >= 0 && next == firstPlace && cur == stepW0:
			phase[i] = stepW0
		case next >= 0 && mainPhase(phase[next]) == stepBrew:
			phase[i] = stepW3
		case next >= 0 && phase[next] != "unknown":
			phase[i] = mainPhase(phase[next])
		default:
			prev := ""
			for j := i - 1; j >= 0; j-- {
				if p := phase[j]; p != "" && p != "now" && p != "unknown" && orders[j].Keyword() != "PLAY" && orders[j].Keyword() != "DONE" {
					prev = mainPhase(p)
					break
				}
			}
			switch {
			case prev == stepBrew:
				phase[i] = "late"
			case prev != "":
				phase[i] = prev
			case cur == stepW0 || cur == stepW3:
				phase[i] = cur
			case cur == stepBrew:
				phase[i] = "late"
			default:
				phase[i] = curPhase()
			}
		}
		if k == "DONE" && phase[i] == stepPlace {
			fail(i, engine.Reject("DB-5.8.4", "done_no_window"))
		}
	}
	lastBuy := -1
	for i, o := range orders {
		if errs != nil && errs[i] != nil {
			continue
		}
		switch p := phase[i]; p {
		case "now":
			orders[i].Now = true
			continue
		case "unknown":
			fail(i, engine.Reject("", engine.CodeUnknownCommand, "word", o.Keyword()))
			continue
		case "late":
			fail(i, engine.Reject("DB-5.8.3", "token_window", "token", secondWord(o), "window", "brew"))
			continue
		default:
			orders[i].Slot = s.slot(p)
			if err := s.slotErr(seat, p); err != nil {
				fail(i, err)
				continue
			}
			if p == stepBuy {
				lastBuy = i
				if err := s.marketErr(o); err != nil {
					fail(i, err)
					continue
				}
			}
		}
	}
	// DB-10.1a: the purchase turn runs the message's Phase 2 lines and ends
	// after the last one.
	if lastBuy >= 0 {
		o := &orders[lastBuy]
		for a, alt := range o.Alts {
			last := strings.ToUpper(engine.FirstWord(alt[len(alt)-1]))
			if last != "NOBUY" && last != "DONE" && last != "PASS" {
				o.Alts[a] = append(append([]string(nil), alt...), "NOBUY")
			}
		}
	}
	return errs
}

// mainPhase maps sub-slots to the phase they belong to.
func mainPhase(p string) string {
	switch p {
	case "reroll", stepW0:
		return stepPlace
	case "reward", stepW3:
		return stepBrew
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
	if stepIndex[step] < stepIndex[s.Step] || s.Step == stepOver {
		return engine.Reject("DB-10.1", engine.CodeSlotClosed, "slot", s.slot(step))
	}
	p := &s.P[seat]
	switch mainPhase(step) {
	case stepPlace:
		if p.Passed {
			return engine.Reject("DB-5.3.7", "already_passed")
		}
		if step == stepW0 && s.Step != stepW0 {
			return engine.Reject("DB-10.1", engine.CodeSlotClosed, "slot", s.slot(step))
		}
	case stepBuy:
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
	case s.rules.ingr(code) >= 0 && !s.marketOpen():
		return engine.Reject("DB-4.3", "market_closed", "round", s.Round, "opens", s.rules.OpenMarket)
	case s.rules.tok(code) >= 0 && !s.blackMarketOpen():
		return engine.Reject("DB-4.3", "black_market_closed", "round", s.Round, "opens", s.rules.OpenBlackMarket)
	}
	return nil
}
