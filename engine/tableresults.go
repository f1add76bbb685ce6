// The Table after an advance: the outcome of each submitted order, the
// prompts asked and remembered, the grouping of options, the state hash.

package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
)

// fillResults sets the status of each submitted order after the advance.
func (t *Table) fillResults(seat int, rep *Report, results []OrderResult) {
	applied := map[int][]string{}
	how := map[int]string{}
	dropped := map[int]*RuleError{}
	for _, d := range rep.Dropped {
		if d.Seat == seat {
			for i, o := range d.Orders {
				if i < len(d.Reasons) {
					dropped[o.Tag] = d.Reasons[i]
				}
			}
		}
	}
	passErrs := map[int][]*RuleError{}
	partErrs := map[int][]*RuleError{}
	for _, s := range rep.Steps {
		if s.Tag != 0 && s.Seat == seat {
			applied[s.Tag] = append(applied[s.Tag], s.Cmd)
			how[s.Tag] = s.How
			if s.How == HowElsePass {
				passErrs[s.Tag] = s.Errors
			}
			for _, e := range s.Events {
				if re := eventError(e, seat); re != nil {
					partErrs[s.Tag] = append(partErrs[s.Tag], re)
				}
			}
		}
	}
	queued := map[int]bool{}
	for _, o := range t.Queues[seat] {
		queued[o.Tag] = true
	}
	halted := map[int]*Halt{}
	for _, h := range rep.Halts {
		if h.Seat == seat {
			hh := h.Halt
			halted[h.Halt.Order.Tag] = &hh
			for _, o := range h.Halt.SetAside {
				halted[o.Tag] = &hh
			}
		}
	}
	failed := map[int][]*RuleError{}
	for _, f := range rep.Failed {
		if f.Seat == seat {
			failed[f.Order.Tag] = f.Errors
		}
	}
	for i := range results {
		r := &results[i]
		if r.Status != "" {
			continue
		}
		tag := r.Order.Tag
		switch {
		case applied[tag] != nil:
			r.Cmds = applied[tag]
			r.Status = OutcomeApplied
			switch {
			case how[tag] == HowElsePass:
				r.Status, r.Errors = OutcomeElsePass, passErrs[tag]
			case partErrs[tag] != nil:
				r.Status, r.Errors = OutcomePartial, partErrs[tag]
			case how[tag] == HowAgreed:
				r.Status = OutcomeAgreed
			}
		case failed[tag] != nil:
			r.Status, r.Errors = "failed", failed[tag]
		case halted[tag] != nil:
			r.Status = "halted"
			if halted[tag].Order.Tag == tag {
				r.Errors = halted[tag].Errors
			}
		case queued[tag]:
			r.Status = "queued"
			if d, ok := t.decisionOf(seat); ok && d.Mode == Simultaneous && d.Slot == r.Order.Slot {
				r.Status = "sealed"
			}
		default:
			// Never played and no longer queued: its slot closed
			// (dropClosed kept why). Never without a reason.
			r.Status = OutcomeDropped
			re := dropped[tag]
			if re == nil {
				re = t.closedReason(seat, r.Order.Slot)
			}
			r.Errors = []*RuleError{re}
		}
	}
	rep.Results = results
}

// eventError returns the rule error an event of seat carries (Event.Err),
// if any. Event parameters are facts for the templates and never read as
// errors: a parameter named "code" (Dice Brewing's ingredient code) is a
// fact like any other (issue 21).
func eventError(e Event, seat int) *RuleError {
	if e.Err == nil || e.Seat != seat {
		return nil
	}
	return e.Err
}

// askedAt returns the command that number n meant in the numbered prompt
// the seat was shown at state token tok; ok is false when that prompt is no
// longer known (too old, or a token from the future) or had no option n.
func (t *Table) askedAt(seat, tok, n int) (string, bool) {
	if seat >= len(t.Asked) || tok > t.Token() {
		return "", false
	}
	hist := t.Asked[seat]
	for i := len(hist) - 1; i >= 0; i-- {
		if hist[i].From <= tok {
			if n > len(hist[i].Options) {
				return "", false
			}
			return hist[i].Options[n-1], true
		}
	}
	return "", false
}

// remember records the numbered options each seat is shown now, when they
// changed.
func (t *Table) remember() {
	if len(t.Asked) != len(t.Prompts) {
		t.Asked = make([][]Asked, len(t.Prompts))
	}
	for s, p := range t.Prompts {
		var opts []Option
		if p != nil && p.Numbered {
			opts = p.Options
		}
		hist := t.Asked[s]
		if len(hist) > 0 && slices.EqualFunc(hist[len(hist)-1].Options, opts, func(c string, o Option) bool { return c == o.Cmd }) {
			continue
		}
		if len(hist) == 0 && len(opts) == 0 {
			continue
		}
		// The list is built only when it changed, at its size (issue 24:
		// every new table's first prompts).
		var cmds []string
		if len(opts) > 0 {
			cmds = make([]string, len(opts))
			for i, o := range opts {
				cmds[i] = o.Cmd
			}
		}
		hist = append(hist, Asked{From: t.Token(), Options: cmds})
		if len(hist) > maxAsked {
			hist = append([]Asked(nil), hist[len(hist)-maxAsked:]...)
		}
		t.Asked[s] = hist
	}
}

// refreshPrompts recomputes what each seat is asked now and remembers
// the numbered lists shown.
func (t *Table) refreshPrompts() {
	t.ask()
	t.remember()
}

// ask recomputes what each seat is asked now: a function of the state,
// the queues, the halts and the expired groups alone, so that a stored
// table need not keep its prompts (LoadTable asks again).
func (t *Table) ask() {
	for s := range t.Prompts {
		t.Prompts[s] = nil
	}
	if t.State.Result() != nil {
		return
	}
	for _, d := range t.State.Pending() {
		if d.Seat < 0 || d.Seat >= len(t.Prompts) || t.Prompts[d.Seat] != nil {
			continue
		}
		opts := t.State.Legal(d)
		p := &Prompt{Token: t.Token(), Decision: d, Count: len(opts), Halt: t.Halts[d.Seat], legal: opts}
		if len(opts) <= MaxNumbered {
			p.Options, p.Numbered = GroupOptions(opts), true
		}
		if d.Mode == Simultaneous {
			for _, o := range t.Queues[d.Seat] {
				if o.Slot == d.Slot {
					p.Sealed = append(p.Sealed, o)
				}
			}
			if len(p.Sealed) > 0 || t.Expired[d.Seat] == d.Group {
				ok, _, _, err := t.sealedComplete(d.Seat, d, nil)
				p.Complete = err == nil && ok
			}
		}
		t.Prompts[d.Seat] = p
	}
}

// GroupOptions orders a menu by group (Option.Group): the options of one
// group together, the groups in the order of their first option, the
// options of a group in the game's order (issue 22). A menu without groups,
// or whose groups are already together, is returned as it is.
func GroupOptions(opts []Option) []Option {
	first := map[string]int{}
	sorted := true
	for i, o := range opts {
		if _, ok := first[o.Group]; !ok {
			first[o.Group] = i
		} else if opts[i-1].Group != o.Group {
			sorted = false
		}
	}
	if sorted {
		return opts
	}
	out := slices.Clone(opts)
	slices.SortStableFunc(out, func(a, b Option) int { return first[a.Group] - first[b.Group] })
	return out
}

// StateHash returns the hex SHA-256 of the state's JSON encoding.
func StateHash(st State) (string, error) {
	b, err := json.Marshal(st)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}
