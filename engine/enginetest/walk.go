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

// Play is the whole-game loop of the engines' tests, written once (issue
// 25): it answers the first pending decision until the game is done, and
// each test hangs its probes on the hooks.
type Play struct {
	// Name starts every failure's message (a seed, say).
	Name string
	// Limit fails the test when the game is not done after more answers
	// than this (0: 20,000).
	Limit int
	// Done tells the end (nil: a result).
	Done func(st engine.State) bool
	// At sees the position before answer n, with every decision pending.
	At func(n int, st engine.State, pending []engine.Decision)
	// Choose picks among the legal options of d, asked only when there
	// are more than one (nil: the first).
	Choose func(n int, st engine.State, d engine.Decision, opts []engine.Option) int
	// Applied gets each answer's events.
	Applied func(n int, d engine.Decision, cmd string, evs []engine.Event)
}

// Run plays st to its end and returns the number of answers.
func (p Play) Run(t testing.TB, st engine.State) int {
	t.Helper()
	limit := p.Limit
	if limit == 0 {
		limit = 20000
	}
	n := 0
	for ; p.Done == nil && st.Result() == nil || p.Done != nil && !p.Done(st); n++ {
		if n > limit {
			t.Fatalf("%s: no end after %d moves", p.Name, n)
		}
		pend := st.Pending()
		if len(pend) == 0 {
			t.Fatalf("%s: move %d: nobody to move and no end", p.Name, n)
		}
		if p.At != nil {
			p.At(n, st, pend)
		}
		d := pend[0]
		opts := st.Legal(d)
		if len(opts) == 0 {
			t.Fatalf("%s: move %d: no option for %s", p.Name, n, d.Kind)
		}
		i := 0
		if len(opts) > 1 && p.Choose != nil {
			i = p.Choose(n, st, d, opts)
		}
		m, err := st.Parse(d.Seat, opts[i].Cmd)
		if err != nil {
			t.Fatalf("%s: move %d: legal %q does not parse: %v", p.Name, n, opts[i].Cmd, err)
		}
		evs, err := st.Apply(d.Seat, m)
		if err != nil {
			t.Fatalf("%s: move %d: legal %q of %s rejected: %v", p.Name, n, opts[i].Cmd, d.Kind, err)
		}
		if p.Applied != nil {
			p.Applied(n, d, opts[i].Cmd, evs)
		}
	}
	return n
}
