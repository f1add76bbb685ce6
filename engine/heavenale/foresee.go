package heavenale

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
	"github.com/pbem-referee/referee/engine/heavenale/notation"
)

// Foresee implements engine.Foreseer (issue 12.6): the error a line is
// certain to meet when its turn comes, so that the Table reports it, with
// its rule, when the message arrives instead of queueing a line that can
// only fail:
//
//   - a BUY into a garden spot that already holds a tile (HA-5.4.1: tiles
//     are never moved or removed);
//   - a SCORE on a scoring spot the seat has already used (HA-5.6.4: a
//     disc, once placed, stays);
//   - a GO for the seat's next move of this round to the space its figure
//     stands on or behind it (HA-5.1.2): the figure only moves forward and
//     stays on the track until the round ends, which it cannot do before
//     the seat has moved home.
func (s *State) Foresee(seat int, slot, line string) *engine.RuleError {
	if s.Phase != phasePlay || seat < 0 || seat >= s.n() {
		return nil
	}
	m, ok := engine.ParsedMove[notation.Move](s, seat, line)
	if !ok {
		return nil
	}
	p := &s.Players[seat]
	switch m.Verb {
	case "BUY":
		for _, b := range m.Buys {
			if b.Cell >= 0 && b.Cell < len(p.Garden) && p.Garden[b.Cell] != "" {
				return engine.Reject("HA-5.4.1", "spot_taken", "spot", b.Id)
			}
		}
	case "SCORE":
		if m.Spot >= 0 && m.Spot < len(p.Spots) && p.Spots[m.Spot] {
			return engine.Reject("HA-5.6.4", "spot_used", "spot", catalog.SpotNames[m.Spot])
		}
	case "GO":
		next := slotOf(p.Turns + 1)
		if s.Cur == seat && s.Sub != subMove {
			next = slotOf(p.Turns + 2) // this turn's move is made
		}
		if slot != next || p.Pos <= 0 || p.Back || m.N >= catalog.HomePos || m.N > p.Pos {
			return nil
		}
		return s.whyNot(seat, m.N)
	}
	return nil
}
