package brewcrafters

import (
	"slices"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
	"github.com/pbem-referee/referee/engine/brewcrafters/notation"
)

// Decision kinds (doc.go lists them; templates key prompts on them).
const (
	kindStart   = "start"   // S0 Annual benefits: ANNUAL ... or DONE
	kindMarket  = "market"  // a compulsory Market placement: M ...
	kindExtra   = "extra"   // the Market Helper's optional placement: M ... or PASS
	kindIntern  = "intern"  // an Intern: M ... (Market use) or INTERN BREWERY
	kindBrewery = "brewery" // a Brewery token: B ...
	kindDiscard = "discard" // storage overflow: DISCARD ...
	kindPick    = "pick"    // Community Farm leftover: PICK x
	kindHire    = "hire"    // Employment Agency: HIRE id or HIRE NONE
	// kindResearch is the Yeast Lab Technician's optional free research
	// move on hiring (Table 8.8, A-4): RESEARCH <track> [choice] or
	// RESEARCH SKIP, asked when the hiring line did not say.
	kindResearch = "research"
)

// decisionOf returns the seat's pending decision.
func (s *State) decisionOf(seat int) (engine.Decision, bool) {
	for _, d := range s.Pending() {
		if d.Seat == seat {
			return d, true
		}
	}
	return engine.Decision{}, false
}

// marketDefault is the timeout placement of BC-10.6: MALT, HOPS, YEAST,
// OPEN (the least-held basics), FUND, then the first legal option.
func (s *State) marketDefault(seat int) string {
	amb := s.kwCounts()
	for _, kw := range []string{"MALT", "HOPS", "YEAST", "OPEN", "FUND"} {
		for _, sp := range s.Spaces {
			if sp.Occ >= 0 {
				continue
			}
			for _, h := range s.r.Spaces[sp.ID].Half {
				if h.Kw != kw {
					continue
				}
				m := &notation.Move{Verb: "M", Kw: kw}
				if amb[kw] > 1 {
					m.Space = sp.ID
				}
				if h.Effect == "choose_basic" {
					c := catalog.IngCodes[s.pickOf(&s.P[seat], catalog.BasicCodes, nil)]
					for k := 0; k < h.Count; k++ {
						m.Args = append(m.Args, c)
					}
				}
				return s.cmd(m)
			}
		}
	}
	return s.cmd(s.placements(seat)[0].m)
}

// Apply implements engine.State. The state is unchanged on error.
func (s *State) Apply(seat int, mv engine.Move) ([]engine.Event, error) {
	m, ok := mv.(*notation.Move)
	if !ok {
		return nil, engine.Reject("", engine.CodeSyntax, "line", mv.String())
	}
	if seat < 0 || seat >= s.N {
		return nil, engine.Reject("", engine.CodeNotSeated, "seat", seat)
	}
	if s.Res != nil {
		return nil, engine.Reject("BC-7.1", engine.CodeGameOver)
	}
	backup := s.Clone().(*State)
	s.ev = nil
	if err := s.apply(seat, m); err != nil {
		*s = *backup
		return nil, err
	}
	s.H.Moves++
	s.settle()
	evs := s.ev
	s.ev = nil
	return evs, nil
}

func (s *State) notYours(seat int) error {
	var w []int
	for _, d := range s.Pending() {
		w = append(w, d.Seat)
	}
	return engine.Reject("BC-10.1", engine.CodeNotYourTurn, "waiting_for", w)
}

