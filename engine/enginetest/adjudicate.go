package enginetest

import (
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// The ADJUDICATE runners every game's adjudicate_test.go shares (§10.3).

// Adjudicated calls adjudicate (the game's Adjudicate of s) and checks what
// every game's ADJUDICATE promises: the state is unchanged (same
// StateHash), and the result is not nil, with one score and one rank per
// seat and Params["adjudicated"] true. It returns the result.
func Adjudicated(t testing.TB, s engine.State, seats int, adjudicate func() *engine.Result) *engine.Result {
	t.Helper()
	before, err := engine.StateHash(s)
	if err != nil {
		t.Fatal(err)
	}
	res := adjudicate()
	if after, _ := engine.StateHash(s); after != before {
		t.Fatal("Adjudicate changed the state")
	}
	if res == nil || len(res.Scores) != seats || len(res.Rank) != seats || res.Params["adjudicated"] != true {
		t.Fatalf("Adjudicate = %+v", res)
	}
	return res
}

// PartPoints returns the points of each part of sc, in order.
func PartPoints(sc engine.Score) []int {
	got := make([]int, 0, len(sc.Parts))
	for _, p := range sc.Parts {
		got = append(got, p.Points)
	}
	return got
}

// Checkpoints paces CheckAlongBotGames.
type Checkpoints struct {
	Every int    // check the position every Every moves, from the first
	Limit int    // a game still running after Limit moves fails ("no end")
	Min   int    // a game with fewer checked positions fails
	Seed  uint64 // the bot's random source of the k-th game: PCG(k, Seed)
}

// CheckAlongBotGames plays one whole game of g per config, bot choosing
// (BotMove), and calls check on the position every cp.Every moves. It
// returns the finished states, in config order.
func CheckAlongBotGames(t *testing.T, g engine.Game, bot engine.Bot, cfgs []engine.Config, cp Checkpoints, check func(st engine.State)) []engine.State {
	t.Helper()
	var ends []engine.State
	for k, cfg := range cfgs {
		st, _, err := g.NewState(cfg)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(k), cp.Seed))
		checked := 0
		for n := 0; st.Result() == nil; n++ {
			if n > cp.Limit {
				t.Fatal("no end")
			}
			if n%cp.Every == 0 {
				check(st)
				checked++
			}
			BotMove(t, st, bot, rng)
		}
		if checked < cp.Min {
			t.Errorf("%d players: %d positions checked", len(cfg.Seats), checked)
		}
		ends = append(ends, st)
	}
	return ends
}
