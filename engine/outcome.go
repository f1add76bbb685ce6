package engine

import "strings"

// Outcome is what became of one line (order) of a player's message: the one
// vocabulary of line outcomes that the Table reports (OrderResult.Status),
// the referee echoes and the templates put in words, one word per outcome
// and language (issue 21). Every outcome that is not a success carries its
// reasons (OrderResult.Errors), and none that was carried out is ever
// reported as dropped.
type Outcome = string

// Line outcomes.
const (
	// OutcomeApplied: the line was carried out as written.
	OutcomeApplied Outcome = "applied"
	// OutcomeAgreed: the line asked for exactly what the game did itself
	// at a decision with a single legal option (a forced choice, the sole
	// legal move, a sale the rules made unavoidable): it is done, and
	// agreed with (see the agreement rule in doc.go). Never refused, never
	// dropped.
	OutcomeAgreed Outcome = "agreed"
	// OutcomePartial: carried out, but the game dropped a part of it with
	// a rule error when it was played (an event carrying Err, such as Dice
	// Brewing's second item after a roll, DB-5.3.4).
	OutcomePartial Outcome = "partial"
	// OutcomeQueued: kept for a later decision of the seat.
	OutcomeQueued Outcome = "queued"
	// OutcomeSealed: kept as the seat's sealed answer of a simultaneous
	// decision.
	OutcomeSealed Outcome = "sealed"
	// OutcomeElsePass: no alternative was legal; ELSE PASS played the
	// pass (Errors: why each alternative was not).
	OutcomeElsePass Outcome = "else_pass"
	// OutcomeHalted: the seat's queue stopped at this line (Errors: why),
	// or the line was set aside with it.
	OutcomeHalted Outcome = "halted"
	// OutcomeRejected: refused, and with it the whole fresh message
	// (Errors: why).
	OutcomeRejected Outcome = "rejected"
	// OutcomeSkipped: not applied because another line of the message was
	// refused.
	OutcomeSkipped Outcome = "skipped"
	// OutcomeFailed: a stale message's line no longer legal, or a sealed
	// line illegal when its group was resolved (Errors: why).
	OutcomeFailed Outcome = "failed"
	// OutcomeDropped: a queued line that can no longer be played because
	// the turn or phase it was for is over (Errors: why, from the game when
	// it can tell, SlotCloser; else CodeSlotClosed).
	OutcomeDropped Outcome = "dropped"
)

// How a Step came about (Step.How).
const (
	HowMove     = "move"      // applied on receipt (free actions, standing orders)
	HowQueued   = "queued"    // a queued order answered its decision
	HowAgreed   = "agreed"    // a queued order named the only legal option
	HowAuto     = "auto"      // a forced decision, no order of the seat answered it
	HowElsePass = "else_pass" // ELSE PASS played the pass
	HowDefault  = "default"   // a deadline passed
	HowSealed   = "sealed"    // a sealed answer of a simultaneous group
)

// SlotCloser is an optional interface of a State: why a seat's queue slot
// closed (for example Brew Crafters' season market, or a turn that ended),
// given as the rule error that the dropped lines of that slot are reported
// with. A nil answer falls back to CodeSlotClosed.
type SlotCloser interface {
	SlotClosed(seat int, slot string) *RuleError
}

// closedReason is why the seat's orders queued under slot were dropped.
func (t *Table) closedReason(seat int, slot string) *RuleError {
	if c, ok := t.State.(SlotCloser); ok {
		if re := c.SlotClosed(seat, slot); re != nil {
			return re
		}
	}
	return Reject("", CodeSlotClosed, "slot", slot)
}

// canonical returns the game's canonical text of a command line of seat,
// or "" when it does not parse.
func (t *Table) canonical(seat int, line string) string {
	m, err := t.State.Parse(seat, line)
	if err != nil {
		return ""
	}
	return m.String()
}

