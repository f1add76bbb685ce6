package heavenale

import (
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// TestConformance runs the shared contract suite over every player count
// and the rule options.
func TestConformance(t *testing.T) {
	seats := []string{"ann", "ben", "cat", "dan"}
	cfgs := []engine.Config{
		{Seats: seats[:2], Seed: "conf"},
		{Seats: seats[:3], Seed: "conf"},
		{Seats: seats, Seed: "conf"},
		{Seats: seats[:3], Seed: "conf", Options: map[string]string{"setup_pick_direction": "clockwise",
			"final_exchange_may_stop": "true", "allow_x_without_matching_tile": "true",
			"adjacent_triggered_monks_activate_each_other": "false", "start_player": "2"}},
	}
	enginetest.Conformance(t, Game{}, cfgs, 1)
}
