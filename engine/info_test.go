package engine_test

import (
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters"
	"github.com/pbem-referee/referee/engine/dicebrewing"
	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/engine/fromage"
	"github.com/pbem-referee/referee/engine/heavenale"
)

// TestInfoSharedNotBuiltPerCall_Issue24: every game's Info is one value
// built once (engine/doc.go "The parts of the contract"): asking it makes
// nothing, and two answers share their slices. A round of 5,000 games
// asks it about 10,000 times (seating, every mail's title).
func TestInfoSharedNotBuiltPerCall_Issue24(t *testing.T) {
	for _, g := range []engine.Game{dicebrewing.Game, heavenale.Game{}, brewcrafters.Game{}, fromage.Game{}, enginetest.Toy} {
		name := g.Info().Name
		if n := testing.AllocsPerRun(100, func() { _ = g.Info() }); n != 0 {
			t.Errorf("%s: Info makes %v allocations, want 0", name, n)
		}
		a, b := g.Info(), g.Info()
		if &a.Variants[0] != &b.Variants[0] || &a.Commands[0] != &b.Commands[0] {
			t.Errorf("%s: two Info answers do not share their lists", name)
		}
	}
}
