package brewcrafters

import (
	"slices"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
	"github.com/pbem-referee/referee/engine/brewcrafters/notation"
)

// findSpace resolves the space a Market command names: its id, or the first
// free space in play with that keyword (BC-10.5).
func (s *State) findSpace(m *notation.Move) (int, *catalog.Half, error) {
	inPlay := false
	for i := range s.Spaces {
		sp := s.r.Spaces[s.Spaces[i].ID]
		if m.Space != "" && sp.ID != m.Space {
			continue
		}
		for j := range sp.Half {
			h := &sp.Half[j]
			if h.Kw != m.Kw {
				continue
			}
			inPlay = true
			if s.Spaces[i].Occ < 0 || h.Effect == "cfarm" {
				return i, h, nil
			}
		}
	}
	if !inPlay {
		return -1, nil, engine.Reject("BC-3.2", "space_not_in_play", "space", m.Space+" "+m.Kw)
	}
	return -1, nil, engine.Reject("BC-5.2.3", "space_occupied", "space", m.Space+" "+m.Kw)
}

// place resolves a Market placement (BC-5.2.2 to BC-5.3.7, BC-5.10.1).
func (s *State) place(seat int, m *notation.Move) error {
	i, h, err := s.findSpace(m)
	if err != nil {
		return err
	}
	p := &s.P[seat]
	sp := &s.Spaces[i]
	var receipt catalog.Bag
	plusB, plusA := slices.Clone(m.PlusB), slices.Clone(m.PlusA)
	moneyExtra := 0
	for _, w := range s.ws(p) {
		moneyExtra += w.MoneyExtra
	}
	switch h.Effect {
	case "investor":
		got := sp.Money + moneyExtra
		p.Money += got
		sp.Money = 0
		s.emit("investor", seat, "money", got, "was", s.Start)
		s.Start = seat
	case "shift":
		if err := s.canShift(p); err != nil {
			return err
		}
		p.Shifts++
		s.emit("shift", seat, "shifts", p.Shifts)
		for _, w := range s.ws(p) {
			p.Rep += w.ShiftRep
		}
	case "partner":
		id := m.Args[0]
		if !slices.Contains(s.Partners, id) {
			// The "4+" copy of the same card answers the plain name.
			alt := id + "4"
			if slices.Contains(s.Partners, alt) {
				id = alt
			} else {
				return engine.Reject("BC-5.3.3", "partner_taken", "partner", m.Args[0])
			}
		}
		s.Partners = remove(s.Partners, id)
		p.Partners = append(p.Partners, id)
		s.emit("partner", seat, "partner", id)
	case "worker":
		id := m.Args[0]
		if !slices.Contains(s.Workers, id) {
			return engine.Reject("BC-5.3.4", "worker_taken", "worker", id)
		}
		s.Workers = remove(s.Workers, id)
		if err := s.hireWorker(seat, id, m.Parts, &plusB, &plusA); err != nil {
			return err
		}
	case "take":
		receipt = sp.Goods
		sp.Goods = catalog.Bag{}
		s.gain(seat, receipt, sp.ID)
	case "choose_adv", "choose_basic":
		for _, c := range m.Args {
			receipt[catalog.IngIndex(c)]++
		}
		s.gain(seat, receipt, sp.ID)
	case "money":
		p.Money += h.Count + moneyExtra
		s.emit("money", seat, "money", h.Count+moneyExtra, "space", sp.ID)
	case "benefit":
		p.Money += h.Count + moneyExtra
		receipt[catalog.IngIndex(m.Args[0])]++
		s.gain(seat, receipt, sp.ID)
	case "interns":
		if s.Interns < 2 {
			return engine.Reject("BC-5.12.1", "no_interns", "left", s.Interns)
		}
		s.payFee(seat, s.r.Economy.InternFee)
		for k := 1; k <= 2; k++ {
			if s.Season+k <= s.last() {
				s.InternAt[s.Season+k] = append(s.InternAt[s.Season+k], seat)
				s.Interns--
			}
		}
		s.emit("interns", seat)
	case "trade":
		ts, _ := notation.ParseTrade(m.Args[0])
		got, err := s.trade(p, ts)
		if err != nil {
			return err
		}
		receipt = got
		s.gain(seat, receipt, sp.ID)
	case "agency":
		if len(s.Unused) == 0 {
			return engine.Reject("BC-5.12.3", "agency_empty")
		}
		deck := s.Unused
		s.H.Rand.Shuffle(len(deck), func(a, b int) { deck[a], deck[b] = deck[b], deck[a] })
		k := s.r.Economy.AgencyDraw
		if k > len(deck) {
			k = len(deck)
		}
		s.Agency = append([]string{}, deck[:k]...)
		s.Unused = append([]string{}, deck[k:]...)
		s.emit("agency", seat, "draw", append([]string(nil), s.Agency...))
		s.Subs = append([]Sub{{Kind: kindHire, Seat: seat}}, s.Subs...)
	case "cfarm":
		if err := s.cfarm(seat, m.Args[0]); err != nil {
			return err
		}
	}
	if h.Effect != "cfarm" {
		sp.Occ, sp.Half = seat, h.Kw
	}
	s.emit("place", seat, "space", sp.ID, "kw", h.Kw, "args", append([]string{}, m.Args...))
	if receipt.Total() > 0 {
		s.marketTriggers(seat, receipt, h.Effect == "take", &plusB, &plusA)
	}
	s.unusedChoices(seat, plusB, plusA)
	p.Placed++
	return nil
}

