package heavenale

import (
	"slices"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
	"github.com/pbem-referee/referee/engine/heavenale/notation"
)

// Apply implements engine.State.
func (s *State) Apply(seat int, mv engine.Move) ([]engine.Event, error) {
	m, ok := mv.(notation.Move)
	if !ok {
		if mp, ok2 := mv.(*notation.Move); ok2 && mp != nil {
			m = *mp
		} else {
			return nil, engine.Reject("", engine.CodeSyntax, "line", mv.String())
		}
	}
	if seat < 0 || seat >= s.n() {
		return nil, engine.Reject("", engine.CodeNotSeated, "seat", seat)
	}
	if m.Verb == "DONE" && m.Key == "AUTO" {
		// The implied DONE that ends a message's purchases (§10.1): it
		// never fails; it ends the purchases if they are still open and
		// nothing is pending. With a shed choice pending the turn stays
		// open: the message that answers it continues the turn, its
		// further BUY lines apply, and DONE is implied after its last
		// line (Route).
		s.H.Moves++
		if s.Phase != phasePlay || seat != s.Cur {
			return nil, nil
		}
		if s.Sub == subBuy && s.Bought > 0 {
			return append([]engine.Event{engine.NewEvent("ha.done", seat, engine.Public, "bought", s.Bought)}, s.endTurn()...), nil
		}
		return nil, nil
	}
	if s.Phase == phaseOver {
		return nil, engine.Reject("HA-7.1", engine.CodeGameOver)
	}
	// Standing orders: any time (§10.2).
	switch m.Verb {
	case "PREF":
		p := &s.Players[seat]
		if m.Key == "HOME" {
			p.PrefHome = slices.Clone(m.Words)
		} else if m.Key == "GARDEN" {
			p.Narrow = m.Words[0] == "COMPACT"
		} else if len(m.Words) == 1 && m.Words[0] == "ASK" {
			p.PrefPriv = nil
		} else {
			p.PrefPriv = slices.Clone(m.Words)
		}
		s.H.Moves++
		return []engine.Event{engine.NewEvent("ha.pref", seat, engine.Only(seat), "cmd", m.String())}, nil
	case "AUTO":
		s.Players[seat].EndSell = m.On
		s.H.Moves++
		return []engine.Event{engine.NewEvent("ha.pref", seat, engine.Only(seat), "cmd", m.String())}, nil
	}
	if seat != s.Cur {
		return nil, engine.Reject("HA-4.2.1", engine.CodeNotYourTurn, "waiting_for", []int{s.Cur})
	}
	var before *Core
	if s.Phase == phasePlay && s.Undo == nil && m.Verb != "UNDO" {
		c := s.Core.clone()
		before = &c
	}
	evs, err := s.apply(seat, m)
	if err != nil {
		return nil, err
	}
	if before != nil && s.Phase == phasePlay && s.Players[seat].Turns == before.Players[seat].Turns && s.Cur == seat {
		s.Undo = before
	}
	s.H.Moves++
	return evs, nil
}

func (s *State) wrong(m notation.Move) error {
	re := engine.Reject("", engine.CodeWrongDecision, "kind", s.kind(), "cmd", m.Verb)
	if s.kind() == kindShed {
		// A refusal at a shed prompt lists that prompt's options
		// (issue 21, HA-5.5.4).
		re.Params["options"] = s.options(s.Cur)
	}
	return re
}

