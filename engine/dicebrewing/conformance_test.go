package dicebrewing

import (
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// conformanceConfigs covers every player count, both variants and every
// option value at least once. Random players stall this game (they hoard
// ingredients and sell their dice), so these games use the round_limit
// house rule to end; TestRandomGames also plays uncapped mixed games.
func conformanceConfigs() []engine.Config {
	seats := []string{"ann", "bob", "cat", "dan"}
	var out []engine.Config
	opts := []map[string]string{
		{"round_limit": "5"},
		{"round_limit": "5", "unlucky_roll": "true", "block_building_timing": "brewing"},
		{"round_limit": "4", "first_player": "2", "hidden_action_tokens": "true"},
	}
	for n := 2; n <= 4; n++ {
		for vi, v := range []string{"standard", "advanced"} {
			o := opts[(n+vi)%len(opts)]
			if v == "advanced" {
				o = map[string]string{"round_limit": o["round_limit"], "unlucky_roll": o["unlucky_roll"], "block_building_timing": o["block_building_timing"]}
				for k, val := range o {
					if val == "" {
						delete(o, k)
					}
				}
			}
			out = append(out, engine.Config{Variant: v, Seats: seats[:n], Seed: "conf", Options: o})
		}
	}
	return out
}

// TestConformance runs the shared engine-contract suite.
func TestConformance(t *testing.T) {
	t.Parallel()
	enginetest.Conformance(t, Game, conformanceConfigs(), 2)
}
