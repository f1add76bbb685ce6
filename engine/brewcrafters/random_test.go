package brewcrafters

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// randomConfig picks the setup of random game i: every player count, every
// variant, both research sides.
func randomConfig(i int) engine.Config {
	seats := []string{"ann", "bob", "cat", "dan", "eve"}
	n := 2 + i%4
	cfg := engine.Config{Seats: seats[:n], Seed: fmt.Sprintf("random-%d", i), Options: map[string]string{}}
	cfg.Variant = []string{"first", "standard", "complex"}[(i/4)%3]
	if (i/12)%2 == 1 {
		cfg.Options["research_side"] = "advanced"
	}
	return cfg
}

// playChecked plays one game with the given bots, checking the invariants
// after every move. It returns the final state and the number of moves.
func playChecked(t testing.TB, cfg engine.Config, bots []engine.Bot, rng *rand.Rand) (*State, int) {
	t.Helper()
	st0, _, err := Game{}.NewState(cfg)
	if err != nil {
		t.Fatalf("%s: %v", cfg.Seed, err)
	}
	s := st0.(*State)
	moves := enginetest.Play{Name: cfg.Seed, Limit: 20000,
		At: func(_ int, _ engine.State, pend []engine.Decision) {
			if len(pend) != 1 {
				t.Fatalf("%s: %d decisions pending", cfg.Seed, len(pend))
			}
		},
		Choose: func(_ int, _ engine.State, d engine.Decision, opts []engine.Option) int {
			return bots[d.Seat].Choose(s, d, opts, rng)
		},
		Applied: func(n int, _ engine.Decision, cmd string, _ []engine.Event) {
			if err := s.Check(); err != nil {
				t.Fatalf("%s: move %d (%q): %v", cfg.Seed, n, cmd, err)
			}
		},
	}.Run(t, s)
	return s, moves
}

// TestRandomGames plays complete games with random legal players across all
// player counts and variants, checking the invariants after every move and
// that every game reaches the end of Year 3 (BC-1.3). BC_GAMES sets the
// number (20,000 for the long run).
func TestRandomGames(t *testing.T) {
	n := 500
	if v, err := strconv.Atoi(os.Getenv("BC_GAMES")); err == nil && v > 0 {
		n = v
	}
	if testing.Short() {
		n = 40
	}
	rng := rand.New(rand.NewPCG(1, 2))
	total := 0
	for i := 0; i < n; i++ {
		cfg := randomConfig(i)
		bots := make([]engine.Bot, len(cfg.Seats))
		for k := range bots {
			bots[k] = engine.RandomBot{}
		}
		s, moves := playChecked(t, cfg, bots, rng)
		if s.Season != 11 || len(s.Res.Rank) != len(cfg.Seats) {
			t.Fatalf("%s: ended in season %d", cfg.Seed, s.Season)
		}
		total += moves
	}
	t.Logf("%d games, %d moves", n, total)
}
