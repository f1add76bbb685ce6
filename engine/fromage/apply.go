package fromage

import (
	"slices"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
	"github.com/pbem-referee/referee/engine/fromage/notation"
)

// Apply plays a move for a seat: an answer to its pending decision or a
// standing order (SET, PICKS). It validates everything before it changes
// anything, so a rejected move leaves the state as it was.
func (s *State) Apply(seat int, mv engine.Move) ([]engine.Event, error) {
	m, ok := mv.(notation.Move)
	if !ok {
		if pm, ok2 := mv.(*notation.Move); ok2 && pm != nil {
			m = *pm
		} else {
			return nil, engine.Reject("", engine.CodeSyntax, "line", mv.String())
		}
	}
	if seat < 0 || seat >= len(s.Players) {
		return nil, engine.Reject("", engine.CodeNotSeated, "seat", seat)
	}
	if s.Phase == phaseOver {
		return nil, engine.Reject("FR-7.1", engine.CodeGameOver)
	}
	var evs []engine.Event
	var err error
	switch m.Verb {
	case "SET":
		evs, err = s.applySet(seat, m)
	case "PICKS":
		evs, err = s.applyPicks(seat, m)
	default:
		want, known := verbKinds[m.Verb]
		if !known {
			return nil, engine.Reject("", engine.CodeUnknownCommand, "word", m.Verb)
		}
		kind := s.kindOf(seat)
		if kind == "" {
			return nil, engine.Reject(phaseRule(s.Phase), engine.CodeNotYourTurn, "waiting_for", s.waitingFor())
		}
		if kind != want {
			return nil, engine.Reject(phaseRule(s.Phase), engine.CodeWrongDecision, "kind", kind)
		}
		switch kind {
		case kindTurn:
			if m.Verb == "DONE" {
				evs, err = s.done(seat)
			} else {
				evs, err = s.applyAction(seat, m)
			}
		case kindOrder:
			evs, err = s.applyOrder(seat, m)
		case kindTake:
			evs, err = s.applyTake(seat, m)
		case kindTrade:
			evs, err = s.applyTradeAnswer(seat, m)
		case kindDispatch:
			evs, err = s.applyDispatch(seat, m)
		case kindCorp:
			evs, err = s.applyCorp(seat, m)
		case kindDraft:
			evs, err = s.applyPick(seat, m)
		case kindTiles:
			evs, err = s.applyTiles(seat, m)
		}
		if err == nil && m.Verb != "DONE" && (kind == kindTurn || kind == kindOrder || kind == kindTake || kind == kindTrade || kind == kindDispatch) {
			// Sealed turns (FR-6.4): what a seat does stays private until the
			// turn report; the move is the seat's answer to this step.
			s.logMove(seat, m)
			for i := range evs {
				evs[i].Vis, evs[i].Redacted = engine.Only(seat), nil
			}
			s.stepDone(seat)
		}
	}
	if err != nil {
		return nil, err
	}
	s.H.Moves++
	return evs, nil
}

func phaseRule(phase string) string {
	switch phase {
	case phaseDraft:
		return "FR-5.11.1"
	case phaseTiles:
		return "FR-5.11.2"
	}
	return "FR-4"
}

func (s *State) waitingFor() []int {
	var out []int
	for seat := range s.Players {
		if s.owes(seat) != "" {
			out = append(out, seat)
		}
	}
	return out
}

// ---- standing orders (P-7, P-8) ----

