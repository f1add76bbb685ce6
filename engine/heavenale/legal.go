// The decision owed now and its legal options (Legal), with the parameters
// of each option's effect that the menus show; Apply (apply.go) plays them.

package heavenale

import (
	"slices"
	"strconv"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
	"github.com/pbem-referee/referee/engine/heavenale/notation"
)

// Decision kinds (documented in doc.go; templates key prompts on them).
const (
	kindSetup = "setup" // start-space pick at setup (HA-3.9)
	kindMove  = "move"  // destination (HA-5.1)
	kindBuy   = "buy"   // purchases (HA-5.2, HA-5.3)
	kindShed  = "shed"  // shed activation (HA-5.5.4)
	kindScore = "score" // scoring spot (HA-5.6)
	kindPriv  = "priv"  // privilege card (HA-5.9)
	kindHome  = "home"  // start space on entering the start area (HA-5.12)
)

func (s *State) kind() string {
	if s.Phase == phaseSetup {
		return kindSetup
	}
	return s.Sub
}

// decision returns the decision owed now.
func (s *State) decision() engine.Decision {
	seat := s.Cur
	d := engine.Decision{Seat: seat, Mode: engine.Sequential, Kind: s.kind(), Rank: 0,
		Slot: slotOf(s.Players[seat].Turns + 1), Params: map[string]any{"round": s.Round, "rounds": s.Rounds}}
	switch d.Kind {
	case kindSetup:
		d.Slot = "setup"
		d.Default = s.homeDefault(seat, "HOME")
	case kindMove:
		d.Pass, d.Default = "GO HOME", "GO HOME"
		d.Params["pos"] = s.Players[seat].Pos
		// AMB-2: the last round's reminder that cards can be sold.
		d.Params["last"] = s.Round == s.Rounds
	case kindBuy:
		n := s.Players[seat].Pos
		d.Params["space"] = n
		d.Params["bought"] = s.Bought
		// Each tile's price shady/sunny, and the empty spots per side.
		var prices []string
		seen := map[string]bool{}
		for _, t := range s.Spaces[n] {
			if !seen[t] {
				seen[t] = true
				prices = append(prices, t+" "+strconv.Itoa(s.price(n, t, catalog.SideShade))+"/"+strconv.Itoa(s.price(n, t, catalog.SideSun)))
			}
		}
		d.Params["prices"] = prices
		d.Params["free_sun"] = len(s.emptyOn(seat, catalog.SideSun))
		d.Params["free_shade"] = len(s.emptyOn(seat, catalog.SideShade))
		if s.Bought > 0 {
			d.Pass, d.Default = "DONE", "DONE"
		} else {
			d.Default = s.Legal0(seat)
		}
	case kindShed:
		k := s.Sheds[0]
		d.Params["site"] = s.r.SiteName[k]
		d.Params["type"] = catalog.ShedType(s.Players[seat].Garden[s.r.ShedSites[k]])
		d.Default = s.Legal0(seat)
	case kindScore:
		d.Params["space"] = s.Players[seat].Pos
		d.Default = s.Legal0(seat)
	case kindPriv:
		d.Params["pair"] = s.Pair + 1
		d.Pass, d.Default = "PRIV PASS", "PRIV PASS"
		if opts := s.privOptions(seat, true); len(opts) == 1 {
			d.Default = opts[0]
		}
	case kindHome:
		d.Default = s.homeDefault(seat, "HOME")
	}
	return d
}

// Legal0 returns the first legal option of the current decision.
func (s *State) Legal0(seat int) string {
	opts := s.options(seat)
	if len(opts) == 0 {
		return ""
	}
	return opts[0]
}

// homeDefault is the start space taken without an answer: the first free
// space of the seat's PREF HOME, else BREW, CASH, RES on the least advanced
// marker, FIRST.
func (s *State) homeDefault(seat int, verb string) string {
	opts := s.homeOptions(seat, verb, true)
	return opts[0]
}

