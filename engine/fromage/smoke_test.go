package fromage

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

func TestSmokeRandom(t *testing.T) {
	g := Game{}
	for n := 1; n <= 4; n++ {
		for _, v := range []string{"standard", "advanced"} {
			for i := 0; i < 5; i++ {
				cfg := engine.Config{Variant: v, Seats: []string{"a", "b", "c", "d"}[:n], Seed: fmt.Sprint("s", n, v, i)}
				bots := make([]engine.Bot, n)
				for k := range bots {
					bots[k] = engine.RandomBot{}
				}
				st, moves, err := engine.PlayOut(g, cfg, bots, rand.New(rand.NewPCG(uint64(i), 1)), true, 0)
				if err != nil {
					t.Fatalf("%d %s %d: %v", n, v, i, err)
				}
				r := st.Result()
				t.Logf("%dp %s: %d moves, turn %d, totals %v params %v", n, v, moves, st.(*State).Turn, r.Scores[0].Total, r.Params)
			}
		}
	}
}
