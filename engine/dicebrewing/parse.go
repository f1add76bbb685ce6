package dicebrewing

import (
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/notation"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

// Parse implements engine.State: it checks the syntax and the static facts
// (spaces, cards, codes, colours, players) of one command line (the game's
// notation: parser.go).
func (s *state) Parse(seat int, line string) (engine.Move, error) {
	return notation.ParseLine(s.Rules, s.H.Seats, seat, line)
}

// refName is the name of a seat as command texts write it: the seat name
// when it is one plain word that no other seat's name is in another case,
// else "P<n>" (issue 24: "Ann" next to "ann" would be read back by a
// reader as either).
func (s *state) refName(seat int) string { return notation.RefNameOf(s.H.Seats, seat) }

// NumberSeats implements engine.SeatNamer (issue 24): the seats a command
// names are the owners of its targets, written "<seat>:" in front of a die
// or a building (PLAY SHIELD ann:G6@S, PLAY BLOCKB ann:MH); each such seat
// s with number(s) is written P<s+1>, which seatOf reads as s whatever the
// names.
func (game) NumberSeats(cmd string, names []string, number func(seat int) bool) string {
	if !strings.Contains(cmd, ":") {
		return cmd
	}
	words := strings.Split(cmd, " ")
	changed := false
	for i, w := range words {
		who, rest, ok := strings.Cut(w, ":")
		if !ok || i == 0 {
			continue
		}
		if seat, ok := notation.SeatOf(names, who); ok && number(seat) {
			words[i] = "P" + strconv.Itoa(seat+1) + ":" + rest
			changed = true
		}
	}
	if !changed {
		return cmd
	}
	return strings.Join(words, " ")
}

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
	var errs engine.RouteErrors
	fail := func(i int, err error) { errs.Fail(len(orders), i, err) }
	cur := s.Step
	if cur == position.StepOver {
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
			phase[i] = position.StepPlace
		case "PICK", "REROLL":
			phase[i] = "reroll"
		case "BUY", "NOBUY":
			phase[i] = position.StepBuy
		case "BREW":
			phase[i] = position.StepBrew
		case "GET":
			phase[i] = "reward"
		case "PASS", "PLAY", "DONE":
		default:
			phase[i] = "unknown"
		}
	}
	curPhase := func() string {
		switch cur {
		case position.StepW0, position.StepPlace:
			return position.StepPlace
		case position.StepBuy:
			return position.StepBuy
		}
		return position.StepBrew
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
		case next >= 0 && next == firstPlace && cur == position.StepW0:
			phase[i] = position.StepW0
		case next >= 0 && mainPhase(phase[next]) == position.StepBrew:
			phase[i] = position.StepW3
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
			case prev == position.StepBrew:
				phase[i] = "late"
			case prev != "":
				phase[i] = prev
			case cur == position.StepW0 || cur == position.StepW3:
				phase[i] = cur
			case cur == position.StepBrew:
				phase[i] = "late"
			default:
				phase[i] = curPhase()
			}
		}
		if k == "DONE" && phase[i] == position.StepPlace {
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
			if p == position.StepBuy {
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
