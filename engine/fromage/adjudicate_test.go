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

// TestStandingIsTheSamePublicPositionForEverySeat_Issue22: the summary's
// standing (View.Standing) is the score if the game ended now and its
// leader as the public position gives it (FR-7.2 to FR-7.10): during a
// sealed turn, the start of the turn (FR-6.4). Every seat's view and an
// observer's show the same totals and the same leader, Adjudicate's, so
// that no seat's own sealed moves make its numbers unlike the others' and
// no seat learns another's moves from them; only the reader's own row may
// add the reader's score with their own moves of the turn. Greedy games
// of 2 to 4 players, checked every 7 moves; the test fails if no
// checkpoint had a reader whose own sealed moves changed their score.
func TestStandingIsTheSamePublicPositionForEverySeat_Issue22(t *testing.T) {
	t.Parallel()
	greedy, _ := Game{}.NewBot("greedy")
	var cfgs []engine.Config
	for _, seats := range [][]string{seatNames[:2], seatNames[:3], seatNames[:4]} {
		cfgs = append(cfgs, engine.Config{Seats: seats, Seed: "standing"}, engine.Config{Variant: "advanced", Seats: seats, Seed: "standing"})
	}
	sealed := 0
	enginetest.CheckAlongBotGames(t, Game{}, greedy, cfgs, enginetest.Checkpoints{Every: 7, Limit: 20000, Min: 3, Seed: 22}, func(st engine.State) {
		s := st.(*State)
		res := s.Adjudicate()
		if res == nil {
			return
		}
		public := s.View(-1).(View).Standing
		if len(public) != len(s.Players) {
			t.Fatalf("turn %d: an observer's standing has %d rows for %d seats", s.Turn, len(public), len(s.Players))
		}
		for seat := -1; seat < len(s.Players); seat++ {
			v := s.View(seat).(View)
			for i, row := range v.Standing {
				if row.Name != s.H.Seats[i] || row.Total != res.Scores[i].Total || row.Lead != (res.Rank[i] == 1) ||
					row.Total != public[i].Total || row.Lead != public[i].Lead {
					t.Fatalf("turn %d phase %s, seat %d's view: row %d %+v, adjudicated %d rank %d, observer's %+v",
						s.Turn, s.Phase, seat, i, row, res.Scores[i].Total, res.Rank[i], public[i])
				}
				switch {
				case i != seat && (row.Sealed || row.Mine != 0):
					t.Fatalf("turn %d: seat %d's view shows seat %d's score with its sealed moves: %+v", s.Turn, seat, i, row)
				case i == seat && row.Sealed != (v.You.Score.Total != row.Total):
					t.Fatalf("turn %d: seat %d's own row %+v, its own score with its moves %d", s.Turn, seat, row, v.You.Score.Total)
				case i == seat && row.Sealed:
					if row.Mine != v.You.Score.Total {
						t.Fatalf("turn %d: seat %d's own row %+v, its own score with its moves %d", s.Turn, seat, row, v.You.Score.Total)
					}
					sealed++
				}
			}
		}
	})
	t.Logf("%d own rows with sealed moves", sealed)
	if sealed == 0 {
		t.Error("no checkpoint had a seat whose own sealed moves changed its score: the test shows nothing")
	}
}