func (s *State) applySet(seat int, m notation.Move) ([]engine.Event, error) {
	p := &s.Players[seat]
	switch m.Key {
	case "ORDERS":
		p.Pol.OrdersAsk = m.Val == "ASK"
	case "CORP":
		if s.Corp == nil {
			return nil, engine.Reject("P-7", "not_solo")
		}
		p.Pol.CorpLowest = m.Val == "LOWEST"
	case "AUTODONE":
		// The contract never asks a decision with a single legal option, so
		// a turn with nothing left but DONE always ends by itself.
		if m.Val == "OFF" {
			return nil, engine.Reject("P-7", "autodone_always")
		}
	case "DAIRY":
		p.Pol.Dairy = nil
		if m.Val != "ASK" {
			p.Pol.Dairy = slices.Clone(m.Res)
		}
	}
	evs := []engine.Event{engine.NewEvent("fr.policy", seat, engine.Only(seat), "key", m.Key, "value", m.Val)}
	// A standing order may answer the question the seat is asked now.
	if s.Phase == phaseTurn && s.kindOf(seat) == kindTake && m.Key == "DAIRY" {
		evs = append(evs, s.runQueue(seat)...)
	}
	if m.Key == "CORP" && p.Pol.CorpLowest && s.Corp.Card >= 0 {
		evs = append(evs, s.corpResolve(s.Corp.Options[0])...)
	}
	return evs, nil
}

func (s *State) applyPicks(seat int, m notation.Move) ([]engine.Event, error) {
	if s.Phase != phaseDraft {
		return nil, engine.Reject("P-8", engine.CodeSlotClosed, "slot", "draft")
	}
	s.Players[seat].Pol.Picks = slices.Clone(m.List)
	evs := []engine.Event{engine.NewEvent("fr.policy", seat, engine.Only(seat), "key", "PICKS", "value", s.tileIDList(m.List))}
	return append(evs, s.autoPicks()...), nil
}

// ---- the turn (T3) ----

// logMove records a command in the turn report (§10.3 item 9).
func (s *State) logMove(seat int, m notation.Move) { s.Log[seat] = append(s.Log[seat], m.String()) }

func (s *State) applyAction(seat int, m notation.Move) ([]engine.Event, error) {
	switch m.Verb {
	case "GATHER":
		return s.gather(seat, m)
	case "MAKE":
		return s.make(seat, m)
	case "MILK":
		return s.milk(seat, m)
	case "BUILD":
		return s.build(seat, m)
	case "BARN":
		return s.barn(seat, m)
	}
	return nil, engine.Reject("", engine.CodeUnknownCommand, "word", m.Verb)
}

// gather is Gather Resources (FR-5.2).
func (s *State) gather(seat int, m notation.Move) ([]engine.Event, error) {
	p := &s.Players[seat]
	f := s.facing(seat)
	if p.Gathered {
		return nil, engine.Reject("FR-5.2.1", "already_gathered")
	}
	if p.Workers[m.W].At != atHome {
		return nil, engine.Reject("FR-5.2.1", "worker_busy", "worker", catalog.TypeNames[m.W], "returns", p.Workers[m.W].Ret)
	}
	if by, ret := s.resBlocked(f, m.N); by >= 0 {
		return nil, engine.Reject("FR-5.2.5", "space_blocked", "space", m.N, "resource", catalog.ResNames[s.ResAt[f]], "by", by, "until", ret)
	}
	d := m.N
	p.Workers[m.W] = Worker{At: atRes, Q: f, Spot: m.N, Ret: s.Turn + d, Points: mod4(f - d)}
	p.Gathered = true
	res := s.ResAt[f]
	evs := []engine.Event{engine.NewEvent("fr.gather", seat, engine.Public, "space", m.N, "worker", catalog.TypeNames[m.W],
		"resource", catalog.ResNames[res], "returns", s.Turn+d, "points", catalog.VenueNames[s.VenueAt[mod4(f-d)]])}
	evs = append(evs, s.gain(seat, res, m.N, "gather")...)
	// ST21 Silo: Gather from space 3 -> 1 more (column III, once per turn).
	if a := s.hasEffect(p, 3, "silo"); a != nil && m.N == 3 && !p.Extra {
		p.Extra = true
		evs = append(evs, s.addRes(seat, res, 1, "silo")...)
	}
	return evs, nil
}

