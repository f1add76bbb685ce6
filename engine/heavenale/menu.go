package heavenale

import (
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
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
//     price on that side and on each side ("shade", "sun": the heading
//     of the tile's group), and the shed site the tile would enclose with the
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
	side := catalog.SideShade
	if strings.HasPrefix(spot, "S") {
		side = catalog.SideSun
	}
	pm := map[string]any{"verb": "BUY", "tile": tile, "spot": spot, "side": sideNames[side],
		"price": s.price(s.Players[seat].Pos, tile, side)}
	// The tile's two prices, for the heading of its group (one heading
	// for all of its spots).
	pm["shade"] = s.price(s.Players[seat].Pos, tile, catalog.SideShade)
	pm["sun"] = s.price(s.Players[seat].Pos, tile, catalog.SideSun)
	if catalog.MonkType(tile) > 0 {
		pm["monk"] = true
	}
	if ns, ok := near[spot]; ok {
		pm["encloses"] = ns.Site
		pm["sum"] = ns.Sum + catalog.TileFert(tile)
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

// Menus that fit a decision (issue 22): the options of a long decision
// carry their kind of action (engine.Option.Group), a code for the
// templates and webhook clients, never shown to a player; the Table keeps
// a group together, the groups in the order of their first option:
//
//	move  the kind of the space ("resource", "monk", "disc", "barrel"),
//	      "home" for GO HOME: along the track, nearest first
//	buy   "BUY <tile>" ("BUY YE3", "BUY M2"): one tile on each empty
//	      spot, sunny then shady, the tiles in the space's order; "END"
//	      for DONE and SELL <card>, last
//
// A group is a part of the command or of the rules' data: no allocation.

// groupEnd is the group of the moves that end or fund a purchase.
const groupEnd = "END"

// moveGroup is the group of a destination: the kind of its space.
func (s *State) moveGroup(cmd string) string {
	if cmd == "GO HOME" {
		return "home"
	}
	n, err := strconv.Atoi(strings.TrimPrefix(cmd, "GO "))
	if err != nil || n < 1 || n >= len(s.r.Track) {
		return "home"
	}
	return s.r.Track[n].Kind
}

// buyGroup is the group of a purchase: the tile bought.
func buyGroup(cmd string) string {
	if !strings.HasPrefix(cmd, "BUY ") {
		return groupEnd
	}
	if k := strings.IndexByte(cmd[4:], ' '); k >= 0 {
		return cmd[:4+k]
	}
	return cmd
}
