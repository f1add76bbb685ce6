package brewcrafters

import (
	"slices"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
	"github.com/pbem-referee/referee/engine/brewcrafters/notation"
)

// beginSeason runs S0 (BC-4.2): Intern pickup, Skilled Worker season
// effects, and in Winter the Annual benefits, which may need choices.
func (s *State) beginSeason() {
	s.Phase, s.Round, s.Turn, s.Cur = phStart, 0, 0, -1
	s.Order = s.turnOrder()
	s.emit("season", -1, "year", s.year(), "season", catalog.SeasonNames[s.seasonOf()])
	for _, seat := range s.Order {
		p := &s.P[seat]
		// (a) BC-5.12.1 Interns placed on this season.
		for _, x := range s.InternAt[s.Season] {
			if x == seat {
				p.Interns++
			}
		}
		if p.Interns > 0 {
			s.emit("intern_back", seat, "n", p.Interns)
		}
		// (b) Skilled Worker season effects (Table 8.8).
		for _, w := range s.ws(p) {
			if !slices.Contains(w.Seasons, catalog.SeasonNames[s.seasonOf()]) {
				continue
			}
			if w.SeasonNeeds != "" && !p.has(w.SeasonNeeds) {
				continue
			}
			var g catalog.Bag
			g = g.Add(w.SeasonBag)
			if len(w.SeasonPick) > 0 {
				g[s.pickOf(p, w.SeasonPick, nil)]++
			}
			p.Ing = p.Ing.Add(g)
			p.Money += w.SeasonMoney
			s.emit("worker_season", seat, "worker", w.ID, "gain", g.String(), "money", w.SeasonMoney)
		}
		// (c) Winter: Annual benefits (BC-5.7.3, BC-5.7.6).
		p.Annual = []string{}
		if s.seasonOf() == 3 {
			for t := 0; t < catalog.NTracks; t++ {
				if p.Research[t] < stAnnual {
					continue
				}
				e := s.lab(t).Annual
				if !annualAsks(e) {
					// Money or Rep only: given at once (a cost reduction
					// is applied by opCost).
					p.Money += e.Money
					p.Rep += e.Rep
					continue
				}
				p.Annual = append(p.Annual, catalog.TrackNames[t])
			}
			if p.PrefAnnual == "AUTO" {
				s.annualDone(seat)
			}
		}
		s.overflow(seat)
	}
}

// settle runs the automatic steps until a decision is owed or the game ends.
func (s *State) settle() {
	for s.Res == nil && len(s.Subs) == 0 {
		switch s.Phase {
		case phStart:
			for s.Turn < s.N && len(s.P[s.Order[s.Turn]].Annual) == 0 {
				s.Turn++
			}
			if s.Turn < s.N {
				s.Cur = s.Order[s.Turn]
				return
			}
			s.Cur = -1
			s.restock()
			s.Phase, s.Round, s.Turn = phMarket, 0, 0
			s.emit("phase", -1, "phase", phMarket)
		case phMarket:
			if s.nextMarket() {
				return
			}
			s.endMarket()
		case phBrewery:
			if s.nextBrewery() {
				return
			}
			s.Phase, s.EndStp, s.Cur = phEnd, 0, -1
		case phEnd:
			s.seasonEnd()
		default:
			return
		}
	}
}

// restock is S1 (BC-5.2.1): every restocking space gains its goods, even
// when earlier goods are still there.
func (s *State) restock() {
	for i := range s.Spaces {
		sp := s.r.Spaces[s.Spaces[i].ID]
		for _, h := range sp.Half {
			s.Spaces[i].Goods = s.Spaces[i].Goods.Add(h.RestockBag)
			s.Spaces[i].Money += h.RestockMoney
		}
	}
	s.emit("restock", -1)
}

// helpers returns the extra Market actions of the player's workers.
func (s *State) helpers(p *Player) int {
	n := 0
	for _, w := range s.ws(p) {
		n += w.MarketExtra
	}
	return n
}

// marketCap is the number of Market decisions the player takes this season:
// 2, plus the Market Helper, plus each Intern held (BC-5.2.6).
func (s *State) marketCap(p *Player) int { return 2 + s.helpers(p) + p.Interns }

// extraKind names the player's current Market decision: "market" for the
// two compulsory placements, "extra" for the Market Helper, "intern" for an
// Intern (BC-5.2.6, BC-5.12.1).
func (s *State) extraKind(p *Player) string {
	if p.Placed < 2 {
		return kindMarket
	}
	if p.Placed-2 < s.helpers(p) {
		return kindExtra
	}
	return kindIntern
}

