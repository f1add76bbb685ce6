package enginetest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// RandomWalk plays games of g by random legal answers and calls visit at
// every decision owed, before it is answered: game i has 2 seats when i is
// even and 3 when odd, the seed prefix+i, its answers drawn from the
// random source (i, stream), and at most steps answers. It is the walk of
// the tests that look at positions of random games (menus, groups).
func RandomWalk(t testing.TB, g engine.Game, prefix string, games, steps int, stream uint64,
	visit func(st engine.State, d engine.Decision, opts []engine.Option)) {
	t.Helper()
	for i := 0; i < games; i++ {
		st, _, err := g.NewState(engine.Config{Seats: []string{"ann", "bob", "cat"}[:2+i%2], Seed: fmt.Sprint(prefix, i)})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), stream))
		for n := 0; st.Result() == nil && n < steps; n++ {
			pend := st.Pending()
			if len(pend) == 0 {
				t.Fatal("nobody to move and no result")
			}
			d := pend[0]
			opts := st.Legal(d)
			visit(st, d, opts)
			m, err := st.Parse(d.Seat, opts[rng.IntN(len(opts))].Cmd)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.Apply(d.Seat, m); err != nil {
				t.Fatal(err)
			}
		}
	}
}
