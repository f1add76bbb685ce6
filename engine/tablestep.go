// The Table's driving: one step at a time, forced decisions, queued orders
// in priority order, the agreement rule (doc.go), default moves.

package engine

import (
	"fmt"
	"sort"
)

// strictness is the one-message atomicity of a submission (HA §10.1, TV-11
// case A): while on, a failing fresh order of the submitting seat rejects
// the whole message. It covers every fresh order of the seat in the slot of
// its first consumed fresh order (the turn in progress), and ends when
// another seat moves; orders of other slots (queued later turns) halt.
type strictness struct {
	seat  int
	on    bool
	slot  string // the slot of the turn in progress, once one was consumed
	begun bool
}

// covers reports whether a fresh order of seat under decision d is strict.
func (s *strictness) covers(seat int, d Decision) bool {
	return s != nil && s.on && seat == s.seat && (!s.begun || d.Slot == s.slot)
}

// apply parses and applies one command line, recording a step.
func (t *Table) apply(seat int, line string) (Step, error) {
	m, err := t.State.Parse(seat, line)
	if err != nil {
		return Step{}, err
	}
	evs, err := t.State.Apply(seat, m)
	if err != nil {
		return Step{}, err
	}
	s := Step{Seat: seat, Cmd: m.String(), Events: evs, Token: t.Token(), Script: t.script}
	t.script = nil
	if t.HashSteps {
		h, err := StateHash(t.State)
		if err != nil {
			return Step{}, err
		}
		s.Hash = h
	}
	t.pending = append(t.pending, s)
	return s, nil
}

// tryAlts tries each alternative on a copy of the state and keeps the first
// that applies completely. It returns the canonical commands applied, or the
// error of each alternative. Steps are left in t.pending.
//
// An alternative holding a line the game knows will fail (see Foreseer) is
// not tried: its error is the game's.
func (t *Table) tryAlts(seat int, slot string, alts [][]string) ([]string, []*RuleError, error) {
	var errs []*RuleError
alts:
	for _, alt := range alts {
		for _, line := range alt {
			if re := t.foresee(seat, slot, line); re != nil {
				errs = append(errs, re)
				continue alts
			}
		}
		saved := t.State
		t.State = saved.Clone()
		savedScript := t.script
		mark := len(t.pending)
		var cmds []string
		var failed error
		for _, line := range alt {
			s, err := t.apply(seat, line)
			if err != nil {
				failed = err
				break
			}
			cmds = append(cmds, s.Cmd)
		}
		if failed == nil {
			return cmds, nil, nil
		}
		if _, ok := AsRuleError(failed); !ok {
			return nil, nil, failed
		}
		t.State, t.script = saved, savedScript
		t.pending = t.pending[:mark]
		errs = append(errs, asRule(failed))
	}
	return nil, errs, nil
}

func asRule(err error) *RuleError {
	if re, ok := AsRuleError(err); ok {
		return re
	}
	return &RuleError{Code: "internal", Params: map[string]any{"error": err.Error()}}
}

func (t *Table) decisionOf(seat int) (Decision, bool) {
	for _, d := range t.State.Pending() {
		if d.Seat == seat {
			return d, true
		}
	}
	return Decision{}, false
}

func (t *Table) nextOrder(seat int, slot string) int {
	standing := -1
	for i, o := range t.Queues[seat] {
		if o.Slot == slot {
			if !o.Always {
				return i
			}
			if standing < 0 {
				standing = i
			}
		}
	}
	return standing
}

func (t *Table) popOrder(seat, i int) Order {
	q := t.Queues[seat]
	o := q[i]
	if o.Always {
		// A standing order is not used up (Order.Always).
		return o
	}
	t.Queues[seat] = append(q[:i:i], q[i+1:]...)
	return o
}

func (t *Table) removeSlot(seat int, slot string) []Order {
	var kept, removed []Order
	for _, o := range t.Queues[seat] {
		if o.Slot == slot {
			removed = append(removed, o)
		} else {
			kept = append(kept, o)
		}
	}
	t.Queues[seat] = kept
	return removed
}

// reroute routes a standing order whose slot closed to the next slot of
// its kind (Order.Always); false when the State has none open for it.
func (t *Table) reroute(seat int, o *Order) bool {
	rs := []Order{*o}
	rs[0].Alts = make([][]string, len(o.Alts))
	for i, a := range o.Alts {
		rs[0].Alts[i] = append([]string(nil), a...)
	}
	rs[0].Slot = ""
	if errs := t.State.Route(seat, rs); len(errs) > 0 && errs[0] != nil {
		return false
	}
	r := rs[0]
	if r.Now || r.Slot == "" || r.Slot == o.Slot || !t.State.SlotOpen(seat, r.Slot) {
		return false
	}
	r.Always = true
	*o = r
	return true
}