// apply dispatches a move of the active seat.
func (s *State) apply(seat int, m notation.Move) ([]engine.Event, error) {
	p := &s.Players[seat]
	switch m.Verb {
	case "UNDO":
		if s.Undo == nil {
			return nil, engine.Reject("", "nothing_to_undo")
		}
		prefH, prefP, es, cp := p.PrefHome, p.PrefPriv, p.EndSell, p.Narrow
		s.Core = *s.Undo
		s.Undo = nil
		q := &s.Players[seat]
		q.PrefHome, q.PrefPriv, q.EndSell, q.Narrow = prefH, prefP, es, cp
		return []engine.Event{engine.NewEvent("ha.undo", seat, engine.Public)}, nil
	case "SELL":
		// HA-5.10.1, AMB-2: any point of one's own turn.
		if s.Phase != phasePlay {
			return nil, s.wrong(m)
		}
		if !p.hasCard(m.Card) {
			return nil, engine.Reject("HA-5.10.1", "no_card", "card", m.Card)
		}
		p.dropCard(m.Card)
		p.Ducats += s.r.C.SaleDucats
		return []engine.Event{engine.NewEvent("ha.sell", seat, engine.Public, "card", m.Card, "ducats", p.Ducats)}, nil
	}
	switch s.kind() {
	case kindSetup:
		if m.Verb != "HOME" {
			return nil, s.wrong(m)
		}
		return s.applyHome(seat, m)
	case kindHome:
		if m.Verb != "HOME" {
			return nil, s.wrong(m)
		}
		return s.applyHome(seat, m)
	case kindMove:
		if m.Verb != "GO" {
			return nil, s.wrong(m)
		}
		return s.applyGo(seat, m)
	case kindBuy:
		switch m.Verb {
		case "BUY":
			return s.applyBuy(seat, m)
		case "DONE":
			if s.Bought == 0 {
				return nil, engine.Reject("HA-5.2.1", "must_buy")
			}
			return append([]engine.Event{engine.NewEvent("ha.done", seat, engine.Public, "bought", s.Bought)}, s.endTurn()...), nil
		}
		return nil, s.wrong(m)
	case kindShed:
		if m.Verb != "SHED" {
			return nil, s.wrong(m)
		}
		return s.applyShed(seat, m)
	case kindScore:
		if m.Verb != "SCORE" {
			return nil, s.wrong(m)
		}
		return s.applyScore(seat, m)
	case kindPriv:
		if m.Verb != "PRIV" {
			return nil, s.wrong(m)
		}
		return s.applyPriv(seat, m)
	}
	return nil, s.wrong(m)
}

// applyHome takes a start space (HA-3.9, HA-5.12).
func (s *State) applyHome(seat int, m notation.Move) ([]engine.Event, error) {
	if m.Home < 0 {
		return nil, engine.Reject("HA-5.12.1", "home_needs_space")
	}
	free := s.freeHomes(seat)
	if slices.Index(free, m.Home) < 0 {
		if o := s.Home[m.Home]; o >= 0 && o != seat {
			// Another figure stands there: HA-5.12.1 (a free start
			// space), whatever else holds (issue 21: not HA-5.12.3).
			return nil, engine.Reject("HA-5.12.1", "home_taken", "space", catalog.HomeNames[m.Home])
		}
		if len(free) == 1 && free[0] == catalog.HomeFirst {
			return nil, engine.Reject("HA-5.12.3", "first_forced", "space", catalog.HomeNames[m.Home])
		}
		return nil, engine.Reject("HA-5.12.1", "home_taken", "space", catalog.HomeNames[m.Home])
	}
	p := &s.Players[seat]
	if p.Spot >= 0 {
		s.Home[p.Spot] = -1
	}
	s.Home[m.Home] = seat
	p.Spot = m.Home
	ev := engine.NewEvent("ha.home", seat, engine.Public, "space", catalog.HomeNames[m.Home], "setup", s.Phase == phaseSetup)
	switch m.Home {
	case catalog.HomeBrew:
		s.moveBrew(seat, s.r.C.HomeBrew)
		ev.Params["brew"] = p.Brew
	case catalog.HomeRes:
		over := s.moveMarker(seat, m.Colour, s.r.C.HomeRes)
		ev.Params["colour"], ev.Params["marker"], ev.Params["overflow"] = catalog.ColourNames[m.Colour], p.Markers[m.Colour], over
	case catalog.HomeCash:
		p.Ducats += s.r.C.HomeCash
		ev.Params["ducats"] = p.Ducats
	}
	evs := []engine.Event{ev}
	if s.Phase == phaseSetup {
		s.Picks = s.Picks[1:]
		if len(s.Picks) > 0 {
			s.Cur = s.Picks[0]
			return evs, nil
		}
		s.Picks = nil
		s.Phase = phasePlay
		s.startRound()
		return append(evs, engine.NewEvent("ha.round", -1, engine.Public, "round", s.Round, "first", s.Cur)), nil
	}
	return append(evs, s.endTurn()...), nil
}