func remove(xs []string, x string) []string {
	out := make([]string, 0, len(xs))
	done := false
	for _, y := range xs {
		if y == x && !done {
			done = true
			continue
		}
		out = append(out, y)
	}
	return out
}

// canShift checks the Hire New Shift requirement (BC-5.3.2, A-37).
func (s *State) canShift(p *Player) error {
	if p.Shifts >= s.r.Economy.MaxShifts {
		return engine.Reject("BC-5.3.2", "max_shifts", "max", s.r.Economy.MaxShifts)
	}
	if need := s.shiftNeed(p, p.Shifts); p.Batches < need {
		return engine.Reject("BC-5.3.2", "shift_batches", "need", need, "have", p.Batches)
	}
	return nil
}

// trade checks a Traders Market trade against the rates (BC-5.12.2, §8.12)
// and pays the ingredient given.
func (s *State) trade(p *Player, ts notation.TradeSpec) (catalog.Bag, error) {
	var got catalog.Bag
	gi := catalog.IngIndex(ts.Give)
	for _, row := range s.r.Trade {
		match := row.Give == ts.Give || (row.Give == "ADV" && slices.Contains(catalog.AdvCodes, ts.Give))
		if !match || row.GiveN != ts.GiveN {
			continue
		}
		for k, max := range row.Get {
			ok := k == ts.Get || (k == "ADV" && slices.Contains(catalog.AdvCodes, ts.Get))
			if !ok || ts.GetN > max {
				continue
			}
			if gi < 0 || p.Ing[gi] < ts.GiveN {
				return got, engine.Reject("BC-5.12.2", "not_held", "ing", ts.Give)
			}
			p.Ing[gi] -= ts.GiveN
			got[catalog.IngIndex(ts.Get)] = ts.GetN
			return got, nil
		}
	}
	return got, engine.Reject("BC-5.12.2", "no_rate", "trade", ts.String())
}

// marketTriggers fires the receipt triggers of one Market action
// (BC-5.1.9, BC-5.10.1): Skilled Workers and research Breakthroughs, each
// checked against what the space gave; none chain (BC-5.10.3).
func (s *State) marketTriggers(seat int, r catalog.Bag, take bool, plusB, plusA *[]string) {
	p := &s.P[seat]
	var g catalog.Bag
	for _, w := range s.ws(p) {
		if w.MarketType == "" {
			continue
		}
		n := 0
		if w.MarketType == "ADV" {
			n = r.Adv()
		} else {
			n = r[catalog.IngIndex(w.MarketType)]
		}
		if n < w.MarketMin {
			continue
		}
		g = g.Add(w.MarketBag)
		for k := 0; k < w.MarketAnyAdv; k++ {
			g[s.pickOf(p, catalog.AdvCodes, plusA)]++
		}
	}
	for t := 0; t < catalog.NTracks; t++ {
		if p.Research[t] < stBreakthrough {
			continue
		}
		e := s.lab(t).Breakthrough
		switch {
		case e.On == "market" && r.Total() >= e.Min:
			g = g.Add(s.effectGains(p, e, plusB, plusA))
		case e.On == "take" && take:
			// "1 more of an ingredient type it gave you": the player's
			// choice among those types (BC-5.10.2), by "+BASIC" (the
			// take-all spaces give Basic Ingredients, Table 8.6).
			var given []string
			for i := range r {
				if r[i] > 0 {
					given = append(given, catalog.IngCodes[i])
				}
			}
			g[s.pickOf(p, given, plusB)] += e.Extra
		}
	}
	s.gain(seat, g, "triggers")
}

// cfarm contributes to the Community Farm (BC-5.12.4).
func (s *State) cfarm(seat int, c string) error {
	if sn := s.seasonOf(); sn != 0 && sn != 3 {
		return engine.Reject("BC-5.12.4", "cfarm_season")
	}
	p := &s.P[seat]
	for k, cp := range s.r.CFarm {
		if cp.Code != c {
			continue
		}
		if s.CF[k] >= 0 {
			return engine.Reject("BC-5.12.4", "cfarm_filled", "ing", c)
		}
		i := catalog.IngIndex(c)
		if p.Ing[i] == 0 {
			return engine.Reject("BC-5.1.2", "not_held", "ing", c)
		}
		p.Ing[i]--
		s.CF[k] = seat
		s.CFTok = append(s.CFTok, k)
		s.emit("cfarm", seat, "ing", c, "token", len(s.CFTok))
		return nil
	}
	return engine.Reject("BC-5.12.4", "cfarm_portion", "ing", c)
}