// Legal implements engine.State.
func (s *State) Legal(d engine.Decision) []engine.Option {
	if s.Phase == phaseOver || d.Seat != s.Cur || d.Kind != s.kind() {
		return nil
	}
	cmds := s.options(d.Seat)
	out := make([]engine.Option, len(cmds))
	for i, c := range cmds {
		out[i] = engine.Option{Cmd: c}
	}
	if d.Kind == kindBuy {
		s.menuParams(d.Seat, out)
	}
	for i := range out {
		switch d.Kind {
		case kindMove:
			out[i].Params = s.moveParams(d.Seat, out[i].Cmd)
			out[i].Group = s.moveGroup(out[i].Cmd)
		case kindBuy:
			out[i].Group = buyGroup(out[i].Cmd)
		case kindShed, kindScore, kindPriv:
			out[i].Params = s.effectParams(d.Seat, out[i].Cmd)
		}
	}
	if d.Kind == kindMove || d.Kind == kindBuy {
		s.bestKnownFirst(d.Seat, out)
	}
	return out
}

// bestKnownFirst orders a move or buy menu (issue 22, "group them by kind
// of action, then the best-known first"; doc.go "Menus that fit a
// decision"): the groups stay in the order of their first option as
// options() builds them (nearest kind first; the purchases' END group
// last), and within a group the option worth most now comes first
// (optionWorth), ties in the order built (nearest first, sunny first).
// Only the menu's order changes: options(), Legal0 and every default
// keep the order built.
func (s *State) bestKnownFirst(seat int, opts []engine.Option) {
	rank := map[string]int{}
	worth := make([]int, len(opts))
	for i, o := range opts {
		if _, ok := rank[o.Group]; !ok {
			rank[o.Group] = len(rank)
		}
		worth[i] = s.optionWorth(seat, o)
	}
	idx := make([]int, len(opts))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if ra, rb := rank[opts[a].Group], rank[opts[b].Group]; ra != rb {
			return ra - rb
		}
		return worth[b] - worth[a]
	})
	sorted := make([]engine.Option, len(opts))
	for k, i := range idx {
		sorted[k] = opts[i]
	}
	copy(opts, sorted)
}

// optionWorth is what an option of a move or buy menu is worth now, as
// the rules give it without search (the rule "best known" of doc.go):
//
//   - a resource or monk space: the value of the best tile the seat can
//     pay there on a shady spot with its ducats and its cards' sale
//     (a resource tile's number, the steps its marker moves when it is
//     activated, HA-5.5; a monk's type, HA-5.3), 0 when none;
//   - a scoring-disc space: the spots the seat's disc can score (HA-5.6);
//   - a barrel space: the barrels the seat would claim (HA-5.7);
//   - a purchase: the fertility sum of the shed site it encloses (HA-5.5),
//     0 when it encloses none;
//   - anything else (GO HOME, DONE, SELL): 0.
func (s *State) optionWorth(seat int, o engine.Option) int {
	switch o.Params["kind"] {
	case "resource", "monk":
		tiles, _ := o.Params["tiles"].([]string)
		prices, _ := o.Params["prices"].([]int)
		purse := s.Players[seat].Ducats + s.sellable(seat)
		best := 0
		for i, t := range tiles {
			if i < len(prices) && prices[i] <= purse {
				best = max(best, catalog.TileFert(t), catalog.MonkType(t))
			}
		}
		return best
	case "disc":
		spots, _ := o.Params["spots"].([]string)
		return len(spots)
	case "barrel":
		goals, _ := o.Params["goals"].([]string)
		return len(goals)
	}
	if sum, ok := o.Params["sum"].(int); ok {
		return sum
	}
	return 0
}