// applyGo moves the figure (HA-5.1) and starts the action of the space.
func (s *State) applyGo(seat int, m notation.Move) ([]engine.Event, error) {
	p := &s.Players[seat]
	if !s.reachable(seat, m.N) {
		return nil, s.whyNot(seat, m.N)
	}
	if m.N == catalog.HomePos && m.Home >= 0 {
		// GO HOME <space>: check the space before moving (atomic).
		c := s.Clone().(*State)
		c.enterHome(seat)
		if slices.Index(c.freeHomes(seat), m.Home) < 0 {
			_, err := c.applyHome(seat, notation.Move{Verb: "HOME", Home: m.Home, Colour: m.Colour})
			return nil, err
		}
	}
	from := p.Pos
	if p.Pos == 0 && p.Spot >= 0 {
		// Leaving the start area frees the start space (AMB-7).
		s.Home[p.Spot] = -1
		p.Spot = -1
	}
	evs := []engine.Event{engine.NewEvent("ha.move", seat, engine.Public, "from", from, "to", m.N)}
	if m.N == catalog.HomePos {
		s.enterHome(seat)
		s.Sub = subHome
		if m.Home >= 0 {
			more, err := s.applyHome(seat, notation.Move{Verb: "HOME", Home: m.Home, Colour: m.Colour})
			if err != nil {
				return nil, err // unreachable: checked above
			}
			evs = append(evs, more...)
		}
		return evs, nil
	}
	p.Pos = m.N
	switch s.r.Track[m.N].KindIdx {
	case catalog.KindResource, catalog.KindMonk:
		s.Sub, s.Bought = subBuy, 0
	case catalog.KindDisc:
		s.Sub = subScore
	case catalog.KindBarrel:
		// HA-5.11.1: every claimable barrel, as facts the templates say in
		// words (issue 22): the goal's id, its condition ("fact": the goal
		// card's fact, keyed as engine.Fact's fields, as ha.fact reads
		// them), the barrel's size ("large") and its points ("vp").
		var got []map[string]any
		for _, g := range s.claimable(seat) {
			gl := s.r.Goals[g]
			b := map[string]any{"id": gl.ID, "fact": gl.FactParam()}
			if s.Large[g] < 0 {
				s.Large[g] = seat
				b["large"], b["vp"] = true, s.r.C.LargeVP
			} else {
				s.Small[g] = seat
				b["large"], b["vp"] = false, s.r.C.SmallVP
			}
			got = append(got, b)
		}
		evs = append(evs, engine.NewEvent("ha.barrel", seat, engine.Public, "barrels", got))
		evs = append(evs, s.endTurn()...)
	}
	return evs, nil
}

// enterHome puts the figure in the start area (HA-5.12.2).
func (s *State) enterHome(seat int) {
	p := &s.Players[seat]
	p.Pos, p.Back = 0, true
}

// applyBuy buys tiles one pair at a time (HA-5.2, HA-5.3, HA-5.4).
func (s *State) applyBuy(seat int, m notation.Move) ([]engine.Event, error) {
	if len(m.Buys) > 1 {
		saved := s.Core.clone()
		var evs []engine.Event
		for i, b := range m.Buys {
			if i > 0 && s.Sub != subBuy {
				opts := s.options(seat) // the question that interrupts
				s.Core = saved
				return nil, engine.Reject("HA-5.2.4", "buy_interrupted", "tile", b.Tile, "kind", s.kind(), "options", opts)
			}
			e, err := s.buyOne(seat, b)
			if err != nil {
				s.Core = saved
				return nil, err
			}
			evs = append(evs, e...)
		}
		return evs, nil
	}
	return s.buyOne(seat, m.Buys[0])
}

