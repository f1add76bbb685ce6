package heavenale

import (
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
)

// SlotClosed implements engine.SlotCloser: a line queued for a turn of the
// seat's that ended before the line could be played (the purchases ended
// by themselves when nothing more could be bought, HA-5.2.5; the move's
// action was complete, HA-4.2.3) is reported to its owner with
// turn_over, never silently dropped (issue 21).
func (s *State) SlotClosed(seat int, slot string) *engine.RuleError {
	if s.Phase == phaseOver {
		return engine.Reject("HA-7.1", engine.CodeGameOver)
	}
	if s.SlotOpen(seat, slot) || !strings.HasPrefix(slot, "t") {
		return nil
	}
	k, err := strconv.Atoi(slot[1:])
	if err != nil || seat < 0 || seat >= s.n() || k > s.Players[seat].Turns {
		return nil
	}
	return engine.Reject("HA-4.2.3", "turn_over", "turn", k)
}