// moveParams describes a destination for the track menu.
func (s *State) moveParams(seat int, cmd string) map[string]any {
	if cmd == "GO HOME" {
		var free []string
		for _, h := range s.freeHomes(seat) {
			free = append(free, catalog.HomeNames[h])
		}
		return map[string]any{"space": catalog.HomePos, "kind": "home", "free": free}
	}
	n, _ := strconv.Atoi(cmd[3:])
	sp := s.r.Track[n]
	pm := map[string]any{"space": n, "kind": sp.Kind, "label": sp.Label}
	switch sp.KindIdx {
	case catalog.KindResource, catalog.KindMonk:
		pm["tiles"] = slices.Clone(s.Spaces[n])
		if sp.KindIdx == catalog.KindMonk {
			pm["cost"] = sp.Cost
		}
		// Each tile's price on a shady spot (twice on a sunny one), for
		// the menu in words (menu.go).
		var prices []int
		for _, t := range s.Spaces[n] {
			prices = append(prices, s.price(n, t, catalog.SideShade))
		}
		pm["prices"] = prices
	case catalog.KindDisc:
		var spots []string
		for _, o := range s.usable(seat, sp.DiscIdx) {
			if o.Spot == catalog.SpotX {
				if len(spots) == 0 || spots[len(spots)-1] != "X" {
					spots = append(spots, "X")
				}
				continue
			}
			spots = append(spots, catalog.SpotNames[o.Spot])
		}
		pm["spots"] = spots
	case catalog.KindBarrel:
		var goals []string
		var barrels []map[string]any
		for _, g := range s.claimable(seat) {
			size := "large"
			if s.Large[g] >= 0 {
				size = "small"
			}
			goals = append(goals, s.r.Goals[g].ID+":"+size)
			barrels = append(barrels, map[string]any{"id": s.r.Goals[g].ID, "large": size == "large", "fact": s.r.Goals[g].FactParam()})
		}
		pm["goals"] = goals
		pm["barrels"] = barrels
	}
	return pm
}

// effectParams describes what a shed, scoring or privilege option would
// do, by trying it on a copy: "tiles" activated (spot:tile) and "gain",
// the changes of the seat's ducats, brewmaster and markers (keys "ducats",
// "brew", "WO".."BA").
func (s *State) effectParams(seat int, cmd string) map[string]any {
	c := &State{H: s.H.Clone(), Core: s.Core.clone(), r: s.r}
	m, err := c.Parse(seat, cmd)
	if err != nil {
		return nil
	}
	evs, err := c.apply(seat, m.(notation.Move))
	if err != nil {
		return nil
	}
	pm := map[string]any{}
	for _, e := range evs {
		if e.Seat == seat && (e.Type == "ha.score" || e.Type == "ha.shed_activate") {
			pm["tiles"] = e.Params["tiles"]
		}
	}
	a, b := &s.Players[seat], &c.Players[seat]
	gain := map[string]any{}
	if d := b.Ducats - a.Ducats; d != 0 {
		gain["ducats"] = d
	}
	if d := b.Brew - a.Brew; d != 0 {
		gain["brew"] = d
	}
	for k := range a.Markers {
		if d := b.Markers[k] - a.Markers[k]; d != 0 {
			gain[catalog.ColourNames[k]] = d
		}
	}
	pm["gain"] = gain
	return pm
}

// options lists the canonical commands answering the current decision.
func (s *State) options(seat int) []string {
	switch s.kind() {
	case kindSetup, kindHome:
		return s.homeOptions(seat, "HOME", false)
	case kindMove:
		var out []string
		for n := 1; n < catalog.HomePos; n++ {
			if s.reachable(seat, n) {
				out = append(out, "GO "+strconv.Itoa(n))
			}
		}
		return append(out, "GO HOME")
	case kindBuy:
		return s.buyOptions(seat)
	case kindShed:
		k := s.Sheds[0]
		t := catalog.ShedType(s.Players[seat].Garden[s.r.ShedSites[k]])
		var out []string
		for _, set := range s.r.Patterns[k][t] {
			cmd := "SHED"
			for _, c := range set {
				cmd += " " + s.r.Cells[c].ID
			}
			out = append(out, cmd)
		}
		return out
	case kindScore:
		sp := s.r.Track[s.Players[seat].Pos]
		var out []string
		for _, o := range s.usable(seat, sp.DiscIdx) {
			cmd := "SCORE " + catalog.SpotNames[o.Spot]
			if o.Spot == catalog.SpotX {
				cmd += " " + strconv.Itoa(o.N)
			}
			out = append(out, cmd)
		}
		return out
	case kindPriv:
		return s.privOptions(seat, true)
	}
	return nil
}

