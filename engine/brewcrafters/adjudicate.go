package brewcrafters

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
)

// Adjudicate scores a game that is not over as it stands: the final
// scoring (BC-7.2) applied to the position now, the "projected score by
// category" of the summary (§10.3 item 4); most Rep wins, then most money,
// then a shared win (BC-7.3). The referee uses it when a tournament
// organiser ADJUDICATEs a late game.
//
// The operating costs due at the end of Winter (BC-5.11, and BC-7.1 for
// the last one) are not charged: they fall due only when a Winter ends,
// and a Loan they might force is not yet taken; Loans already taken count
// (BC-7.2.8). Every part scored is public: the summary shows every
// player's projection to everyone.
//
// It is nil once the game is over (Result holds the score). It changes
// nothing: the final scoring runs on a copy.
func (s *State) Adjudicate() *engine.Result {
	if s.Res != nil {
		return nil
	}
	c := s.Clone().(*State)
	c.finish()
	res := c.Res
	res.Params = map[string]any{"adjudicated": true, "year": s.year(), "season": catalog.SeasonNames[s.seasonOf()]}
	return res
}
