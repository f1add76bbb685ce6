package fromage

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
)

// randomConfig builds game k of a mix over every player count, both modes,
// both insert sides per venue, fixed or random venue order and every
// Corporation level.
func randomConfig(k int) engine.Config {
	r := rand.New(rand.NewPCG(uint64(k), 77))
	n := 1 + k%4
	opts := map[string]string{}
	for _, v := range catalog.VenueNames {
		opts[v+"_side"] = catalog.SideNames[r.IntN(2)]
	}
	if r.IntN(3) == 0 {
		opts["venues"] = venueOrders[r.IntN(len(venueOrders))]
	}
	if n == 1 {
		opts["level"] = catalog.LevelValues[r.IntN(4)]
	}
	variant := "standard"
	if (k/4)%2 == 1 {
		variant = "advanced"
	}
	return engine.Config{Variant: variant, Seats: seatNames[:n], Seed: fmt.Sprint("random-", k), Options: opts}
}

// playRandom plays one complete game with random bots, checking the
// invariants after every move.
func playRandom(k int, check bool) (engine.State, int, error) {
	bots := []engine.Bot{engine.RandomBot{}, engine.RandomBot{}, engine.RandomBot{}, engine.RandomBot{}}
	return engine.PlayOut(Game{}, randomConfig(k), bots, rand.New(rand.NewPCG(uint64(k), 3)), check, 20000)
}

// TestRandomGames plays 520 complete random games across every player
// count and variant and checks the invariants (Check: components conserved,
// no negative stock, consistent board) after every move, termination, and
// a well-formed result.
func TestRandomGames(t *testing.T) {
	games := 520
	start := time.Now()
	moves, turns := 0, 0
	for k := 0; k < games; k++ {
		st, n, err := playRandom(k, true)
		if err != nil {
			t.Fatalf("game %d (%+v): %v", k, randomConfig(k), err)
		}
		res := st.Result()
		if res == nil || len(res.Rank) != len(st.Head().Seats) || len(res.Scores[0].Parts) != 8 {
			t.Fatalf("game %d: result %+v", k, res)
		}
		for _, sc := range res.Scores {
			sum := 0
			for _, p := range sc.Parts {
				sum += p.Points
			}
			if sum != sc.Total {
				t.Fatalf("game %d: parts add to %d, total %d", k, sum, sc.Total)
			}
		}
		moves += n
		turns += st.(*State).Turn
	}
	el := time.Since(start)
	t.Logf("%d random games, %d moves, %.1f turns/game, %v (%.0f games/s)", games, moves, float64(turns)/float64(games), el, float64(games)/el.Seconds())
}

// TestLongRandomGames plays 20,000 random games when FR_LONG=1 (or the
// number FR_LONG gives).
func TestLongRandomGames(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FR_LONG"))
	if n == 0 {
		t.Skip("set FR_LONG=1 (or a game count) for the long run")
	}
	if n == 1 {
		n = 20000
	}
	start := time.Now()
	moves, failures := 0, 0
	for k := 0; k < n; k++ {
		_, m, err := playRandom(1_000_000+k, true)
		if err != nil {
			failures++
			t.Errorf("game %d: %v", k, err)
		}
		moves += m
	}
	el := time.Since(start)
	t.Logf("%d games, %d moves, %d failures, %v: %.0f games/s, %.0f moves/s", n, moves, failures, el, float64(n)/el.Seconds(), float64(moves)/el.Seconds())
}

// TestGreedyBeatsRandom: the greedy bot against the random bot over 200
// two-player games (seats alternate), and in 100 four-player games (two of
// each).
func TestGreedyBeatsRandom(t *testing.T) {
	greedy, _ := Game{}.NewBot("greedy")
	wins, games := 0, 200
	for k := 0; k < games; k++ {
		g := k % 2
		bots := []engine.Bot{engine.RandomBot{}, engine.RandomBot{}}
		bots[g] = greedy
		cfg := randomConfig(k*4 + 1) // a 2-player config
		cfg.Seed = fmt.Sprint("greedy-", k)
		st, _, err := engine.PlayOut(Game{}, cfg, bots, rand.New(rand.NewPCG(uint64(k), 5)), false, 20000)
		if err != nil {
			t.Fatal(err)
		}
		if st.Result().Rank[g] == 1 {
			wins++
		}
	}
	rate := float64(wins) / float64(games)
	t.Logf("greedy won %d of %d two-player games against random (%.1f%%)", wins, games, 100*rate)
	if rate < 0.9 {
		t.Errorf("greedy win rate %.2f, want >= 0.90", rate)
	}
	first := 0
	for k := 0; k < 100; k++ {
		bots := []engine.Bot{greedy, engine.RandomBot{}, greedy, engine.RandomBot{}}
		cfg := randomConfig(k*4 + 3)
		cfg.Seed = fmt.Sprint("greedy4-", k)
		st, _, err := engine.PlayOut(Game{}, cfg, bots, rand.New(rand.NewPCG(uint64(k), 6)), false, 20000)
		if err != nil {
			t.Fatal(err)
		}
		if r := st.Result().Rank; r[0] == 1 || r[2] == 1 {
			first++
		}
	}
	t.Logf("a greedy bot won %d of 100 four-player games (2 greedy, 2 random)", first)
	if first < 90 {
		t.Errorf("greedy won only %d of 100 four-player games", first)
	}
}
