package dicebrewing

import (
	"fmt"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

// Result implements engine.State: the final conversion (DB-7.2), the
// highest total wins (DB-7.3) and the tie-breakers (DB-7.4).
func (s *state) Result() *engine.Result {
	if s.Step != position.StepOver {
		return nil
	}
	res := &engine.Result{Params: map[string]any{"brewed": s.BrewedAll, "target": s.Target(), "rounds": s.Round}}
	for seat := range s.P {
		res.Scores = append(res.Scores, s.score(seat))
	}
	res.Rank = engine.RankScores(res.Scores)
	return res
}

// score converts a seat's holdings into its final score.
func (s *state) score(seat int) engine.Score {
	p := &s.P[seat]
	var count [catalog.NumColours]int
	for i := range s.Dice {
		if s.Dice[i].O == seat {
			count[s.Dice[i].C]++
		}
	}
	r := s.Rules
	parts := []engine.ScorePart{
		{Name: "xp", Points: p.XP},
		{Name: "coins", Points: p.Coins / r.CoinsPerXP},
	}
	names := [catalog.NumColours]string{"dice_y", "dice_k", "dice_g", "dice_b"}
	for c := 0; c < catalog.NumColours; c++ {
		parts = append(parts, engine.ScorePart{Name: names[c], Points: count[c] * r.XPColour[c]})
	}
	total := 0
	for _, pt := range parts {
		total += pt.Points
	}
	var tb []int
	for _, t := range r.Tiebreak {
		switch t {
		case "recipes":
			tb = append(tb, len(p.Brewed))
		case "resource_dice":
			tb = append(tb, count[catalog.ColY]+count[catalog.ColK]+count[catalog.ColG])
		case "coins":
			tb = append(tb, p.Coins)
		default:
			panic(fmt.Sprintf("dicebrewing: tiebreak %q", t))
		}
	}
	return engine.Score{Seat: seat, Total: total, Parts: parts, Tiebreak: tb}
}
