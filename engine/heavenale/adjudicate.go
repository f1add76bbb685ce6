package heavenale

import "github.com/pbem-referee/referee/engine"

// Adjudicate scores a game that is not over as it stands: the final
// scoring (HA-7.2 to HA-7.4, the evening-out by HA-7.6, a standing AUTO
// ENDSELL included, §10.2) applied to the position now, the projected
// score the summary shows "if the game ended now" (§10.4 item 6); ties
// share the place (HA-7.5). The referee uses it when a tournament
// organiser ADJUDICATEs a late game. Everything it reads is public
// (HA-6): markers, ducats, barrels, cards and the start area.
//
// It is nil once the game is over (Result holds the score). It changes
// nothing: the final scoring runs on a copy.
func (s *State) Adjudicate() *engine.Result {
	if s.Phase == phaseOver {
		return nil
	}
	c := s.Clone().(*State)
	c.finish()
	res := c.Result()
	if res == nil {
		return nil
	}
	res.Params = map[string]any{"adjudicated": true, "round": s.Round}
	return res
}