// nextMarket finds the next Market decision (BC-4.5, BC-5.2.7). Placements
// with no legal space are skipped; an Intern is kept for the Brewery
// at once under SET INTERN BREWERY.
func (s *State) nextMarket() bool {
	for {
		maxCap := 0
		for i := range s.P {
			if c := s.marketCap(&s.P[i]); c > maxCap {
				maxCap = c
			}
		}
		if s.Round >= maxCap {
			return false
		}
		for s.Turn < s.N {
			seat := s.Order[s.Turn]
			p := &s.P[seat]
			if p.Placed == s.Round && s.Round < s.marketCap(p) {
				kind := s.extraKind(p)
				if kind == kindIntern && p.PrefIntern == "BREWERY" {
					s.keepIntern(seat)
					continue
				}
				if !s.anyPlacement(seat) {
					if kind == kindIntern {
						s.keepIntern(seat)
					} else {
						p.Placed++
						s.emit("no_space", seat)
					}
					continue
				}
				s.Cur = seat
				return true
			}
			s.Turn++
		}
		s.Round++
		s.Turn = 0
	}
}

// keepIntern keeps the player's current Intern for the Brewery Phase.
func (s *State) keepIntern(seat int) {
	p := &s.P[seat]
	p.Placed++
	p.InternBrw++
	s.emit("intern_brewery", seat)
}

// endMarket closes the Market Action Phase: Interns not yet placed work in
// the Brewery (BC-5.12.1 default), and the Brewery Phase starts with the
// possibly new start player (BC-5.3.1, BC-5.4.1).
func (s *State) endMarket() {
	for i := range s.P {
		p := &s.P[i]
		done := p.Placed - 2 - s.helpers(p)
		if done < 0 {
			done = 0
		}
		if left := p.Interns - done; left > 0 {
			p.InternBrw += left
		}
	}
	s.Phase, s.Round, s.Turn, s.Cur = phBrewery, 0, 0, -1
	s.Order = s.turnOrder()
	s.emit("phase", -1, "phase", phBrewery, "start", s.Start)
}

// tokens is the number of Brewery tokens of the player this season.
func (s *State) tokens(p *Player) int { return p.Shifts + p.InternBrw }

// nextBrewery finds the next Brewery decision (BC-5.4.1).
func (s *State) nextBrewery() bool {
	for {
		maxTok := 0
		for i := range s.P {
			if c := s.tokens(&s.P[i]); c > maxTok {
				maxTok = c
			}
		}
		if s.Round >= maxTok {
			return false
		}
		for s.Turn < s.N {
			seat := s.Order[s.Turn]
			p := &s.P[seat]
			if p.Used == s.Round && s.Round < s.tokens(p) {
				s.Cur = seat
				return true
			}
			s.Turn++
		}
		s.Round++
		s.Turn = 0
	}
}

// seasonEnd is S4 (BC-4.3), in steps so that interrupts may come between.
func (s *State) seasonEnd() {
	switch s.EndStp {
	case 0:
		// 1. Meeples, shifts and Interns come back.
		for i := range s.Spaces {
			s.Spaces[i].Occ, s.Spaces[i].Half = -1, ""
		}
		for i := range s.P {
			p := &s.P[i]
			p.Placed, p.Interns, p.InternBrw, p.Used = 0, 0, 0, 0
		}
		s.Interns += len(s.InternAt[s.Season])
		// 2. Fall: the automatic Farm harvest, in turn order.
		if s.seasonOf() == 2 {
			for _, seat := range s.turnOrder() {
				p := &s.P[seat]
				for len(p.Plots) > 0 {
					s.harvest(seat, p.Plots[0])
				}
				s.overflow(seat)
			}
		}
		s.EndStp = 1
	case 1:
		s.EndStp = 2
		if s.seasonOf() == 2 && s.on("cfarm") {
			s.cfarmHarvest()
		}
	case 2:
		// 3. Winter: operating costs (BC-5.11).
		if s.seasonOf() == 3 {
			for _, seat := range s.turnOrder() {
				s.payCosts(seat)
			}
		}
		s.EndStp = 0
		// 4. The end, or the next season.
		if s.Season == s.last() {
			s.finish()
			return
		}
		s.Season++
		s.beginSeason()
	}
}

// payCosts pays the operating costs, with Loans as needed (BC-5.11.3).
func (s *State) payCosts(seat int) {
	p := &s.P[seat]
	cost := s.opCost(p)
	loans := 0
	if p.Money < cost {
		lm := s.r.Economy.LoanMoney
		loans = (cost - p.Money + lm - 1) / lm
		p.Money += loans * lm
		p.Loans += loans
	}
	p.Money -= cost
	s.emit("costs", seat, "cost", cost, "loans", loans, "money", p.Money)
}

