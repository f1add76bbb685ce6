package engine

// Foreseer is an optional interface of a State. Foresee returns the error
// that a command line of seat, queued under slot, is certain to meet when
// its turn comes, whatever happens before then: an item that never fits
// its space, a space the seat has already used in the phase the slot
// names, a second item that the first one, resolving without any random
// draw, makes illegal. It returns nil when the line may still be legal (or
// the game cannot tell).
//
// The Table asks it when a message arrives, so that a line that can only
// fail is reported at once, with its rule, instead of being shown as
// queued (or applied) and failing later; and again when it tries a line,
// so that a queued line known to fail halts (or passes, with ELSE PASS,
// the reason kept) before it is played (issue 12.6).
type Foreseer interface {
	Foresee(seat int, slot, line string) *RuleError
}

// foresee returns the error a line of an order is known to meet, if the
// game can tell.
func (t *Table) foresee(seat int, slot, line string) *RuleError {
	f, ok := t.State.(Foreseer)
	if !ok {
		return nil
	}
	return f.Foresee(seat, slot, line)
}

// foreseeOrder returns the errors of the order's lines known to fail, one
// per alternative that holds such a line (nil when none does).
func (t *Table) foreseeOrder(seat int, o Order) []*RuleError {
	if _, ok := t.State.(Foreseer); !ok {
		return nil
	}
	var errs []*RuleError
	for _, alt := range o.Alts {
		for _, line := range alt {
			if re := t.foresee(seat, o.Slot, line); re != nil {
				errs = append(errs, re)
				break
			}
		}
	}
	return errs
}

// Parser is the part of a State that reads a command line.
type Parser interface {
	Parse(seat int, line string) (Move, error)
}

// ParsedMove parses line for seat and returns its move as an M, whether
// Parse gave an M or a non-nil *M; ok is false when the line does not parse
// or gives another move. A game's Foresee starts with it: a line that does
// not parse is the turn's to refuse, not a foreseen error.
func ParsedMove[M any](p Parser, seat int, line string) (m M, ok bool) {
	mv, err := p.Parse(seat, line)
	if err != nil {
		return m, false
	}
	switch x := any(mv).(type) {
	case M:
		return x, true
	case *M:
		if x != nil {
			return *x, true
		}
	}
	return m, false
}