// checkSpace validates a cheese placement on a space of the current venue
// (FR-5.3.1, FR-5.6.2, A-27).
func (s *State) checkSpace(seat int, m notation.Move, rule string) error {
	p := &s.Players[seat]
	v := s.venue(seat)
	if p.Cheese < 1 {
		return engine.Reject("A-27", "no_cheese")
	}
	if m.V != v {
		return engine.Reject(rule, "not_current_venue", "space", m.Ids.Space, "venue", catalog.VenueNames[v])
	}
	if !s.lay.open[v][m.S] {
		return engine.Reject("FR-2.6", "space_crossed", "space", m.Ids.Space)
	}
	if o := s.Board[v][m.S]; o != empty {
		return engine.Reject(rule, "space_taken", "space", m.Ids.Space, "by", o)
	}
	if sp := s.space(v, m.S); sp.Icon != catalog.IconNone && p.Basket < 1 {
		return engine.Reject("FR-5.5.1", "no_fruit", "space", sp.ID, "icon", catalog.IconNames[sp.Icon])
	}
	return nil
}

// make is Produce Cheese (FR-5.3).
func (s *State) make(seat int, m notation.Move) ([]engine.Event, error) {
	p := &s.Players[seat]
	if p.Produced {
		return nil, engine.Reject("FR-5.3.1", "already_produced")
	}
	if err := s.checkSpace(seat, m, "FR-5.3.1"); err != nil {
		return nil, err
	}
	sp := s.space(m.V, m.S)
	if w := p.Workers[sp.Type]; w.At != atHome {
		return nil, engine.Reject("FR-5.3.1", "worker_needed", "space", sp.ID, "worker", catalog.TypeNames[sp.Type], "returns", w.Ret)
	}
	f := s.facing(seat)
	d := s.delay(p, sp.Aging)
	p.Workers[sp.Type] = Worker{At: atCheese, Q: m.V, Spot: m.S, Ret: s.Turn + d, Points: mod4(f - d)}
	p.Produced = true
	ev := engine.NewEvent("fr.make", seat, engine.Public, "space", sp.ID, "venue", catalog.VenueNames[m.V], "type", catalog.TypeNames[sp.Type],
		"aging", catalog.AgingNames[sp.Aging], "worker", catalog.TypeNames[sp.Type], "returns", s.Turn+d, "points", catalog.VenueNames[s.VenueAt[mod4(f-d)]])
	return append([]engine.Event{ev}, s.place(seat, m.V, m.S, m.Keep, "make")...), nil
}

// milk uses a milking zone (FR-5.6).
func (s *State) milk(seat int, m notation.Move) ([]engine.Event, error) {
	p := &s.Players[seat]
	zones := s.r.Boards[p.Board].Zones
	z := m.N - 1
	if z < 0 || z >= len(zones) {
		return nil, engine.Reject("FR-5.6.1", "no_zone", "zone", m.N, "zones", len(zones))
	}
	if p.Zones[z] > 0 {
		return nil, engine.Reject("FR-5.6.4", "zone_used", "zone", m.N)
	}
	cost := s.zoneCost(p, z)
	if p.Pasture < cost {
		return nil, engine.Reject("FR-5.6.2", "not_enough_cattle", "zone", m.N, "cost", cost, "have", p.Pasture)
	}
	if err := s.checkSpace(seat, m, "FR-5.6.1"); err != nil {
		return nil, err
	}
	sp := s.space(m.V, m.S)
	if !zoneFits(zones[z], sp) {
		return nil, engine.Reject("A-25", "zone_mismatch", "zone", m.N, "space", sp.ID,
			"type", typeWord(zones[z].Type), "aging", agingWord(zones[z].Aging))
	}
	p.Pasture -= cost
	p.Zones[z] = cost
	ev := engine.NewEvent("fr.milk", seat, engine.Public, "zone", m.N, "cattle", cost, "space", sp.ID, "venue", catalog.VenueNames[m.V],
		"type", catalog.TypeNames[sp.Type], "aging", catalog.AgingNames[sp.Aging])
	return append([]engine.Event{ev}, s.place(seat, m.V, m.S, m.Keep, "milk")...), nil
}

