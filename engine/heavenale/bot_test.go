package heavenale

import (
	"fmt"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// TestGreedyBeatsRandom: the greedy bot wins at least 190 of 200 two-player
// games against the random bot (alternating seats); 60 games (the same
// share) under the race detector or -short.
func TestGreedyBeatsRandom(t *testing.T) {
	games := 200
	if testing.Short() || raceEnabled {
		games = 60
	}
	wins := 0
	for g := 0; g < games; g++ {
		gs := g % 2
		bots := []engine.Bot{engine.RandomBot{}, engine.RandomBot{}}
		bots[gs] = Greedy{}
		cfg := engine.Config{Seats: seatNames[:2], Seed: fmt.Sprintf("bot/%d", g)}
		s, _ := playRandom(t, cfg, bots, uint64(g), false)
		res := s.Result()
		if res.Rank[gs] == 1 && res.Scores[gs].Total > res.Scores[1-gs].Total {
			wins++
		}
	}
	t.Logf("greedy won %d of %d", wins, games)
	if wins*200 < 190*games {
		t.Errorf("greedy won only %d of %d games", wins, games)
	}
}
