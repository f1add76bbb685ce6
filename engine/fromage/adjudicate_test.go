package fromage

import (
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// TestAdjudicateScoresThePositionNow: ADJUDICATE of a late tournament game
// scores the position as it stands, by the final scoring (FR-7.2 to
// FR-7.10) as the provisional score of an observer's mail shows it (§10.3
// item 7: during a sealed turn, the start of the turn); it changes nothing, and it is nil once the game is over and in solo games.
func TestAdjudicateScoresThePositionNow(t *testing.T) {
	t.Parallel()
	greedy, _ := Game{}.NewBot("greedy")
	for k, seats := range [][]string{seatNames[:2], seatNames[:3], seatNames[:4]} {
		st, _, err := Game{}.NewState(engine.Config{Seats: seats, Seed: "adj"})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(k), 7))
		checked := 0
		for n := 0; st.Result() == nil; n++ {
			if n > 20000 {
				t.Fatal("no end")
			}
			if n%25 == 0 {
				adjudicateNow(t, st.(*State))
				checked++
			}
			d := st.Pending()[0]
			opts := st.Legal(d)
			i := 0
			if len(opts) > 1 {
				i = greedy.Choose(st, d, opts, rng)
			}
			m, err := st.Parse(d.Seat, opts[i].Cmd)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.Apply(d.Seat, m); err != nil {
				t.Fatal(err)
			}
		}
		if st.(*State).Adjudicate() != nil {
			t.Errorf("%d players: Adjudicate of a finished game is not nil", len(seats))
		}
		if checked < 3 {
			t.Errorf("%d players: only %d positions adjudicated", len(seats), checked)
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
	before, err := engine.StateHash(s)
	if err != nil {
		t.Fatal(err)
	}
	res := s.Adjudicate()
	if after, _ := engine.StateHash(s); after != before {
		t.Fatal("Adjudicate changed the state")
	}
	if res == nil || len(res.Scores) != len(s.Players) || len(res.Rank) != len(s.Players) || res.Params["adjudicated"] != true {
		t.Fatalf("turn %d: Adjudicate = %+v", s.Turn, res)
	}
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
