package brewcrafters

import (
	"fmt"
	"strings"

	"github.com/pbem-referee/referee/engine"
)

// SlotClosed implements engine.SlotCloser: why a line queued for a season's
// phase can no longer be played, for the mail that tells its owner (issue
// 21: queued lines never vanish). A Market line whose season's Market
// Action Phase is over: market_closed (BC-4.1, BC-5.2); a Brewery line
// whose Brewery Phase is over: brewery_closed (BC-4.1, BC-5.4); the
// season itself over: season_over (BC-4.1).
func (s *State) SlotClosed(seat int, slot string) *engine.RuleError {
	if s.SlotOpen(seat, slot) {
		return nil
	}
	var season int
	var kind string
	if _, err := fmt.Sscanf(strings.Replace(slot, ".", " ", 1), "s%d %s", &season, &kind); err != nil {
		return nil
	}
	if s.Res != nil {
		return engine.Reject("BC-4.3", engine.CodeGameOver)
	}
	if season < s.Season {
		return engine.Reject("BC-4.1", "season_over", "season", season)
	}
	switch kind {
	case phMarket:
		return engine.Reject("BC-5.2", "market_closed", "season", season)
	case phBrewery:
		return engine.Reject("BC-5.4", "brewery_closed", "season", season)
	}
	return nil
}