func typeWord(t int) string {
	if t == catalog.AnyValue {
		return "any"
	}
	return catalog.TypeNames[t]
}

func agingWord(a int) string {
	if a == catalog.AnyValue {
		return "any"
	}
	return catalog.AgingNames[a]
}

// build fills a structure ability's scaffold (FR-5.9.1).
func (s *State) build(seat int, m notation.Move) ([]engine.Event, error) {
	p := &s.Players[seat]
	if p.Built[m.N] {
		return nil, engine.Reject("FR-5.9.1", "already_built", "column", catalog.ColNames[m.N])
	}
	a := s.ability(p, m.N)
	if p.Storage < a.Cost {
		return nil, engine.Reject("FR-5.9.1", "not_enough_structures", "column", catalog.ColNames[m.N], "cost", a.Cost, "have", p.Storage)
	}
	p.Storage -= a.Cost
	p.Built[m.N] = true
	return []engine.Event{engine.NewEvent("fr.build", seat, engine.Public, "column", catalog.ColNames[m.N], "name", a.Name,
		"tile", a.ID, "cost", a.Cost, "effect", a.Effect)}, nil
}

// barn places a worker on the column-I workstation (FR-5.9.2, D-15 column I).
func (s *State) barn(seat int, m notation.Move) ([]engine.Event, error) {
	p := &s.Players[seat]
	a := s.active(p, 1)
	if a == nil {
		return nil, engine.Reject("FR-5.9.2", "not_built", "column", "I")
	}
	if s.barnBusy(p) {
		return nil, engine.Reject("FR-5.9.2", "barn_busy")
	}
	if w := p.Workers[m.W]; w.At != atHome {
		return nil, engine.Reject("FR-5.9.2", "worker_busy", "worker", catalog.TypeNames[m.W], "returns", w.Ret)
	}
	var sp *catalog.Space
	switch a.Effect {
	case "press":
		if m.V < 0 {
			return nil, engine.Reject("D-15", "press_needs_space", "tile", a.ID)
		}
		if err := s.checkSpace(seat, m, "D-15"); err != nil {
			return nil, err
		}
		sp = s.space(m.V, m.S)
		if sp.Aging != a.Aging || sp.Type != m.W {
			return nil, engine.Reject("D-15", "press_mismatch", "space", sp.ID, "type", catalog.TypeNames[m.W], "aging", catalog.AgingNames[a.Aging])
		}
	case "trade":
		if m.V >= 0 {
			return nil, engine.Reject("D-15", "barn_no_space", "tile", a.ID)
		}
		if len(m.Res) == 2 {
			if err := s.checkTrade(p, m, true); err != nil {
				return nil, err
			}
		}
	default:
		if m.V >= 0 || len(m.Res) > 0 {
			return nil, engine.Reject("FR-5.9.2", "barn_no_args", "name", a.Name)
		}
	}
	p.Workers[m.W] = Worker{At: atBarn, Ret: s.Turn + s.r.WorkDelay}
	evs := []engine.Event{engine.NewEvent("fr.barn", seat, engine.Public, "worker", catalog.TypeNames[m.W], "name", a.Name, "tile", a.ID,
		"effect", a.Effect, "returns", s.Turn+s.r.WorkDelay)}
	switch a.Effect {
	case "gain":
		evs = append(evs, s.gain(seat, a.Res, 1, "barn")...)
	case "market":
		evs = append(evs, s.gain(seat, s.resource(seat), 1, "barn")...)
	case "dispatch":
		var cards []int
		for i := 0; i < a.N; i++ {
			c, e := s.drawCard()
			evs = append(evs, e...)
			if c >= 0 {
				cards = append(cards, c)
			}
		}
		p.Drew = append(p.Drew, cards...)
		evs = append(evs, engine.NewEvent("fr.dispatch", seat, engine.Public, "cards", s.cardIDs(cards)))
		switch len(cards) {
		case 0:
		case 1:
			evs = append(evs, s.keepOrder(seat, cards[0], "barn")...)
		default:
			p.Queue = append(p.Queue, Effect{K: kindDispatch, Cards: cards, V: -1})
		}
	case "trade":
		if len(m.Res) == 2 {
			evs = append(evs, s.doTrade(seat, m, "post")...)
		} else if p.unused() > 0 {
			p.Queue = append(p.Queue, Effect{K: kindTrade, Diff: true, Src: "post", V: -1})
		}
	case "press":
		evs = append(evs, s.place(seat, m.V, m.S, m.Keep, "press")...)
		return evs, nil
	}
	return append(evs, s.runQueue(seat)...), nil
}

