package brewcrafters

import (
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// Issue 21: a queued line whose season's phase closed is dropped with the
// reason (BC-4.1): the Market Action Phase (BC-5.2), the Brewery Phase
// (BC-5.4) or the whole season over; a slot still open has no reason.
func TestSlotClosedReasons(t *testing.T) {
	s := newGame(t, 2, "slots")
	s.Season, s.Phase = 1, phBrewery
	for _, c := range []struct{ slot, rule, code string }{
		{"s1.market", "BC-5.2", "market_closed"},
		{"s0.market", "BC-4.1", "season_over"},
		{"s0.brewery", "BC-4.1", "season_over"},
		{"s2.market", "", ""},
		{"nonsense", "", ""},
	} {
		re := s.SlotClosed(0, c.slot)
		if c.code == "" {
			if re != nil {
				t.Errorf("%s: reason %v for an open slot", c.slot, re)
			}
			continue
		}
		if re == nil || re.Rule != c.rule || re.Code != c.code {
			t.Errorf("%s: %v, want %s %s", c.slot, re, c.rule, c.code)
		}
	}
	s.Phase = phEnd
	if re := s.SlotClosed(0, "s1.brewery"); re == nil || re.Code != "brewery_closed" {
		t.Errorf("s1.brewery after the Brewery Phase: %v", re)
	}
	var _ engine.SlotCloser = s
}