func (s *State) apply(seat int, m *notation.Move) error {
	if m.Verb == "SET" {
		return s.applySet(seat, m)
	}
	d, owes := s.decisionOf(seat)
	if !owes {
		return s.notYours(seat)
	}
	p := &s.P[seat]
	if notation.FreeVerbs[m.Verb] {
		if m.Verb == "DISCARD" && d.Kind == kindDiscard {
			return s.discardSub(seat, m)
		}
		if err := s.freeAction(seat, m); err != nil {
			return err
		}
		s.overflow(seat)
		if k := len(s.Subs) - 1; k >= 0 && s.Subs[k].Kind == kindDiscard && s.Subs[k].Seat == seat && s.Subs[k].Slot == "" && d.Seat == s.Cur && s.isMainKind(d.Kind) {
			// BC-5.1.2: a free action's overflow in the seat's own turn is
			// resolved at once, by the next line of the same mail.
			s.Subs[k].Slot = d.Slot
		}
		return nil
	}
	wrong := func() error { return engine.Reject("BC-10.1", engine.CodeWrongDecision, "kind", d.Kind) }
	switch d.Kind {
	case kindDiscard:
		if s.Subs[0].Slot != "" {
			// The overflow a free action caused in this turn comes first
			// (BC-5.1.2): say so, and what to add.
			return engine.Reject("BC-5.1.2", "overflow_first", "over", p.Ing.Total()-s.capacity(p),
				"capacity", s.capacity(p), "next", s.cmd(m))
		}
		return wrong()
	case kindPick:
		if m.Verb != "PICK" {
			return wrong()
		}
		i := catalog.IngIndex(m.Code)
		if s.CFLeft[i] == 0 {
			return engine.Reject("BC-5.12.4", "nothing_left", "ing", m.Code)
		}
		s.Subs = s.Subs[1:]
		s.pick(seat, i)
		return nil
	case kindHire:
		if m.Verb != "HIRE" {
			return wrong()
		}
		return s.hire(seat, m)
	case kindResearch:
		if m.Verb != "RESEARCH" {
			return wrong()
		}
		s.Subs = s.Subs[1:]
		if err := s.freeResearch(seat, m); err != nil {
			return err
		}
		s.overflow(seat)
		return nil
	case kindStart:
		switch m.Verb {
		case "DONE":
			s.annualDone(seat)
		case "ANNUAL":
			if err := s.annual(seat, m); err != nil {
				return err
			}
		default:
			return wrong()
		}
		s.overflow(seat)
		if len(p.Annual) == 0 {
			s.Turn++
			s.Cur = -1
		}
		return nil
	case kindMarket, kindExtra, kindIntern:
		switch {
		case m.Verb == "M":
			if err := s.place(seat, m); err != nil {
				return err
			}
		case m.Verb == "PASS" && d.Kind == kindExtra:
			p.Placed++
			s.emit("pass", seat)
		case m.Verb == "INTERN" && m.Val == "BREWERY" && d.Kind == kindIntern:
			s.keepIntern(seat)
		case m.Verb == "INTERN" && m.Val == "MARKET" && d.Kind == kindIntern:
			// BC-5.12.1, TV-28: "INTERN MARKET" chooses the Market use;
			// the placement line that follows places the Intern.
			s.emit("intern_market", seat)
			return nil
		default:
			return wrong()
		}
		s.Turn++
		s.Cur = -1
		s.overflow(seat)
		return nil
	case kindBrewery:
		if m.Verb != "B" {
			return wrong()
		}
		if err := s.brewery(seat, m); err != nil {
			return err
		}
		p.Used++
		s.Turn++
		s.Cur = -1
		s.overflow(seat)
		return nil
	}
	return wrong()
}

// isMainKind reports whether a decision kind is a turn of the season's flow
// (not an interrupt).
func (s *State) isMainKind(kind string) bool {
	switch kind {
	case kindStart, kindMarket, kindExtra, kindIntern, kindBrewery:
		return true
	}
	return false
}

// applySet records a standing preference (BC-10.2).
func (s *State) applySet(seat int, m *notation.Move) error {
	p := &s.P[seat]
	val := m.Val
	if val == "OFF" || val == "ASK" {
		val = ""
	}
	compact := ""
	for _, c := range val {
		if c != ' ' {
			compact += string(c)
		}
	}
	switch m.Key {
	case "DISCARD":
		p.PrefDiscard = compact
	case "PICK":
		p.PrefPick = compact
	case "ANY":
		p.PrefAny = compact
	case "ADV":
		p.PrefAdv = compact
	case "INTERN":
		p.PrefIntern = val
	case "ANNUAL":
		p.PrefAnnual = val
	}
	s.ev = append(s.ev, engine.NewEvent("bc.set", seat, engine.Only(seat), "key", m.Key, "value", m.Val))
	// A standing discard order answers a pending overflow at once.
	if m.Key == "DISCARD" && p.PrefDiscard != "" && len(s.Subs) > 0 && s.Subs[0].Kind == kindDiscard && s.Subs[0].Seat == seat {
		s.Subs = s.Subs[1:]
		s.overflow(seat)
	}
	return nil
}

// discardSub answers an overflow decision (BC-5.1.2).
func (s *State) discardSub(seat int, m *notation.Move) error {
	p := &s.P[seat]
	if !p.Ing.Covers(m.Bag) {
		return engine.Reject("BC-5.1.4", "not_held", "ing", m.Bag.String())
	}
	p.Ing = p.Ing.Sub(m.Bag)
	s.emit("discard", seat, "ing", m.Bag.String())
	if p.Ing.Total() <= s.capacity(p) {
		s.Subs = s.Subs[1:]
	}
	return nil
}

