package brewcrafters

import (
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// TestConformance runs the shared contract suite over every player count and
// variant (BC-1.1, BC-3).
func TestConformance(t *testing.T) {
	seats := []string{"ann", "bob", "cat", "dan", "eve"}
	var cfgs []engine.Config
	for n := 2; n <= 5; n++ {
		v := []string{"first", "standard", "complex"}[n%3]
		opts := map[string]string{}
		if n == 3 {
			opts["research_side"] = "advanced"
		}
		cfgs = append(cfgs, engine.Config{Variant: v, Seats: seats[:n], Seed: "conf", Options: opts})
	}
	enginetest.Conformance(t, Game{}, cfgs, 1)
}