// dropClosed removes queued orders whose slot has closed, and halts that no
// longer match the seat's decision.
func (t *Table) dropClosed(rep *Report) {
	for s := range t.Queues {
		var kept, dropped []Order
		moved := false
		for _, o := range t.Queues[s] {
			if t.State.SlotOpen(s, o.Slot) {
				kept = append(kept, o)
			} else if o.Always && t.reroute(s, &o) {
				kept = append(kept, o)
				moved = true
			} else {
				dropped = append(dropped, o)
			}
		}
		if moved && len(dropped) == 0 {
			t.Queues[s] = kept
		}
		if len(dropped) > 0 {
			t.Queues[s] = kept
			so := SeatOrders{Seat: s, Orders: dropped}
			for _, o := range dropped {
				so.Reasons = append(so.Reasons, t.closedReason(s, o.Slot))
			}
			rep.Dropped = append(rep.Dropped, so)
		}
		if h := t.Halts[s]; h != nil {
			if d, ok := t.decisionOf(s); !ok || d.Slot != h.Slot {
				t.Halts[s] = nil
			}
		}
	}
}

// passErrors keeps, on the pass steps an ELSE PASS just recorded, why no
// alternative of the order could be played.
func (t *Table) passErrors(errs []*RuleError) {
	for i := range t.pending {
		t.pending[i].Errors = errs
	}
}

// flush moves the steps recorded since the last flush into the report.
func (t *Table) flush(rep *Report, how string, tag, line int) []Step {
	steps := t.pending
	t.pending = nil
	for i := range steps {
		steps[i].How, steps[i].Tag, steps[i].Line = how, tag, line
		if how == HowAuto {
			t.rememberForced(steps[i].Seat, steps[i].Cmd)
		}
	}
	rep.Steps = append(rep.Steps, steps...)
	return steps
}

func (t *Table) applyDefault(rep *Report, d Decision) error {
	cmd := d.Default
	if _, err := t.apply(d.Seat, cmd); err != nil {
		if _, ok := AsRuleError(err); !ok {
			return err
		}
		// A default that is illegal here is an engine slip; fall back to the
		// first legal option so the game never stalls.
		opts := t.State.Legal(d)
		if len(opts) == 0 {
			return fmt.Errorf("engine: default %q illegal and no legal option for %s (seat %d): %v", cmd, d.Kind, d.Seat, err)
		}
		if _, err := t.apply(d.Seat, opts[0].Cmd); err != nil {
			return fmt.Errorf("engine: legal option %q failed: %w", opts[0].Cmd, err)
		}
	}
	steps := t.flush(rep, HowDefault, 0, 0)
	rep.Defaults = append(rep.Defaults, steps...)
	return nil
}

// advance runs the game until a decision waits for somebody's input.
func (t *Table) advance(rep *Report, strict *strictness) error {
	for n := 0; ; n++ {
		if n > maxSteps {
			return fmt.Errorf("engine: %s did not settle after %d steps", t.State.Head().Game, maxSteps)
		}
		t.dropClosed(rep)
		if t.State.Result() != nil {
			return nil
		}
		pend := t.State.Pending()
		if len(pend) == 0 {
			return fmt.Errorf("engine: %s has no pending decision and no result", t.State.Head().Game)
		}
		progressed, err := t.step(rep, pend, strict)
		if err != nil || !progressed {
			return err
		}
	}
}

func (t *Table) step(rep *Report, pend []Decision, strict *strictness) (bool, error) {
	// Forced decisions are applied without asking, unless the seat's next
	// queued order for the slot answers the decision: it is played as the
	// seat's own line (the agreement rule, see answersForced).
	for _, d := range pend {
		if c, ok := t.State.(Chooser); ok && c.HasChoice(d) {
			continue
		}
		opts := t.State.Legal(d)
		if len(opts) == 0 {
			return false, fmt.Errorf("engine: no legal option for decision %q of seat %d", d.Kind, d.Seat)
		}
		if len(opts) == 1 {
			if i := t.forcedAnswer(d, opts[0].Cmd); i >= 0 {
				if d.Mode == Sequential {
					return t.playOrder(rep, d, i, strict, opts[0].Cmd)
				}
				return t.playForcedSealed(rep, d, i, opts[0].Cmd)
			}
			// The seat's next order of this slot does not name the forced
			// option: it is for a later decision of the slot, or it
			// disagrees. Why it cannot be played here is kept for the
			// second case.
			var why []*RuleError
			if k := t.nextOrder(d.Seat, d.Slot); k >= 0 && d.Mode == Sequential && t.Halts[d.Seat] == nil {
				if _, errs, err := t.clone().tryAlts(d.Seat, d.Slot, t.Queues[d.Seat][k].Alts); err == nil && len(errs) > 0 {
					why = errs
				}
			}
			if _, err := t.apply(d.Seat, opts[0].Cmd); err != nil {
				return false, fmt.Errorf("engine: forced option %q failed: %w", opts[0].Cmd, err)
			}
			t.flush(rep, HowAuto, 0, 0)
			if why != nil && !t.State.SlotOpen(d.Seat, d.Slot) {
				// The forced option closed the slot: the order was not for
				// a later decision but a different answer to this one. It
				// is refused at once with why it could not be played (the
				// agreement rule, doc.go), not kept to be dropped later.
				if err := t.refuseDisagreeing(rep, d, strict, why); err != nil {
					return false, err
				}
			}
			t.settle(strict, d.Seat, d.Slot, false)
			return true, nil
		}
	}
	if pend[0].Mode == Simultaneous {
		return t.stepGroup(rep, pend, strict)
	}
	seq := append([]Decision(nil), pend...)
	sort.SliceStable(seq, func(i, j int) bool { return seq[i].Rank < seq[j].Rank })
	for _, d := range seq {
		if d.Mode != Sequential || t.Halts[d.Seat] != nil {
			continue
		}
		i := t.nextOrder(d.Seat, d.Slot)
		if i < 0 {
			continue
		}
		return t.playOrder(rep, d, i, strict, "")
	}
	return false, nil
}

