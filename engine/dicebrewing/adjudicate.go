package dicebrewing

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

// Adjudicate scores a game that is not over as it stands: the final
// conversion (DB-7.2) applied to the position now, the highest total first
// (DB-7.3), then the tie-breakers (DB-7.4). The referee uses it when a
// tournament organiser ADJUDICATEs a late game.
//
// Ruling for a position in the middle of a round: DB-7.2 counts the dice a
// player owns; at the real end they are all in AR or ST because Tidying
// has emptied the boards (DB-5.10.5). Mid-round a die placed on a board
// slot or on the Market is still its owner's until Tidying's T3 pays it to
// the supply (DB-5.10.1), so it counts for its owner, as the engine's
// final score counts every die by owner; gains not yet claimed in Tidying
// do not count. Everything scored is public (DB-6.2, DB-6.4): action
// tokens, hidden or not (DB-6.6), score nothing.
//
// It is nil once the game is over (Result holds the score). It changes
// nothing.
func (s *state) Adjudicate() *engine.Result {
	if s.Step == position.StepOver {
		return nil
	}
	res := &engine.Result{Params: map[string]any{"brewed": s.BrewedAll, "target": s.Target(), "rounds": s.Round, "adjudicated": true}}
	for seat := range s.P {
		res.Scores = append(res.Scores, s.score(seat))
	}
	res.Rank = engine.RankScores(res.Scores)
	return res
}