// homeOptions lists the start spaces the seat may take; with pref, only the
// one its standing order (PREF HOME) or the forced rule picks, if any.
func (s *State) homeOptions(seat int, verb string, first bool) []string {
	free := s.freeHomes(seat)
	var out []string
	for _, h := range free {
		if h == catalog.HomeRes {
			for c := range catalog.ColourNames {
				out = append(out, verb+" RES "+catalog.ColourNames[c])
			}
			continue
		}
		out = append(out, verb+" "+catalog.HomeNames[h])
	}
	// Standing order PREF HOME (§10.2): the first free space listed.
	p := &s.Players[seat]
	if len(p.PrefHome) > 0 || first {
		prefs := p.PrefHome
		if first && len(prefs) == 0 {
			low := 0
			for c := range p.Markers {
				if p.Markers[c] < p.Markers[low] {
					low = c
				}
			}
			prefs = []string{"BREW", "CASH", "RES", catalog.ColourNames[low], "FIRST"}
		}
		for i := 0; i < len(prefs); i++ {
			want := verb + " " + prefs[i]
			if prefs[i] == "RES" && i+1 < len(prefs) {
				want += " " + prefs[i+1]
				i++
			}
			for _, o := range out {
				if o == want {
					return []string{o}
				}
			}
		}
		if first {
			return out[:1]
		}
	}
	return out
}

// privOptions lists the privilege answers; with pref, narrowed by the
// seat's PREF PRIV (§10.2).
func (s *State) privOptions(seat int, pref bool) []string {
	p := &s.Players[seat]
	var out []string
	low := p.lowest()
	for _, c := range catalog.CardNames {
		if !p.hasCard(c) {
			continue
		}
		switch c {
		case "COLOR":
			for col := range catalog.ColourNames {
				out = append(out, "PRIV COLOR "+catalog.ColourNames[col])
			}
		case "LOW":
			for col := range catalog.ColourNames {
				if p.Markers[col] == low {
					out = append(out, "PRIV LOW "+catalog.ColourNames[col])
				}
			}
		default:
			out = append(out, "PRIV "+c)
		}
	}
	out = append(out, "PRIV PASS")
	if pref && len(p.PrefPriv) > 0 {
		switch p.PrefPriv[0] {
		case "ASK":
		case "PASS":
			return []string{"PRIV PASS"}
		default:
			for _, c := range p.PrefPriv {
				if p.hasCard(c) {
					return []string{"PRIV " + c}
				}
			}
		}
	}
	return out
}

// buyOptions lists the purchases affordable now, DONE after the first, and
// the sales that make another tile affordable (HA-5.2, HA-5.10).
func (s *State) buyOptions(seat int) []string {
	p := &s.Players[seat]
	n := p.Pos
	var out []string
	seen := map[string]bool{}
	needSale := false
	for _, t := range s.Spaces[n] {
		if seen[t] {
			continue
		}
		seen[t] = true
		for _, side := range []int{catalog.SideSun, catalog.SideShade} {
			pr := s.price(n, t, side)
			empty := s.emptyOn(seat, side)
			if len(empty) == 0 {
				continue
			}
			if pr > p.Ducats {
				if pr <= p.Ducats+s.sellable(seat) {
					needSale = true
				}
				continue
			}
			for _, c := range empty {
				out = append(out, "BUY "+t+" "+s.r.Cells[c].ID)
			}
		}
	}
	if s.Bought > 0 {
		out = append(out, "DONE")
	}
	if needSale {
		for _, c := range catalog.CardNames {
			if p.hasCard(c) {
				out = append(out, "SELL "+c)
			}
		}
	}
	return out
}
