package heavenale

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// playRandom plays one complete game with the given bots, checking the
// invariants after every move; it returns the final state and the number
// of moves.
func playRandom(t testing.TB, cfg engine.Config, bots []engine.Bot, seed uint64, check bool) (*State, int) {
	t.Helper()
	st, _, err := Game{}.NewState(cfg)
	if err != nil {
		t.Fatalf("NewState: %v", err)
	}
	s := st.(*State)
	rng := rand.New(rand.NewPCG(seed, 11))
	moves := enginetest.Play{Name: cfg.Seed, Limit: 5000,
		Choose: func(_ int, _ engine.State, d engine.Decision, opts []engine.Option) int {
			return bots[d.Seat].Choose(s, d, opts, rng)
		},
		Applied: func(n int, _ engine.Decision, cmd string, _ []engine.Event) {
			if !check {
				return
			}
			if err := s.Check(); err != nil {
				t.Fatalf("%s: after move %d %q: %v", cfg.Seed, n+1, cmd, err)
			}
		},
	}.Run(t, s)
	return s, moves
}

var seatNames = []string{"ann", "ben", "cat", "dan"}

// TestRandomGames plays complete random games at every player count and
// with the rule options, checking the invariants after every move (HA-4:
// termination without a house limit). HA_GAMES raises the count (long run).
func TestRandomGames(t *testing.T) {
	games := 510
	if v, err := strconv.Atoi(os.Getenv("HA_GAMES")); err == nil && v > 0 {
		games = v
	}
	optSets := []map[string]string{nil,
		{"final_exchange_may_stop": "true", "allow_x_without_matching_tile": "true"},
		{"adjacent_triggered_monks_activate_each_other": "false", "setup_pick_direction": "clockwise"}}
	total := 0
	for g := 0; g < games; g++ {
		n := 2 + g%3
		cfg := engine.Config{Seats: seatNames[:n], Seed: fmt.Sprintf("rand/%d", g), Options: optSets[(g/3)%3]}
		bots := make([]engine.Bot, n)
		for i := range bots {
			bots[i] = engine.RandomBot{}
		}
		s, moves := playRandom(t, cfg, bots, uint64(g), true)
		total += moves
		if s.Round != s.Rounds {
			t.Fatalf("game ended in round %d of %d", s.Round, s.Rounds)
		}
	}
	t.Logf("%d games, %d moves", games, total)
}