// done ends the seat's turn; the last DONE ends the turn (T4).
func (s *State) done(seat int) ([]engine.Event, error) {
	p := &s.Players[seat]
	p.Done = true
	s.Log[seat] = append(s.Log[seat], "DONE")
	evs := []engine.Event{engine.NewEvent("fr.done", seat, engine.Public, "turn", s.Turn)}
	for i := range s.Players {
		if !s.Players[i].Done {
			s.stepDone(seat)
			return evs, nil
		}
	}
	return append(evs, s.endTurn()...), nil
}

// stepDone records the seat's answer to the current step; once every seat
// still playing the turn has answered, the next step begins.
func (s *State) stepDone(seat int) {
	s.Players[seat].Moved = true
	for i := range s.Players {
		p := &s.Players[i]
		finished := p.Done
		if s.Phase == phaseTiles {
			finished = p.Ready
		}
		if !finished && !p.Moved {
			return
		}
	}
	s.Step++
	for i := range s.Players {
		s.Players[i].Moved = false
	}
}

// ---- placements and their triggers (FR-5.3.5, FR-5.3.6) ----

// place puts one of the seat's cheese tokens on a space and runs the
// placement triggers: fruit payment, end trigger, then (a) Order completion,
// (b) Dairy shelf bonus, (c) column-II abilities, in that order.
func (s *State) place(seat, v, i int, keep bool, how string) []engine.Event {
	p := &s.Players[seat]
	sp := s.space(v, i)
	s.Board[v][i] = seat
	p.Cheese--
	var evs []engine.Event
	if sp.Icon != catalog.IconNone {
		// FR-5.3.2, FR-5.5.2: one Fruit to the fruit-cheese or the jam pile.
		p.Basket--
		if sp.Icon == catalog.IconFruit {
			p.FruitCheese++
		} else {
			p.Jam++
		}
		evs = append(evs, engine.NewEvent("fr.fruit", seat, engine.Public, "space", sp.ID, "icon", catalog.IconNames[sp.Icon]))
		if a := s.hasEffect(p, 3, "jam"); a != nil && !p.Extra {
			// ST24 Jam Kitchen, a column-III ability: once per turn (D-15).
			p.Extra = true
			evs = append(evs, s.addRes(seat, a.Res, 1, "jam")...)
		}
	}
	if p.Cheese == 0 && !slices.Contains(s.EndBy, seat) {
		// FR-7.1: the last token triggers the end; the turn is completed.
		s.End = true
		s.EndBy = append(s.EndBy, seat)
		evs = append(evs, engine.NewEvent("fr.end_trigger", seat, engine.Public, "turn", s.Turn))
	}
	q := []Effect{{K: "complete", V: v, S: i, Keep: keep}}
	if v == catalog.VenDairy {
		switch s.side(v).Shelves[sp.Shelf].Sign {
		case catalog.SignTrade:
			q = append(q, Effect{K: kindTrade, Src: "dairy", V: v, S: i})
		case catalog.SignAny:
			q = append(q, Effect{K: kindTake, N: 1, Src: "dairy", V: v, S: i})
		case catalog.SignTwo:
			q = append(q, Effect{K: kindTake, N: 2, Src: "dairy", V: v, S: i})
		}
	}
	if a := s.active(p, 2); a != nil {
		switch {
		case a.Effect == "dock" && a.Venue == v,
			a.Effect == "dock_type" && a.Type == sp.Type,
			a.Effect == "dock_milk" && how == "milk":
			q = append(q, Effect{K: "gain", Res: a.Res, N: 1, Src: "dock", V: -1})
		case a.Effect == "dock_aging" && a.Aging == sp.Aging:
			q = append(q, Effect{K: kindTake, N: 1, Src: "foil", V: -1})
		}
	}
	p.Queue = append(q, p.Queue...)
	return append(evs, s.runQueue(seat)...)
}