// refuseDisagreeing refuses the seat's next order of d's slot, which
// disagreed with the forced option just applied (why: the reasons it could
// not be played at d): a strict fresh order rejects its message as any
// illegal line of the turn in progress does; an order kept from an earlier
// message is dropped now with those reasons.
func (t *Table) refuseDisagreeing(rep *Report, d Decision, strict *strictness, why []*RuleError) error {
	k := t.nextOrder(d.Seat, d.Slot)
	if k < 0 {
		return nil
	}
	o := t.Queues[d.Seat][k]
	if strict.covers(d.Seat, d) && o.Tag > t.tagFloor {
		return &rejection{tag: o.Tag, errs: why}
	}
	o = t.popOrder(d.Seat, k)
	rep.Dropped = append(rep.Dropped, SeatOrders{Seat: d.Seat, Orders: []Order{o}, Reasons: []*RuleError{why[0]}})
	return nil
}

// playForcedSealed plays the seat's queued order i at a forced decision d
// of a simultaneous group, which is applied at once like every forced
// decision: the order's first legal alternative (agreed when it is the
// forced option); if none is legal, the forced option, and the order is
// reported failed with the reasons (never kept to fail later at another
// question).
func (t *Table) playForcedSealed(rep *Report, d Decision, i int, forced string) (bool, error) {
	o := t.popOrder(d.Seat, i)
	cmds, errs, err := t.tryAlts(d.Seat, o.Slot, o.Alts)
	if err != nil {
		return false, err
	}
	if cmds != nil {
		t.flush(rep, t.howPlayed(d.Seat, cmds, forced, HowSealed), o.Tag, o.Line)
		return true, nil
	}
	if _, err := t.apply(d.Seat, forced); err != nil {
		return false, fmt.Errorf("engine: forced option %q failed: %w", forced, err)
	}
	t.flush(rep, HowAuto, 0, 0)
	rep.Failed = append(rep.Failed, SeatFailure{Seat: d.Seat, Order: o, Errors: errs})
	return true, nil
}

// playOrder plays the seat's queued order i for sequential decision d:
// the first legal alternative, else ELSE PASS, else the message is refused
// (a strict fresh order) or the seat's queue halts with the reasons. forced
// is the decision's only legal option when it has one ("" otherwise): an
// order that plays it is "agreed".
func (t *Table) playOrder(rep *Report, d Decision, i int, strict *strictness, forced string) (bool, error) {
	o := t.popOrder(d.Seat, i)
	first := strict.covers(d.Seat, d) && o.Tag > t.tagFloor
	cmds, errs, err := t.tryAlts(d.Seat, o.Slot, o.Alts)
	if err != nil {
		return false, err
	}
	if cmds != nil {
		t.flush(rep, t.howPlayed(d.Seat, cmds, forced, HowQueued), o.Tag, o.Line)
		t.settle(strict, d.Seat, d.Slot, first)
		return true, nil
	}
	if o.ElsePass && d.Pass != "" {
		if _, err := t.apply(d.Seat, d.Pass); err == nil {
			t.passErrors(errs)
			t.flush(rep, HowElsePass, o.Tag, o.Line)
			t.settle(strict, d.Seat, d.Slot, first)
			return true, nil
		} else if _, ok := AsRuleError(err); !ok {
			return false, err
		} else {
			errs = append(errs, asRule(err))
		}
	}
	if first {
		return false, &rejection{tag: o.Tag, errs: errs}
	}
	h := &Halt{Slot: d.Slot, Order: o, Errors: errs, SetAside: t.removeSlot(d.Seat, d.Slot)}
	t.Halts[d.Seat] = h
	rep.Halts = append(rep.Halts, SeatHalt{Seat: d.Seat, Halt: *h})
	t.settle(strict, d.Seat, d.Slot, first)
	return true, nil // re-evaluate: another seat may be able to act
}

// settle records the slot of the submitting seat's first consumed fresh
// order (the turn in progress, which stays strict), and turns strictness off
// once another seat moved the game.
func (t *Table) settle(strict *strictness, seat int, slot string, first bool) {
	if strict == nil {
		return
	}
	if seat != strict.seat {
		strict.on = false
		return
	}
	if first && !strict.begun {
		strict.slot, strict.begun = slot, true
	}
}
