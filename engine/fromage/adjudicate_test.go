package fromage

import (
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// TestAdjudicateScoresThePositionNow: ADJUDICATE of a late tournament game
// scores the position as it stands, by the final scoring (FR-7.2 to
// FR-7.10) as the provisional score of an observer's mail shows it (§10.3
// item 7: during a sealed turn, the start of the turn); it changes nothing, and it is nil once the game is over and in solo games.
func TestAdjudicateScoresThePositionNow(t *testing.T) {
	t.Parallel()
	greedy, _ := Game{}.NewBot("greedy")
	var cfgs []engine.Config
	for _, seats := range [][]string{seatNames[:2], seatNames[:3], seatNames[:4]} {
		cfgs = append(cfgs, engine.Config{Seats: seats, Seed: "adj"})
	}
	ends := enginetest.CheckAlongBotGames(t, Game{}, greedy, cfgs, enginetest.Checkpoints{Every: 25, Limit: 20000, Min: 3, Seed: 7}, func(st engine.State) {
		adjudicateNow(t, st.(*State))
	})
	for _, st := range ends {
		if st.(*State).Adjudicate() != nil {
			t.Errorf("%d players: Adjudicate of a finished game is not nil", len(st.(*State).Players))
		}
	}
	solo, _, err := Game{}.NewState(engine.Config{Variant: "advanced", Seats: seatNames[:1], Seed: "adj", Options: map[string]string{"level": "3"}})
	if err != nil {
		t.Fatal(err)
	}
	if solo.(*State).Adjudicate() != nil {
		t.Error("a solo game was adjudicated")
	}
}

func adjudicateNow(t *testing.T, s *State) {
	t.Helper()
	res := enginetest.Adjudicated(t, s, len(s.Players), s.Adjudicate)
	v := s.View(-1).(View) // an observer's: the public position
	best := 0
	for seat, sc := range res.Scores {
		if sc.Seat != seat || sc.Total != v.Players[seat].Score.Total {
			t.Fatalf("turn %d seat %d: adjudicated %d, the mail's provisional score %d", s.Turn, seat, sc.Total, v.Players[seat].Score.Total)
		}
		best = max(best, sc.Total)
	}
	for seat, sc := range res.Scores {
		if res.Rank[seat] == 1 && sc.Total != best {
			t.Fatalf("turn %d: seat %d ranked first with %d, best %d", s.Turn, seat, sc.Total, best)
		}
	}
}