// runQueue resolves the seat's trigger chain until it is empty or its head
// needs an answer that no standing order gives.
func (s *State) runQueue(seat int) []engine.Event {
	p := &s.Players[seat]
	var evs []engine.Event
	for len(p.Queue) > 0 {
		e := p.Queue[0]
		switch e.K {
		case "complete":
			p.Queue = p.Queue[1:]
			if e.Keep {
				continue
			}
			sp := s.space(e.V, e.S)
			c := s.matchingOrder(p, sp)
			if c < 0 {
				continue
			}
			if p.Pol.OrdersAsk {
				p.Queue = append([]Effect{{K: kindOrder, V: e.V, S: e.S}}, p.Queue...)
				return evs
			}
			evs = append(evs, s.complete(seat, c, sp)...)
		case "gain":
			p.Queue = p.Queue[1:]
			evs = append(evs, s.gain(seat, e.Res, e.N, e.Src)...)
		case kindTake:
			pol := p.Pol.Dairy
			if len(pol) >= e.N && (e.N == 1 || pol[0] != pol[1]) {
				p.Queue = p.Queue[1:]
				evs = append(evs, engine.NewEvent("fr.take", seat, engine.Public, "resources", resList(pol[:e.N]), "source", e.Src, "policy", true))
				for _, r := range pol[:e.N] {
					evs = append(evs, s.gain(seat, r, 1, e.Src)...)
				}
				continue
			}
			return evs
		case kindTrade:
			if p.unused() == 0 {
				p.Queue = p.Queue[1:]
				continue
			}
			return evs
		default:
			return evs
		}
	}
	if len(p.Queue) == 0 {
		p.Queue = nil
	}
	return evs
}

func resList(rs []int) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = catalog.ResNames[r]
	}
	return out
}

// complete moves a pending Order to the completed pile (FR-5.8.3).
func (s *State) complete(seat, c int, sp *catalog.Space) []engine.Event {
	p := &s.Players[seat]
	p.Pending = removeInt(p.Pending, c)
	p.Completed = append(p.Completed, c)
	evs := []engine.Event{engine.NewEvent("fr.complete", seat, engine.Public, "card", s.cardLabel(c), "space", sp.ID,
		"type", catalog.TypeNames[sp.Type], "aging", catalog.AgingNames[sp.Aging])}
	if a := s.hasEffect(p, 2, "dock_complete"); a != nil {
		evs = append(evs, s.gain(seat, a.Res, 1, "dock")...)
	}
	return evs
}

func removeInt(xs []int, x int) []int {
	for i, y := range xs {
		if y == x {
			return append(xs[:i:i], xs[i+1:]...)
		}
	}
	return xs
}

// ---- sub-decisions ----

func (s *State) applyOrder(seat int, m notation.Move) ([]engine.Event, error) {
	p := &s.Players[seat]
	e := p.Queue[0]
	p.Queue = p.Queue[1:]
	var evs []engine.Event
	if m.Verb == "COMPLETE" {
		sp := s.space(e.V, e.S)
		evs = s.complete(seat, s.matchingOrder(p, sp), sp)
	}
	return append(evs, s.runQueue(seat)...), nil
}