func (s *State) buyOne(seat int, b notation.Buy) ([]engine.Event, error) {
	p := &s.Players[seat]
	n := p.Pos
	if slices.Index(s.Spaces[n], b.Tile) < 0 {
		return nil, engine.Reject("HA-5.2.1", "tile_not_here", "tile", b.Tile, "space", n)
	}
	side := s.r.Cells[b.Cell].Side
	if p.Garden[b.Cell] != "" {
		return nil, engine.Reject("HA-5.4.1", "spot_taken", "spot", b.Id)
	}
	pr := s.price(n, b.Tile, side)
	if pr > p.Ducats {
		return nil, engine.Reject("HA-5.2.2", "too_expensive", "tile", b.Tile, "price", pr, "ducats", p.Ducats)
	}
	i := slices.Index(s.Spaces[n], b.Tile)
	s.Spaces[n] = append(s.Spaces[n][:i:i], s.Spaces[n][i+1:]...)
	p.Ducats -= pr
	s.Bought++
	evs := []engine.Event{engine.NewEvent("ha.buy", seat, engine.Public, "tile", b.Tile, "spot", b.Id, "price", pr, "ducats", p.Ducats)}
	evs = append(evs, s.place(seat, b.Cell, b.Tile)...)
	if len(s.Sheds) > 0 {
		s.Sub = subShed
		return evs, nil
	}
	return append(evs, s.afterPurchase(seat)...), nil
}

// afterPurchase ends the purchase step when nothing more can be bought
// (HA-5.2.5).
func (s *State) afterPurchase(seat int) []engine.Event {
	s.Sub = subBuy
	p := &s.Players[seat]
	if s.AutoDone {
		return append([]engine.Event{engine.NewEvent("ha.done", seat, engine.Public, "bought", s.Bought, "auto", true)}, s.endTurn()...)
	}
	if !s.canBuy(seat, p.Pos, p.Ducats+s.sellable(seat)) {
		return append([]engine.Event{engine.NewEvent("ha.done", seat, engine.Public, "bought", s.Bought, "auto", true)}, s.endTurn()...)
	}
	return nil
}

// applyShed activates the chosen neighbours of a new shed (HA-5.5.4).
func (s *State) applyShed(seat int, m notation.Move) ([]engine.Event, error) {
	k := s.Sheds[0]
	t := catalog.ShedType(s.Players[seat].Garden[s.r.ShedSites[k]])
	okSet := false
	for _, set := range s.r.Patterns[k][t] {
		if len(set) == len(m.Cells) {
			same := true
			for i := range set {
				if set[i] != m.Cells[i] {
					same = false
				}
			}
			if same {
				okSet = true
				break
			}
		}
	}
	if !okSet {
		return nil, engine.Reject("HA-5.5.4", "bad_shed_choice", "site", s.r.SiteName[k], "type", t, "count", t,
			"options", s.options(seat))
	}
	var act []string
	for _, c := range m.Cells {
		act = append(act, s.activate(seat, c))
	}
	p := &s.Players[seat]
	evs := []engine.Event{engine.NewEvent("ha.shed_activate", seat, engine.Public, "site", s.r.SiteName[k],
		"tiles", act, "ducats", p.Ducats, "brew", p.Brew, "markers", marks(p.Markers))}
	s.Sheds = s.Sheds[1:]
	if len(s.Sheds) == 0 {
		s.Sheds = nil
		evs = append(evs, s.afterPurchase(seat)...)
	}
	return evs, nil
}