// gain adds ingredients (the caller checks overflow).
func (s *State) gain(seat int, g catalog.Bag, source string) {
	if g.Total() == 0 {
		return
	}
	s.P[seat].Ing = s.P[seat].Ing.Add(g)
	s.emit("gain", seat, "ing", g.String(), "source", source)
}

// freeAction applies a free action (BC-5.9).
func (s *State) freeAction(seat int, m *notation.Move) error {
	p := &s.P[seat]
	switch m.Verb {
	case "DISCARD":
		if !p.Ing.Covers(m.Bag) {
			return engine.Reject("BC-5.1.4", "not_held", "ing", m.Bag.String())
		}
		p.Ing = p.Ing.Sub(m.Bag)
		s.emit("discard", seat, "ing", m.Bag.String())
	case "LOAN":
		p.Loans += m.N
		p.Money += m.N * s.r.Economy.LoanMoney
		s.emit("loan", seat, "n", m.N)
	case "EXCHANGE":
		var pt *catalog.Partner
		for _, id := range p.Partners {
			x := s.r.Partners[id]
			if x.GetBag[catalog.IngIndex(m.ID[:1])] > 0 {
				pt = x
				break
			}
		}
		if pt == nil {
			return engine.Reject("BC-5.9.2", "no_partner", "partner", m.ID)
		}
		i := catalog.IngIndex(m.Code)
		if p.Ing[i] < pt.GiveBasic*m.N {
			return engine.Reject("BC-5.1.2", "not_held", "ing", m.Code)
		}
		p.Ing[i] -= pt.GiveBasic * m.N
		for k := 0; k < m.N; k++ {
			p.Ing = p.Ing.Add(pt.GetBag)
		}
		s.emit("exchange", seat, "partner", m.ID, "give", m.Code, "n", m.N)
	case "PLANT":
		if !p.has("FARM") {
			return engine.Reject("BC-5.9.4", "no_farm")
		}
		if s.seasonOf() != 0 {
			return engine.Reject("BC-5.9.4", "plant_spring")
		}
		if len(p.Plots) >= s.r.Economy.FarmPlots {
			return engine.Reject("BC-5.9.4", "no_plot")
		}
		i := catalog.IngIndex(m.Code)
		if s.r.Buildings["FARM"].YieldsBag[i] == 0 {
			return engine.Reject("BC-5.9.4", "not_plantable", "ing", m.Code)
		}
		if p.Ing[i] == 0 {
			return engine.Reject("BC-5.1.2", "not_held", "ing", m.Code)
		}
		p.Ing[i]--
		p.Plots = append(p.Plots, m.Code)
		s.emit("plant", seat, "ing", m.Code)
	case "HARVEST":
		if s.seasonOf() != 2 {
			return engine.Reject("BC-5.9.5", "harvest_fall")
		}
		if !slices.Contains(p.Plots, m.Code) {
			return engine.Reject("BC-5.9.5", "not_planted", "ing", m.Code)
		}
		s.harvest(seat, m.Code)
	default:
		return engine.Reject("", engine.CodeSyntax, "line", s.cmd(m))
	}
	return nil
}

// harvest harvests one planted item from the player's Farm (BC-5.9.5).
func (s *State) harvest(seat int, c string) {
	p := &s.P[seat]
	for k, x := range p.Plots {
		if x == c {
			p.Plots = append(p.Plots[:k:k], p.Plots[k+1:]...)
			break
		}
	}
	i := catalog.IngIndex(c)
	n := s.r.Buildings["FARM"].YieldsBag[i]
	for _, w := range s.ws(p) {
		n += w.FarmExtra
	}
	var g catalog.Bag
	g[i] = n
	s.gain(seat, g, "harvest")
}