// cfarmHarvest harvests the Community Farm (BC-5.12.4).
func (s *State) cfarmHarvest() {
	if len(s.CFTok) == 0 {
		return
	}
	var yield catalog.Bag
	for _, pi := range s.CFTok {
		c := s.r.CFarm[pi]
		yield[catalog.IngIndex(c.Code)] += c.Yield
	}
	// Shares: one per token, or one per distinct contributor.
	holders := []int{}
	for _, pi := range s.CFTok {
		seat := s.CF[pi]
		if s.r.Economy.CFarmShare == "player" && slices.Contains(holders, seat) {
			continue
		}
		holders = append(holders, seat)
	}
	var left catalog.Bag
	for i := range yield {
		if yield[i] == 0 {
			continue
		}
		each := yield[i] / len(holders)
		for _, seat := range holders {
			s.P[seat].Ing[i] += each
		}
		left[i] = yield[i] - each*len(holders)
	}
	s.emit("cfarm_harvest", -1, "yield", yield.String(), "shares", len(holders), "left", left.String())
	s.CFLeft = left
	s.CFPick = 0
	s.nextPick()
}

// pickers are the seats that pick Community Farm leftovers, in token order.
func (s *State) pickers() []int {
	var out []int
	for _, pi := range s.CFTok {
		seat := s.CF[pi]
		if s.r.Economy.CFarmShare == "player" && slices.Contains(out, seat) {
			continue
		}
		out = append(out, seat)
	}
	return out
}

// nextPick asks the next leftover pick, or, when none remain, resolves the
// contributors' overflow in contribution order and clears the card.
func (s *State) nextPick() {
	pk := s.pickers()
	if s.CFLeft.Total() > 0 {
		seat := pk[s.CFPick%len(pk)]
		p := &s.P[seat]
		if p.PrefPick != "" || s.countNonZero(s.CFLeft) == 1 {
			s.pick(seat, s.defaultPick(p))
			return
		}
		s.Subs = append(s.Subs, Sub{Kind: kindPick, Seat: seat})
		return
	}
	done := []int{}
	for _, seat := range pk {
		if !slices.Contains(done, seat) {
			done = append(done, seat)
			s.overflow(seat)
		}
	}
	for i := range s.CF {
		s.CF[i] = -1
	}
	s.CFTok = []int{}
}

func (s *State) countNonZero(b catalog.Bag) int {
	n := 0
	for _, v := range b {
		if v > 0 {
			n++
		}
	}
	return n
}

// defaultPick is the pick of BC-10.6: the preference order, else the
// ingredient with the most left.
func (s *State) defaultPick(p *Player) int {
	for _, c := range p.PrefPick {
		if i := catalog.IngIndex(string(c)); i >= 0 && s.CFLeft[i] > 0 {
			return i
		}
	}
	best := -1
	for i, v := range s.CFLeft {
		if v > 0 && (best < 0 || v > s.CFLeft[best]) {
			best = i
		}
	}
	return best
}

func (s *State) pick(seat, i int) {
	s.CFLeft[i]--
	s.P[seat].Ing[i]++
	s.CFPick++
	s.emit("pick", seat, "ing", catalog.IngCodes[i])
	s.nextPick()
}

// overflow makes the player discard down to capacity (BC-5.1.2): at once
// under a standing SET DISCARD order, else through a discard decision.
func (s *State) overflow(seat int) {
	p := &s.P[seat]
	over := p.Ing.Total() - s.capacity(p)
	if over <= 0 {
		return
	}
	for _, sub := range s.Subs {
		if sub.Kind == kindDiscard && sub.Seat == seat {
			return
		}
	}
	if p.PrefDiscard != "" {
		d := s.autoDiscard(p, over)
		p.Ing = p.Ing.Sub(d)
		s.emit("discard", seat, "ing", d.String(), "auto", true)
		return
	}
	s.Subs = append(s.Subs, Sub{Kind: kindDiscard, Seat: seat})
}

// autoDiscard chooses n ingredients to discard: in the player's preference
// order, else the most-held type first (BC-10.6).
func (s *State) autoDiscard(p *Player, n int) catalog.Bag {
	var d catalog.Bag
	have := p.Ing
	for n > 0 {
		i := -1
		for _, c := range p.PrefDiscard {
			if k := catalog.IngIndex(string(c)); k >= 0 && have[k] > 0 {
				i = k
				break
			}
		}
		if i < 0 {
			for k, v := range have {
				if v > 0 && (i < 0 || v > have[i]) {
					i = k
				}
			}
		}
		have[i]--
		d[i]++
		n--
	}
	return d
}

