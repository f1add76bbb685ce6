package fromage

import (
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// TestConformance runs the shared contract suite over every player count,
// both modes, both insert sides and every Corporation level.
func TestConformance(t *testing.T) {
	seats := []string{"ann", "bob", "cat", "dan"}
	var cfgs []engine.Config
	for n := 1; n <= 4; n++ {
		for _, v := range []string{"standard", "advanced"} {
			opts := map[string]string{}
			if n%2 == 0 {
				opts = map[string]string{"city_side": "II", "festival_side": "II", "dairy_side": "II", "bistro_side": "II"}
			}
			if n == 3 {
				opts = map[string]string{"city_side": "II", "dairy_side": "II"}
			}
			cfgs = append(cfgs, engine.Config{Variant: v, Seats: seats[:n], Seed: "conf", Options: opts})
		}
	}
	for lv := 2; lv <= 4; lv++ {
		cfgs = append(cfgs, engine.Config{Seats: seats[:1], Seed: "conf", Options: map[string]string{"level": string(rune('0' + lv)), "festival_side": "II"}})
	}
	// One game per config keeps the package test within its time budget
	// under -race; TestRandomGames plays hundreds more with Check.
	enginetest.Conformance(t, Game{}, cfgs, 1)
}

// TestConformanceTables plays the Conformance suite's Table game (it uses
// the first config only) in the multi-player and advanced setups too.
func TestConformanceTables(t *testing.T) {
	seats := []string{"ann", "bob", "cat", "dan"}
	for _, c := range []engine.Config{
		{Variant: "advanced", Seats: seats, Seed: "ct4"},
		{Variant: "advanced", Seats: seats[:3], Seed: "ct3", Options: map[string]string{"bistro_side": "II"}},
		{Variant: "standard", Seats: seats[:2], Seed: "ct2"},
		{Variant: "advanced", Seats: seats[:1], Seed: "ct1", Options: map[string]string{"level": "4"}},
	} {
		enginetest.Conformance(t, Game{}, []engine.Config{c}, 1)
	}
}
