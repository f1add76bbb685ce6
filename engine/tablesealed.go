// The Table's simultaneous decisions: sealed answers kept until every seat
// of a group has a complete one, then applied in rank order.

package engine

import (
	"fmt"
	"sort"
)

// stepGroup resolves a simultaneous group once every seat's sealed answer is
// complete.
func (t *Table) stepGroup(rep *Report, pend []Decision, strict *strictness) (bool, error) {
	group := pend[0].Group
	var members []Decision
	for _, d := range pend {
		if d.Mode == Simultaneous && d.Group == group {
			members = append(members, d)
		}
	}
	sort.SliceStable(members, func(i, j int) bool { return members[i].Rank < members[j].Rank })
	all := true
	for _, d := range members {
		ok, failed, errs, err := t.sealedComplete(d.Seat, d, strict)
		if err != nil {
			return false, err
		}
		if failed != nil {
			// An order of the sealed answer is illegal now: the seat's
			// answer halts and the seat is asked again, with the reason.
			o := t.popOrder(d.Seat, t.tagIndex(d.Seat, failed.Tag))
			h := &Halt{Slot: d.Slot, Order: o, Errors: errs, SetAside: t.removeSlot(d.Seat, d.Slot)}
			t.Halts[d.Seat] = h
			rep.Halts = append(rep.Halts, SeatHalt{Seat: d.Seat, Halt: *h})
			ok = false
		}
		if !ok || t.Halts[d.Seat] != nil {
			all = false
		}
	}
	if !all {
		return false, nil
	}
	if strict != nil {
		strict.on = false
	}
	for _, m := range members {
		if err := t.playSealed(rep, m.Seat, group); err != nil {
			return false, err
		}
	}
	rep.Revealed = append(rep.Revealed, group)
	for s := range t.Expired {
		if t.Expired[s] == group {
			t.Expired[s] = ""
		}
	}
	return true, nil
}

// groupDecision returns the seat's pending decision in the group, if any.
func groupDecision(st State, seat int, group string) (Decision, bool) {
	for _, d := range st.Pending() {
		if d.Seat == seat && d.Mode == Simultaneous && d.Group == group {
			return d, true
		}
	}
	return Decision{}, false
}

// sealedComplete checks, on a blinded copy of the state, whether the seat's
// queued orders answer all of its part of the group. It returns the first
// order that is illegal (with the errors of its alternatives); with
// strictness on for this seat, an illegal fresh order rejects the message
// instead.
//
// The copy is made at the first change (issue 24: every game's set-up
// checked its first sealed decision on a copy it never changed, as does
// every check of a seat that has not answered yet): until then sim reads
// the real state, which Pending, Legal and Parse do not change, and d,
// the seat's pending decision of the group in it (every caller's), is the
// decision to answer.
func (t *Table) sealedComplete(seat int, d Decision, strict *strictness) (bool, *Order, []*RuleError, error) {
	sim, copied := &Table{game: t.game, State: t.State}, false
	own := func() *Table {
		if !copied {
			sim.State, copied = t.State.Clone(), true
			sim.State.Head().Rand.Blind()
		}
		return sim
	}
	queue := append([]Order(nil), t.Queues[seat]...)
	expired := t.Expired[seat] == d.Group
	for n := 0; n < maxSteps; n++ {
		cur, ok := d, true // the real state's own, as every caller passes it
		if copied {
			cur, ok = groupDecision(sim.State, seat, d.Group)
		}
		if !ok {
			return true, nil, nil, nil
		}
		opts := sim.State.Legal(cur)
		idx := -1
		for i, o := range queue {
			if o.Slot == cur.Slot {
				idx = i
				break
			}
		}
		if len(opts) == 1 && (idx < 0 || !sim.answers(seat, queue[idx], opts[0].Cmd)) {
			if _, err := own().apply(seat, opts[0].Cmd); err != nil {
				return false, nil, nil, err
			}
			continue
		}
		if idx < 0 {
			if !expired {
				return false, nil, nil, nil
			}
			if err := own().applyDefault(&Report{}, cur); err != nil {
				return false, nil, nil, err
			}
			continue
		}
		o := queue[idx]
		queue = append(queue[:idx:idx], queue[idx+1:]...)
		cmds, errs, err := own().tryAlts(seat, o.Slot, o.Alts)
		if err != nil {
			return false, nil, nil, err
		}
		if cmds != nil {
			continue
		}
		if o.ElsePass && cur.Pass != "" {
			if _, err := own().apply(seat, cur.Pass); err == nil {
				continue
			}
		}
		if strict != nil && strict.on && strict.seat == seat && o.Tag > t.tagFloor {
			return false, nil, nil, &rejection{tag: o.Tag, errs: errs}
		}
		return false, &o, errs, nil
	}
	return false, nil, nil, fmt.Errorf("engine: sealed answer of seat %d did not settle", seat)
}

func (t *Table) tagIndex(seat, tag int) int {
	for i, o := range t.Queues[seat] {
		if o.Tag == tag {
			return i
		}
	}
	return -1
}

// playSealed applies the seat's sealed answer for real.
func (t *Table) playSealed(rep *Report, seat int, group string) error {
	for n := 0; n < maxSteps; n++ {
		cur, ok := groupDecision(t.State, seat, group)
		if !ok {
			return nil
		}
		opts := t.State.Legal(cur)
		i := t.nextOrder(seat, cur.Slot)
		forced := ""
		if len(opts) == 1 {
			forced = opts[0].Cmd
			if i < 0 || !t.answers(seat, t.Queues[seat][i], forced) {
				if _, err := t.apply(seat, forced); err != nil {
					return err
				}
				t.flush(rep, HowAuto, 0, 0)
				continue
			}
		}
		if i < 0 {
			if err := t.applyDefault(rep, cur); err != nil {
				return err
			}
			continue
		}
		o := t.popOrder(seat, i)
		cmds, errs, err := t.tryAlts(seat, o.Slot, o.Alts)
		if err != nil {
			return err
		}
		if cmds != nil {
			how := HowSealed
			if t.agrees(seat, cmds, forced) {
				how = HowAgreed
			}
			t.flush(rep, how, o.Tag, o.Line)
			continue
		}
		if o.ElsePass && cur.Pass != "" {
			if _, err := t.apply(seat, cur.Pass); err == nil {
				t.passErrors(errs)
				t.flush(rep, HowElsePass, o.Tag, o.Line)
				continue
			}
		}
		rep.Failed = append(rep.Failed, SeatFailure{Seat: seat, Order: o, Errors: errs})
	}
	return fmt.Errorf("engine: sealed answer of seat %d did not settle", seat)
}

// incompleteSealed reports whether the seat has a pending simultaneous
// decision in slot whose sealed answer is not complete yet.
func (t *Table) incompleteSealed(seat int, slot string) bool {
	d, ok := t.decisionOf(seat)
	if !ok || d.Mode != Simultaneous || d.Slot != slot {
		return false
	}
	if t.nextOrder(seat, slot) < 0 {
		return false
	}
	complete, failed, _, err := t.sealedComplete(seat, d, nil)
	return err == nil && failed == nil && !complete
}
