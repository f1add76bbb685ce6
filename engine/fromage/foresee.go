package fromage

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
	"github.com/pbem-referee/referee/engine/fromage/notation"
)

// Foresee implements engine.Foreseer (issue 12.6): the error a line is
// certain to meet whenever its turn comes, so that the Table reports it,
// with its rule, when the message arrives instead of queueing (or sealing)
// a line that can only fail. Only what never changes back is foreseen:
//
//   - MAKE or MILK on a space marked ✕ for this player count (FR-2.6) or
//     already holding a cheese (FR-5.3.1, FR-5.6.1): a cheese stays where
//     it is put;
//   - MILK with a zone the seat's board does not have (FR-5.6.1) or has
//     already used (FR-5.6.4: a zone is used once a game);
//   - BUILD of a structure ability already built (FR-5.9.1).
//
// In a sealed turn the board is the one the seat sees: the others'
// cheeses of this turn are not told before the reveal.
//
// What depends on the turn (the venue in front of the seat, a worker at
// home, cheese tokens, cattle) is left to the turn.
func (s *State) Foresee(seat int, slot, line string) *engine.RuleError {
	if seat < 0 || seat >= len(s.Players) {
		return nil
	}
	m, ok := engine.ParsedMove[notation.Move](s, seat, line)
	if !ok {
		return nil
	}
	p := &s.Players[seat]
	switch m.Verb {
	case "MAKE", "MILK":
		rule := "FR-5.3.1"
		if m.Verb == "MILK" {
			rule = "FR-5.6.1"
			z := m.N - 1
			if z < 0 || z >= len(p.Zones) {
				return engine.Reject("FR-5.6.1", "no_zone", "zone", m.N, "zones", len(p.Zones))
			}
			if p.Zones[z] > 0 {
				return engine.Reject("FR-5.6.4", "zone_used", "zone", m.N)
			}
		}
		if m.V < 0 || m.S < 0 || m.V >= len(s.Board) || m.S >= len(s.Board[m.V]) {
			return nil
		}
		if !s.lay.open[m.V][m.S] {
			return engine.Reject("FR-2.6", "space_crossed", "space", m.Ids.Space)
		}
		o := s.Board[m.V][m.S]
		if s.Snap != nil && o != seat {
			// A sealed turn: what the others placed this turn is not
			// revealed yet, and must not be told by a refusal.
			o = s.Snap.Board[m.V][m.S]
		}
		if o != empty {
			return engine.Reject(rule, "space_taken", "space", m.Ids.Space, "by", o)
		}
	case "BUILD":
		if m.N >= 0 && m.N < len(p.Built) && p.Built[m.N] {
			return engine.Reject("FR-5.9.1", "already_built", "column", catalog.ColNames[m.N])
		}
	}
	return nil
}
