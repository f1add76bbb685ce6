package brewcrafters

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// TestGreedyBeatsRandom: the greedy bot wins at least 190 of 200 two-player
// games against the random one, seats alternating (BC_BOTGAMES=200; the
// normal run plays 20 and asks for 19).
func TestGreedyBeatsRandom(t *testing.T) {
	n, need := 20, 19
	if os.Getenv("BC_BOTGAMES") != "" {
		n, need = 200, 190
	}
	rng := rand.New(rand.NewPCG(5, 6))
	wins := 0
	for i := 0; i < n; i++ {
		cfg := engine.Config{Seats: []string{"g", "r"}, Seed: fmt.Sprintf("bots-%d", i),
			Variant: []string{"first", "standard", "complex"}[i%3]}
		g := i % 2
		bots := []engine.Bot{engine.RandomBot{}, engine.RandomBot{}}
		bots[g] = Greedy{}
		s, _ := playChecked(t, cfg, bots, rng)
		if s.Res.Rank[g] == 1 && s.Res.Rank[1-g] != 1 {
			wins++
		}
	}
	t.Logf("greedy won %d of %d", wins, n)
	if wins < need {
		t.Errorf("greedy won %d of %d, want %d", wins, n, need)
	}
}