// pickOf chooses one ingredient among codes: the next "+" choice given in the
// command, else the standing preference, else the least-held (BC-10.6).
func (s *State) pickOf(p *Player, codes []string, plus *[]string) int {
	if plus != nil {
		for k, c := range *plus {
			if slices.Contains(codes, c) {
				*plus = append((*plus)[:k:k], (*plus)[k+1:]...)
				return catalog.IngIndex(c)
			}
		}
	}
	for _, pref := range []string{p.PrefAny, p.PrefAdv} {
		for _, c := range pref {
			if slices.Contains(codes, string(c)) {
				return catalog.IngIndex(string(c))
			}
		}
	}
	best := catalog.IngIndex(codes[0])
	for _, c := range codes[1:] {
		if i := catalog.IngIndex(c); p.Ing[i] < p.Ing[best] {
			best = i
		}
	}
	return best
}

// finish scores the game (section 7).
func (s *State) finish() {
	s.Phase, s.Cur = phOver, -1
	scores := make([]engine.Score, s.N)
	totals := make([]int, s.N)
	for seat := range s.P {
		parts := s.scoreParts(seat)
		t := 0
		for _, pt := range parts {
			t += pt.Points
		}
		scores[seat] = engine.Score{Seat: seat, Total: t, Parts: parts, Tiebreak: []int{s.P[seat].Money}}
		totals[seat] = t
	}
	s.Res = &engine.Result{Scores: scores, Rank: engine.RankScores(scores)}
	s.emit("game_over", -1, "totals", totals, "rank", append([]int(nil), s.Res.Rank...))
}

// Pending implements engine.State.
func (s *State) Pending() []engine.Decision {
	if s.Res != nil {
		return nil
	}
	params := func() map[string]any {
		return map[string]any{"year": s.year(), "season": catalog.SeasonNames[s.seasonOf()], "round": s.Round + 1, "phase": s.Phase}
	}
	if len(s.Subs) > 0 {
		sub := s.Subs[0]
		d := engine.Decision{Seat: sub.Seat, Mode: engine.Sequential, Kind: sub.Kind, Rank: s.rank(sub.Seat),
			Slot: slotName(s.Season, sub.Kind), Params: params()}
		if sub.Slot != "" {
			d.Slot = sub.Slot
		}
		p := &s.P[sub.Seat]
		switch sub.Kind {
		case kindDiscard:
			over := p.Ing.Total() - s.capacity(p)
			d.Default = s.cmd(&notation.Move{Verb: "DISCARD", Bag: s.autoDiscard(p, over)})
			d.Params["over"] = over
			d.Params["capacity"] = s.capacity(p)
		case kindPick:
			d.Default = "PICK " + catalog.IngCodes[s.defaultPick(p)]
			d.Params["left"] = s.CFLeft.String()
		case kindHire:
			d.Default, d.Pass = "HIRE NONE", "HIRE NONE"
			d.Params["draw"] = append([]string(nil), s.Agency...)
		case kindResearch:
			d.Default, d.Pass = s.cmd(s.researchDefault(p)), "RESEARCH SKIP"
			var tracks []string
			for t := 0; t < catalog.NTracks; t++ {
				if p.Research[t] < stGameEnd {
					tracks = append(tracks, catalog.TrackNames[t])
				}
			}
			d.Params["tracks"] = tracks
		}
		return []engine.Decision{d}
	}
	if s.Cur < 0 {
		return nil
	}
	p := &s.P[s.Cur]
	d := engine.Decision{Seat: s.Cur, Mode: engine.Sequential, Rank: s.rank(s.Cur), Params: params()}
	switch s.Phase {
	case phStart:
		d.Kind, d.Slot, d.Pass, d.Default = kindStart, slotName(s.Season, phStart), "DONE", "DONE"
		d.Params["annual"] = append([]string(nil), p.Annual...)
	case phMarket:
		d.Kind, d.Slot = s.extraKind(p), slotName(s.Season, phMarket)
		switch d.Kind {
		case kindExtra:
			d.Pass, d.Default = "PASS", "PASS"
		case kindIntern:
			d.Pass, d.Default = "INTERN BREWERY", "INTERN BREWERY"
		default:
			d.Default = s.marketDefault(s.Cur)
		}
		d.Params["placement"] = p.Placed + 1
	case phBrewery:
		d.Kind, d.Slot, d.Pass, d.Default = kindBrewery, slotName(s.Season, phBrewery), "B PASS", "B PROCESS"
		d.Params["token"] = p.Used + 1
		d.Params["tokens"] = s.tokens(p)
	}
	return []engine.Decision{d}
}