func (s *State) applyTake(seat int, m notation.Move) ([]engine.Event, error) {
	p := &s.Players[seat]
	e := p.Queue[0]
	if !m.None {
		if len(m.Res) != e.N {
			return nil, engine.Reject("FR-5.4.2", "take_count", "want", e.N, "got", len(m.Res))
		}
		if e.N == 2 && m.Res[0] == m.Res[1] {
			return nil, engine.Reject("A-11", "take_different")
		}
	}
	p.Queue = p.Queue[1:]
	evs := []engine.Event{engine.NewEvent("fr.take", seat, engine.Public, "resources", resList(m.Res), "source", e.Src, "none", m.None)}
	for _, r := range m.Res {
		evs = append(evs, s.gain(seat, r, 1, e.Src)...)
	}
	return append(evs, s.runQueue(seat)...), nil
}

// checkTrade validates a trade: the given resource is held; with diff
// (Trading Post) the gained type differs (FR-5.4.2, A-10, D-15 ST05).
func (s *State) checkTrade(p *Player, m notation.Move, diff bool) error {
	give, take := m.Res[0], m.Res[1]
	rule := "A-10"
	if diff {
		rule = "D-15"
	}
	switch {
	case m.Card >= 0:
		if !slices.Contains(p.Pending, m.Card) {
			return engine.Reject(rule, "card_not_pending", "card", m.Ids.Card)
		}
		give = catalog.ResOrder
	case m.AnyOrder:
		if len(p.Pending) == 0 {
			return engine.Reject(rule, "nothing_to_give", "resource", "order")
		}
		give = catalog.ResOrder
	default:
		have := [3]int{p.Storage, p.Pasture, p.Basket}
		if have[give] < 1 {
			return engine.Reject(rule, "nothing_to_give", "resource", catalog.ResNames[give])
		}
	}
	if diff && give == take {
		return engine.Reject(rule, "trade_same_type", "resource", catalog.ResNames[take])
	}
	return nil
}

// doTrade discards the given resource and gains the other (validated).
func (s *State) doTrade(seat int, m notation.Move, src string) []engine.Event {
	p := &s.Players[seat]
	var gave string
	switch {
	case m.Card >= 0 || m.AnyOrder:
		c := m.Card
		if m.AnyOrder {
			c = p.Pending[0] // the oldest pending Order
		}
		p.Pending = removeInt(p.Pending, c)
		s.Discard = append(s.Discard, c)
		gave = s.cardLabel(c)
	default:
		switch m.Res[0] {
		case catalog.ResStructure:
			p.Storage--
		case catalog.ResCattle:
			p.Pasture--
		case catalog.ResFruit:
			p.Basket--
		}
		gave = catalog.ResNames[m.Res[0]]
	}
	evs := []engine.Event{engine.NewEvent("fr.trade", seat, engine.Public, "give", gave, "take", catalog.ResNames[m.Res[1]], "source", src)}
	return append(evs, s.gain(seat, m.Res[1], 1, src)...)
}

func (s *State) applyTradeAnswer(seat int, m notation.Move) ([]engine.Event, error) {
	p := &s.Players[seat]
	e := p.Queue[0]
	if m.Verb == "TRADE" {
		if err := s.checkTrade(p, m, e.Diff); err != nil {
			return nil, err
		}
	}
	p.Queue = p.Queue[1:]
	var evs []engine.Event
	if m.Verb == "TRADE" {
		evs = s.doTrade(seat, m, e.Src)
	} else {
		evs = []engine.Event{engine.NewEvent("fr.notrade", seat, engine.Public, "source", e.Src)}
	}
	return append(evs, s.runQueue(seat)...), nil
}

func (s *State) applyDispatch(seat int, m notation.Move) ([]engine.Event, error) {
	p := &s.Players[seat]
	e := p.Queue[0]
	k := m.N - 1
	if m.Card >= 0 {
		k = -1
		for i, c := range e.Cards {
			if c == m.Card {
				k = i
			}
		}
	}
	if k < 0 || k >= len(e.Cards) {
		return nil, engine.Reject("D-15", "not_drawn", "choice", m.String(), "cards", s.cardIDs(e.Cards))
	}
	p.Queue = p.Queue[1:]
	var evs []engine.Event
	for i, c := range e.Cards {
		if i != k {
			s.Discard = append(s.Discard, c)
		}
	}
	evs = append(evs, s.keepOrder(seat, e.Cards[k], "barn")...)
	return append(evs, s.runQueue(seat)...), nil
}

