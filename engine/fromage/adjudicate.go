package fromage

import "github.com/pbem-referee/referee/engine"

// Adjudicate scores a game that is not over as it stands: the final scoring
// applied to the position now (FR-7.2 to FR-7.10), the provisional score of
// the everyone section of the mail (§10.3, "as if the game ended now").
// The referee uses it when a tournament organiser ADJUDICATEs a late game.
// During a sealed turn it scores the public position, the start of the
// turn: the seats' sealed moves of the turn are neither complete nor
// revealed. It is nil once the game is over (Result holds the score) and in
// solo games (the Corporation's track only ends with the game). It changes
// nothing.
func (s *State) Adjudicate() *engine.Result {
	if s.Phase == phaseOver || s.Corp != nil {
		return nil
	}
	st := s
	if s.Phase == phaseTurn && s.Snap != nil {
		st = s.masked(-1)
	}
	res := st.scoreNow()
	res.Params["adjudicated"] = true
	return res
}
