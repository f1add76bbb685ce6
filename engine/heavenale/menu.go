package heavenale

import (
	"strings"

	"github.com/pbem-referee/referee/engine"
)

// Menus in words (issue 22). Every option of a decision carries, as its
// Params, the facts a reader needs to choose it from the mail alone: what
// it costs and what it gives. The templates turn them into words in the
// reader's language and group long menus by kind of action (option.group);
// the engine gives facts, never prose.
//
//   - Destinations (kind move, moveParams): the space's kind, its label,
//     its tiles with the shady price of each ("prices"; a sunny spot costs
//     twice, HA-5.2.2, HA-5.3.2), the spots a disc may score, the barrels
//     that would be claimed, the free start spaces.
//   - Purchases (kind buy, buyParams): the tile, the spot and its side, the
//     price on that side, and the shed site the tile would enclose with the
//     fertility sum it would reach (HA-5.5).
//   - Sheds, scoring spots, privilege cards (effectParams): what the move
//     gains, found by playing it on a copy.

// buyParams describes one purchase ("BUY YE3 D4") for the buy menu: tile,
// spot, side ("sun" or "shade"), price, and "encloses"/"sum" when the spot
// is the last empty neighbour of a shed site. near is nearSheds of the
// seat, by spot. Other commands (DONE, SELL) get their verb only.
func (s *State) buyParams(seat int, cmd string, near map[string]NearShed) map[string]any {
	f := strings.Fields(cmd)
	if len(f) != 3 || f[0] != "BUY" {
		return map[string]any{"verb": f[0]}
	}
	tile, spot := f[1], f[2]
	side := sideShade
	if strings.HasPrefix(spot, "S") {
		side = sideSun
	}
	pm := map[string]any{"verb": "BUY", "tile": tile, "spot": spot, "side": sideNames[side],
		"price": s.price(s.Players[seat].Pos, tile, side)}
	if monkType(tile) > 0 {
		pm["monk"] = true
	}
	if ns, ok := near[spot]; ok {
		pm["encloses"] = ns.Site
		pm["sum"] = ns.Sum + tileFert(tile)
	}
	return pm
}

// menuParams sets the Params of the options of a buy decision.
func (s *State) menuParams(seat int, opts []engine.Option) {
	near := map[string]NearShed{}
	for _, ns := range s.nearSheds(seat) {
		if _, ok := near[ns.Spot]; !ok {
			near[ns.Spot] = ns
		}
	}
	for i := range opts {
		opts[i].Params = s.buyParams(seat, opts[i].Cmd, near)
	}
}