// hire answers the Employment Agency draw (BC-5.12.3).
func (s *State) hire(seat int, m *notation.Move) error {
	if m.ID == "BEST" {
		// The first of the list in the draw, else nobody.
		id := "NONE"
		for _, w := range m.Args {
			if slices.Contains(s.Agency, w) {
				id = w
				break
			}
		}
		m = &notation.Move{Verb: "HIRE", ID: id, PlusA: m.PlusA, PlusB: m.PlusB, Parts: m.Parts}
	}
	// The hire decision is answered before the worker's own effects, which
	// may ask the next decision (the Yeast Lab Technician's research move).
	s.Subs = s.Subs[1:]
	if m.ID != "NONE" {
		if !slices.Contains(s.Agency, m.ID) {
			return engine.Reject("BC-5.12.3", "not_drawn", "worker", m.ID)
		}
		s.payFee(seat, s.r.Economy.AgencyFee)
		for k, x := range s.Agency {
			if x == m.ID {
				s.Agency = append(s.Agency[:k:k], s.Agency[k+1:]...)
				break
			}
		}
		plusB, plusA := slices.Clone(m.PlusB), slices.Clone(m.PlusA)
		if err := s.hireWorker(seat, m.ID, m.Parts, &plusB, &plusA); err != nil {
			return err
		}
		s.unusedChoices(seat, plusB, plusA)
	}
	s.Unused = append(s.Unused, s.Agency...)
	s.Agency = []string{}
	s.emit("agency_hire", seat, "worker", m.ID)
	s.overflow(seat)
	return nil
}

// payFee pays a fee, taking Loans when short (BC-5.12.1 "a Loan is allowed").
func (s *State) payFee(seat, fee int) {
	p := &s.P[seat]
	if p.Money < fee {
		lm := s.r.Economy.LoanMoney
		n := (fee - p.Money + lm - 1) / lm
		p.Loans += n
		p.Money += n * lm
		s.emit("loan", seat, "n", n, "auto", true)
	}
	p.Money -= fee
}

// hireWorker gives a Skilled Worker and resolves its "immediately" effects
// (BC-5.3.4). The hiring line's words make the choices (BC-5.10.2): its
// "+ADV x" the Advanced Ingredients of the Advanced Ingredient Importer,
// its "+BASIC x" any Basic ones, its "RESEARCH <track> [choice]" or
// "RESEARCH SKIP" the Yeast Lab Technician's optional free research move
// . A research move the line does not name is asked at once (decision
// "research"): the move is the player's, and may be declined.
func (s *State) hireWorker(seat int, id string, research []*notation.Move, plusB, plusA *[]string) error {
	p := &s.P[seat]
	w := s.r.Workers[id]
	p.Workers = append(p.Workers, id)
	s.emit("hire", seat, "worker", id)
	g := w.HireBag
	for k := 0; k < w.HireAnyAdv; k++ {
		g[s.pickOf(p, catalog.AdvCodes, plusA)]++
	}
	s.gain(seat, g, id)
	p.Money += w.HireMoney
	if !w.HireResearch {
		return nil
	}
	for _, pt := range research {
		if pt.Verb == "RESEARCH" {
			return s.freeResearch(seat, pt)
		}
	}
	if s.researchDefault(p) == nil {
		return nil // every cube at Game End: no move to make
	}
	s.Subs = append([]Sub{{Kind: kindResearch, Seat: seat}}, s.Subs...)
	return nil
}

// unusedChoices tells the player, and only them, which of their line's
// trigger choice words ("+BASIC x", "+ADV x", "+OPS x") nothing took: the
// action is carried out, and the words are not silently dropped
// (BC-5.10.2).
func (s *State) unusedChoices(seat int, plus ...[]string) {
	var words []string
	for _, l := range plus {
		words = append(words, l...)
	}
	if len(words) == 0 {
		return
	}
	s.ev = append(s.ev, engine.NewEvent("bc.unused_choice", seat, engine.Only(seat), "words", strings.Join(words, " ")))
}

// freeResearch makes (or declines, "RESEARCH SKIP") a free Lab Research
// move (A-4, BC-5.7.7).
func (s *State) freeResearch(seat int, m *notation.Move) error {
	if m.Skip {
		s.emit("research_skip", seat)
		return nil
	}
	return s.research(seat, m)
}

// researchDefault is the timeout answer of the free research move: the
// least advanced track (first in BASIC, OPS, BREW, ADV order), choices by
// preference (BC-10.6); nil when every cube is at Game End.
func (s *State) researchDefault(p *Player) *notation.Move {
	best := -1
	for t := 0; t < catalog.NTracks; t++ {
		if p.Research[t] < stGameEnd && (best < 0 || p.Research[t] < p.Research[best]) {
			best = t
		}
	}
	if best < 0 {
		return nil
	}
	return &notation.Move{Verb: "RESEARCH", Track: best}
}