// answers reports whether the seat's order o answers a forced decision
// whose only legal option is forced (the agreement rule, doc.go): one of
// its alternatives starts with a line of the same command (the same first
// word of the canonical text) as the forced option. Such an order is the
// player's own answer to the decision: played as written, agreed when it
// names the forced option, refused with its true reason when it cannot be
// played. Any other order is for a later decision: the forced option is
// applied and the order waits.
func (t *Table) answers(seat int, o Order, forced string) bool {
	want := FirstWord(t.canonical(seat, forced))
	if want == "" {
		return false
	}
	for _, alt := range o.Alts {
		// A line that does not parse is compared by its own first word: a
		// "REROLL ZZ9" written where the game rerolled itself answers that
		// decision and is refused with its own reason (bad die), rather
		// than kept for a later decision it could never answer either.
		if len(alt) > 0 && strings.EqualFold(FirstWord(t.canonicalOr(seat, alt[0])), want) {
			return true
		}
	}
	return false
}

// forcedAnswer returns the index of the seat's queued order that answers
// the forced decision d (see answers), or -1.
func (t *Table) forcedAnswer(d Decision, forced string) int {
	if d.Seat < 0 || d.Seat >= len(t.Queues) || t.Halts[d.Seat] != nil {
		return -1
	}
	i := t.nextOrder(d.Seat, d.Slot)
	if i < 0 || !t.answers(d.Seat, t.Queues[d.Seat][i], forced) {
		return -1
	}
	return i
}

// agrees reports whether the commands an order played begin with the
// forced option (forced "" never agrees).
func (t *Table) agrees(seat int, cmds []string, forced string) bool {
	return forced != "" && len(cmds) > 0 && cmds[0] == t.canonicalOr(seat, forced)
}

// howPlayed is how an order that played cmds is reported: agreed when it
// played the forced option, else how (sealed, queued).
func (t *Table) howPlayed(seat int, cmds []string, forced, how string) string {
	if t.agrees(seat, cmds, forced) {
		return HowAgreed
	}
	return how
}

// canonicalOr is canonical, or line itself when it does not parse.
func (t *Table) canonicalOr(seat int, line string) string {
	if c := t.canonical(seat, line); c != "" {
		return c
	}
	return line
}

// rememberForced records a command the game played itself for seat.
func (t *Table) rememberForced(seat int, cmd string) {
	if seat < 0 || seat >= t.Seats() {
		return
	}
	if len(t.Forced) != t.Seats() {
		t.Forced = make([][]string, t.Seats())
	}
	f := append(t.Forced[seat], cmd)
	if len(f) > maxForced {
		f = append([]string(nil), f[len(f)-maxForced:]...)
	}
	t.Forced[seat] = f
}

// forcedSince returns the forced moves of seat among the steps of rep (the
// ones its message caused, which its next message may repeat).
func (t *Table) forcedSince(seat int, rep *Report) []string {
	var out []string
	for _, st := range rep.Steps {
		if st.How == HowAuto && st.Seat == seat {
			out = append(out, st.Cmd)
		}
	}
	if len(out) > maxForced {
		out = out[len(out)-maxForced:]
	}
	return out
}

// agreedLines splits off the leading orders of a message that repeat, in
// order, forced moves the game made for the seat since its last message
// (Table.Forced) and that cannot be played now (HA TV-03: "SCORE BA" sent
// after the engine put the disc on BA, the only usable spot): they are
// agreed, change nothing, and are never refused. The first order that does
// not, and every order after it, is the message proper.
func (t *Table) agreedLines(seat int, orders []Order) ([]OrderResult, []Order) {
	if seat >= len(t.Forced) || len(t.Forced[seat]) == 0 || t.State.Result() != nil {
		return nil, orders
	}
	forced := t.Forced[seat]
	var out []OrderResult
	for len(orders) > 0 && len(forced) > 0 {
		o := orders[0]
		if o.Number() > 0 || o.Now || len(o.Alts) != 1 || len(o.Alts[0]) != 1 {
			break
		}
		line := o.Alts[0][0]
		c := t.canonical(seat, line)
		k := -1
		for i, f := range forced {
			if c != "" && f == c {
				k = i
				break
			}
		}
		if k < 0 || t.playableNow(seat, line) {
			break
		}
		out = append(out, OrderResult{Order: o, Status: OutcomeAgreed, Cmds: []string{c}})
		forced, orders = forced[k+1:], orders[1:]
	}
	return out, orders
}

// playableNow reports whether the line applies to the current state for
// seat (tried on a copy).
func (t *Table) playableNow(seat int, line string) bool {
	st := t.State.Clone()
	m, err := st.Parse(seat, line)
	if err != nil {
		return false
	}
	_, err = st.Apply(seat, m)
	return err == nil
}