// keepOrder adds a kept Dispatcher card to the pending Orders; keeping it
// is the Order gain, so column III may add one more.
func (s *State) keepOrder(seat, c int, src string) []engine.Event {
	p := &s.Players[seat]
	p.Pending = append(p.Pending, c)
	evs := []engine.Event{engine.NewEvent("fr.gain", seat, engine.Public, "resource", "order", "n", 1, "source", src, "cards", []string{s.cardLabel(c)})}
	if a := s.hasEffect(p, 3, "extra"); a != nil && a.Res == catalog.ResOrder && !p.Extra {
		p.Extra = true
		evs = append(evs, s.addRes(seat, catalog.ResOrder, 1, "extra")...)
	}
	return evs
}

// ---- resources (FR-5.2.2, FR-5.9.4, A-17) ----

// gain adds n resources from an in-game source; a built column-III
// "extra" ability for that resource adds one more, once per turn.
func (s *State) gain(seat, res, n int, src string) []engine.Event {
	p := &s.Players[seat]
	evs := s.addRes(seat, res, n, src)
	if n > 0 && !p.Extra {
		if a := s.hasEffect(p, 3, "extra"); a != nil && a.Res == res {
			p.Extra = true
			evs = append(evs, s.addRes(seat, res, 1, "extra")...)
		}
	}
	return evs
}

// addRes adds resources with no trigger (Orders are drawn from the deck).
func (s *State) addRes(seat, res, n int, src string) []engine.Event {
	p := &s.Players[seat]
	switch res {
	case catalog.ResStructure:
		p.Storage += n
	case catalog.ResCattle:
		p.Pasture += n
	case catalog.ResFruit:
		p.Basket += n
	case catalog.ResOrder:
		var evs []engine.Event
		var cards []string
		for i := 0; i < n; i++ {
			c, e := s.drawCard()
			evs = append(evs, e...)
			if c < 0 {
				break
			}
			p.Pending = append(p.Pending, c)
			if s.Phase == phaseTurn {
				p.Drew = append(p.Drew, c)
			}
			cards = append(cards, s.cardLabel(c))
		}
		ev := engine.NewEvent("fr.gain", seat, engine.Public, "resource", "order", "n", len(cards), "source", src, "cards", cards)
		if len(cards) < n {
			ev.Params["lost"] = n - len(cards)
		}
		return append(evs, ev)
	}
	return []engine.Event{engine.NewEvent("fr.gain", seat, engine.Public, "resource", catalog.ResNames[res], "n", n, "source", src)}
}

// drawCard draws the top Order card (FR-5.8.1, FR-6.1). An empty deck is
// replaced by the shuffled discard pile; with both empty the draw is lost
// . The draw is scriptable: "!draw O05".
func (s *State) drawCard() (int, []engine.Event) {
	var evs []engine.Event
	if len(s.Deck) == 0 {
		if len(s.Discard) == 0 {
			return -1, nil
		}
		s.Deck, s.Discard = s.Discard, nil
		s.H.Rand.Shuffle(len(s.Deck), func(i, j int) { s.Deck[i], s.Deck[j] = s.Deck[j], s.Deck[i] })
		evs = append(evs, engine.NewEvent("fr.reshuffle", -1, engine.Public, "cards", len(s.Deck)))
	}
	labels := make([]string, len(s.Deck))
	for i, c := range s.Deck {
		labels[i] = s.r.CardIDs[c]
	}
	i := s.H.Rand.Take("draw", labels, 0)
	c := s.Deck[i]
	s.Deck = append(s.Deck[:i:i], s.Deck[i+1:]...)
	return c, evs
}