// applyScore puts the disc on a spot and activates (HA-5.6, HA-5.7).
func (s *State) applyScore(seat int, m notation.Move) ([]engine.Event, error) {
	p := &s.Players[seat]
	n := p.Pos
	sp := s.r.Track[n]
	okSpot := false
	for _, o := range s.usable(seat, sp.DiscIdx) {
		if o.Spot == m.Spot && (o.Spot != catalog.SpotX || o.N == m.N) {
			okSpot = true
		}
	}
	if !okSpot {
		switch {
		case p.Spots[m.Spot]:
			return nil, engine.Reject("HA-5.6.4", "spot_used", "spot", catalog.SpotNames[m.Spot])
		case !discAllows(sp.DiscIdx, m.Spot):
			return nil, engine.Reject("HA-5.6.1", "spot_not_here", "spot", catalog.SpotNames[m.Spot], "space", n)
		}
		return nil, engine.Reject("HA-5.6.2", "spot_unusable", "spot", catalog.SpotNames[m.Spot], "n", m.N)
	}
	s.Discs[n]--
	p.Spots[m.Spot] = true
	var act []string
	switch {
	case m.Spot == catalog.SpotX:
		for i, t := range p.Garden {
			if catalog.TileColour(t) >= 0 && catalog.TileFert(t) == m.N && s.r.Cells[i].Side != catalog.SideShed {
				act = append(act, s.activate(seat, i))
			}
		}
	case m.Spot < catalog.SpotMonk:
		c := m.Spot - catalog.SpotColor
		for i, t := range p.Garden {
			if catalog.TileColour(t) == c {
				act = append(act, s.activate(seat, i))
			}
		}
	default:
		// HA-5.6.3: trigger every monk of the type; each activates its
		// tiled neighbours (HA-5.6.5: no chains; AMB-5).
		mt := m.Spot - catalog.SpotMonk + 1
		mutual := s.H.Options["adjacent_triggered_monks_activate_each_other"] != "false"
		var monks []int
		for i, t := range p.Garden {
			if catalog.MonkType(t) == mt {
				monks = append(monks, i)
			}
		}
		for _, i := range monks {
			for _, j := range s.r.Cells[i].Nb {
				if j < 0 || s.r.Cells[j].Side == catalog.SideShed || p.Garden[j] == "" {
					continue
				}
				if !mutual && catalog.MonkType(p.Garden[j]) == mt {
					continue
				}
				act = append(act, s.activate(seat, j))
			}
		}
	}
	ev := engine.NewEvent("ha.score", seat, engine.Public, "space", n, "spot", catalog.SpotNames[m.Spot], "tiles", act,
		"ducats", p.Ducats, "brew", p.Brew, "markers", marks(p.Markers))
	if m.Spot == catalog.SpotX {
		ev.Params["n"] = m.N
	}
	evs := []engine.Event{ev}
	// HA-5.6.6, HA-5.9.1: a completed pair.
	pair := s.r.PairOf[m.Spot]
	other := s.r.Pairs[pair][0]
	if other == m.Spot {
		other = s.r.Pairs[pair][1]
	}
	if p.Spots[other] && p.Placed[pair] == "" {
		if len(p.Cards) == 0 {
			p.Placed[pair] = "-"
			evs = append(evs, engine.NewEvent("ha.priv", seat, engine.Public, "pair", pair+1, "card", "PASS", "auto", true))
		} else {
			s.Pair, s.Sub = pair, subPriv
			return evs, nil
		}
	}
	return append(evs, s.endTurn()...), nil
}

func discAllows(disc, spot int) bool {
	switch disc {
	case catalog.DiscA:
		return spot == catalog.SpotX
	case catalog.DiscB:
		return spot >= catalog.SpotMonk
	case catalog.DiscC:
		return spot >= catalog.SpotColor && spot < catalog.SpotMonk
	}
	return true
}

// applyPriv places a privilege card or passes (HA-5.9).
func (s *State) applyPriv(seat int, m notation.Move) ([]engine.Event, error) {
	p := &s.Players[seat]
	pair := s.Pair
	ev := engine.NewEvent("ha.priv", seat, engine.Public, "pair", pair+1, "card", m.Card)
	if m.Card == "PASS" {
		p.Placed[pair] = "-"
		s.Pair = -1
		return append([]engine.Event{ev}, s.endTurn()...), nil
	}
	if !p.hasCard(m.Card) {
		return nil, engine.Reject("HA-5.9.2", "no_card", "card", m.Card)
	}
	switch m.Card {
	case "LOW":
		if p.Markers[m.Colour] != p.lowest() {
			return nil, engine.Reject("HA-5.9.3", "not_lowest", "colour", catalog.ColourNames[m.Colour])
		}
		k := p.discCount()
		s.moveMarker(seat, m.Colour, k)
		ev.Params["colour"], ev.Params["steps"] = catalog.ColourNames[m.Colour], k
	case "COLOR":
		k := 0
		for _, t := range p.Garden {
			if catalog.TileColour(t) == m.Colour {
				k++
			}
		}
		s.moveMarker(seat, m.Colour, k)
		ev.Params["colour"], ev.Params["steps"] = catalog.ColourNames[m.Colour], k
	case "CASH":
		p.Ducats += s.r.C.CardCash
	case "BREW":
		s.moveBrew(seat, s.r.C.CardBrew)
	}
	p.dropCard(m.Card)
	p.Placed[pair] = m.Card
	s.Pair = -1
	ev.Params["ducats"], ev.Params["brew"], ev.Params["markers"] = p.Ducats, p.Brew, marks(p.Markers)
	return append([]engine.Event{ev}, s.endTurn()...), nil
}
