package brewcrafters

import (
	"slices"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
	"github.com/pbem-referee/referee/engine/brewcrafters/notation"
)

// brewery resolves one Brewery action (BC-5.4).
func (s *State) brewery(seat int, m *notation.Move) error {
	if len(m.Parts) == 1 {
		pt := m.Parts[0]
		switch pt.Verb {
		case "RESEARCH":
			return s.research(seat, pt)
		case "INSTALL":
			return s.install(seat, pt)
		case "SECRET":
			return s.secret(seat, pt)
		case "CFARM":
			if !s.on("cfarm") {
				return engine.Reject("BC-3.11", "not_in_play", "action", "CFARM")
			}
			return s.cfarm(seat, pt.Code)
		case "PASS":
			s.emit("brew_pass", seat)
			return nil
		}
	}
	return s.processAction(seat, m.Parts, true)
}

// processAction runs a "Process Beer and/or Collaborate" action: at most one
// Collaborate part and one Process part, with free actions between them
// (BC-5.5.2, BC-5.5.9).
func (s *State) processAction(seat int, parts []*notation.Move, collab bool) error {
	nP, nC, nFree := 0, 0, 0
	for _, pt := range parts {
		switch pt.Verb {
		case "PROCESS":
			nP++
		case "COLLAB":
			nC++
		case "DISCARD", "EXCHANGE", "LOAN", "PLANT", "HARVEST":
			nFree++
		default:
			return engine.Reject("BC-5.5.9", "then_only_process", "part", pt.Verb)
		}
	}
	if nP > 1 || nC > 1 {
		return engine.Reject("BC-5.5.9", "one_process_part")
	}
	if nP+nC == 0 {
		return engine.Reject("BC-5.5.2", "no_process_part")
	}
	if nC > 0 && !collab {
		return engine.Reject("BC-5.7.3", "annual_no_collab")
	}
	for k, pt := range parts {
		var err error
		switch pt.Verb {
		case "PROCESS":
			err = s.process(seat, pt)
		case "COLLAB":
			err = s.collaborate(seat, pt)
		default:
			err = s.freeAction(seat, pt)
		}
		if err != nil {
			return err
		}
		if k+1 < len(parts) {
			if err := s.overflowNow(seat, pt, parts[k+1]); err != nil {
				return err
			}
		}
	}
	return nil
}

// overflowNow resolves, inside a chain of parts, an overflow that the part
// just applied caused (a Farm harvest): at once, before the next part, as
// BC-5.1.2 and BC-5.9.5 say, so that no later part (a brew, a contribution)
// can use ingredients the storage could not hold. The player's own choice
// is a DISCARD written as the next part; else their standing SET DISCARD
// order; else the line is refused and says what to add. The overflow at
// the end of the chain is the usual one (a discard decision).
func (s *State) overflowNow(seat int, done, next *notation.Move) error {
	p := &s.P[seat]
	over := p.Ing.Total() - s.capacity(p)
	if over <= 0 || next.Verb == "DISCARD" {
		return nil
	}
	if p.PrefDiscard != "" {
		d := s.autoDiscard(p, over)
		p.Ing = p.Ing.Sub(d)
		s.emit("discard", seat, "ing", d.String(), "auto", true)
		return nil
	}
	return engine.Reject("BC-5.1.2", "overflow_in_chain", "part", s.cmd(done), "over", over,
		"capacity", s.capacity(p), "next", s.cmd(next))
}

// slotsOf lists the player's brewing slots (BC-5.5.1).
func (s *State) slotsOf(p *Player) []int {
	out := []int{catalog.SlT1}
	if p.has("DOUBLE_BATCH") {
		out = append(out, catalog.SlT2)
	}
	if p.has("BREWPUB") {
		out = append(out, catalog.SlPub)
	}
	return out
}

// canBrew checks the recipe's availability and style prerequisite
// (BC-5.5.6, BC-5.12.5).
func (s *State) canBrew(p *Player, id string) error {
	rc := s.r.Recipes[id]
	if !slices.Contains(s.Recipes, id) && !slices.Contains(p.Secrets, id) {
		return engine.Reject("BC-3.6", "recipe_not_in_play", "recipe", id)
	}
	if !rc.Basic() {
		for _, b := range s.r.Recipe {
			if b.Basic() && b.Style == rc.Style && !slices.Contains(p.Brewed, b.ID) {
				return engine.Reject("BC-5.5.6", "style_locked", "recipe", id, "basic", b.ID)
			}
		}
	}
	return nil
}

// brewCost is the ingredient cost of a brew step after the Mash Tun and
// Yeast Lab (BC-5.5.5, Table 8.4).
func (s *State) brewCost(p *Player, brews []notation.Brew, mash, ylab bool) (catalog.Bag, error) {
	var c catalog.Bag
	for _, b := range brews {
		c = c.Add(s.r.Recipes[b.Recipe].CostBag)
	}
	if mash {
		if !p.has("MASH_TUN") {
			return c, engine.Reject("BC-5.5.5", "no_building", "building", "MASH_TUN")
		}
		if c[catalog.IM] == 0 {
			return c, engine.Reject("BC-5.5.5", "mash_no_malt")
		}
		c[catalog.IM] -= s.r.Buildings["MASH_TUN"].Reduce
		if c[catalog.IM] < 0 {
			c[catalog.IM] = 0
		}
	}
	if ylab {
		if !p.has("YEAST_LAB") {
			return c, engine.Reject("BC-5.5.5", "no_building", "building", "YEAST_LAB")
		}
		if c[catalog.IY] == 0 {
			return c, engine.Reject("BC-5.5.5", "ylab_no_yeast")
		}
		c[catalog.IY] -= s.r.Buildings["YEAST_LAB"].Reduce
		if c[catalog.IY] < 0 {
			c[catalog.IY] = 0
		}
	}
	return c, nil
}

// assignSlots puts each batch in a slot: the named one, else the first free
// one in the order T1, T2, PUB.
func (s *State) assignSlots(p *Player, brews []notation.Brew) ([]int, error) {
	have := s.slotsOf(p)
	used := map[int]bool{}
	out := make([]int, len(brews))
	for k, b := range brews {
		if b.Slot == "" {
			continue
		}
		sl := -1
		for i, n := range catalog.SlotNames {
			if n == b.Slot {
				sl = i
			}
		}
		if !slices.Contains(have, sl) {
			return nil, engine.Reject("BC-5.5.1", "no_slot", "slot", b.Slot)
		}
		if used[sl] {
			return nil, engine.Reject("BC-5.5.5", "slot_twice", "slot", b.Slot)
		}
		used[sl] = true
		out[k] = sl
	}
	for k, b := range brews {
		if b.Slot != "" {
			continue
		}
		out[k] = -1
		for _, sl := range have {
			if !used[sl] {
				used[sl] = true
				out[k] = sl
				break
			}
		}
		if out[k] < 0 {
			return nil, engine.Reject("BC-5.5.1", "no_free_slot", "recipe", b.Recipe)
		}
	}
	return out, nil
}

// process runs Process Beer: sell, bottle, brew, triggers (BC-5.5.3-7).
func (s *State) process(seat int, m *notation.Move) error {
	p := &s.P[seat]
	// Validate the brew step before anything moves.
	slots, err := s.assignSlots(p, m.Brews)
	if err != nil {
		return err
	}
	for _, b := range m.Brews {
		if err := s.canBrew(p, b.Recipe); err != nil {
			return err
		}
	}
	cost, err := s.brewCost(p, m.Brews, m.Mash, m.Ylab)
	if err != nil {
		return err
	}
	if len(m.Brews) > 0 && !p.Ing.Covers(cost) {
		return engine.Reject("BC-5.5.5", "not_enough", "need", cost.String(), "have", p.Ing.String())
	}
	// A: sell.
	sold := []string{}
	sell := func(id string) {
		if id == "" {
			return
		}
		price := s.r.Economy.SalePrice
		for _, w := range s.ws(p) {
			price += w.SellBonus
		}
		rc := s.r.Recipes[id]
		for t := 0; t < catalog.NTracks; t++ {
			if e := s.lab(t).Breakthrough; p.Research[t] >= stBreakthrough && e.On == "sell" && (!e.AdvOnly || !rc.Basic()) {
				price += e.Money
			}
		}
		p.Money += price
		p.Shipping = append(p.Shipping, id)
		sold = append(sold, id)
		if slices.Contains(s.Labels, id) {
			s.Labels = remove(s.Labels, id)
			p.Labels = append(p.Labels, id)
			s.emit("gold_label", seat, "recipe", id)
		}
		if slices.Contains(p.Pot, id) {
			p.Pot = remove(p.Pot, id)
			p.Rep += s.r.Economy.SecretBonus
			s.emit("secret_bonus", seat, "recipe", id)
		}
	}
	for i := range p.Bottles {
		sell(p.Bottles[i])
		p.Bottles[i] = ""
	}
	sell(p.Pub)
	p.Pub = ""
	// B: bottle.
	for i := range p.Tanks {
		p.Bottles[i], p.Tanks[i] = p.Tanks[i], ""
	}
	// C: brew, all at once.
	p.Ing = p.Ing.Sub(cost)
	rep := 0
	for k, b := range m.Brews {
		rc := s.r.Recipes[b.Recipe]
		sl := slots[k]
		if sl == catalog.SlPub {
			p.Pub = b.Recipe
		} else {
			p.Tanks[sl] = b.Recipe
		}
		// BC-5.5.7 triggers, per batch.
		for t := 0; t < catalog.NTracks; t++ {
			if e := s.lab(t).Breakthrough; p.Research[t] >= stBreakthrough && e.On == "brew" && (!e.AdvOnly || !rc.Basic()) {
				rep += e.Rep
			}
		}
		if p.BrewToken == b.Recipe {
			rep++
			p.BrewToken = ""
		}
		if rc.Symbol == "hops" && p.Infusers[sl] {
			rep += s.r.Buildings["HOPS_INFUSER"].Rep
			for _, w := range s.ws(p) {
				rep += w.InfuserExtra
			}
		}
		if rc.Symbol == "oak" && p.has("OAK_BARRELHOUSE") {
			rep += s.r.Buildings["OAK_BARRELHOUSE"].Rep
			for _, w := range s.ws(p) {
				rep += w.OakExtra
			}
		}
		for _, w := range s.ws(p) {
			if sl == catalog.SlPub {
				rep += w.PubRep
			}
			if !rc.Basic() {
				rep += w.AdvBrewRep
			}
			if m.Ylab {
				rep += w.YlabRep
			}
		}
		if slices.Contains(p.Secrets, b.Recipe) && !slices.Contains(p.Revealed, b.Recipe) {
			p.Revealed = append(p.Revealed, b.Recipe)
			p.Pot = append(p.Pot, b.Recipe)
			s.emit("secret_reveal", seat, "recipe", b.Recipe)
		}
	}
	if m.Mash {
		for _, w := range s.ws(p) {
			rep += w.MashRep
		}
	}
	p.Rep += rep
	p.Batches += len(m.Brews)
	ids := []string{}
	for _, b := range m.Brews {
		ids = append(ids, b.Recipe)
		if !slices.Contains(p.Brewed, b.Recipe) {
			p.Brewed = append(p.Brewed, b.Recipe)
		}
	}
	s.emit("process", seat, "sold", sold, "brewed", ids, "cost", cost.String(), "rep", rep)
	return nil
}

// portionIndex is the index of a Collaboration portion (§8.11).
func (s *State) portionIndex(id string) int {
	for i, pt := range s.r.Portion {
		if pt.ID == id {
			return i
		}
	}
	return -1
}

// collabCheck validates a contribution without changing anything and
// returns the portion index and the ingredients given (BC-5.6).
func (s *State) collabCheck(seat int, m *notation.Move) (int, catalog.Bag, error) {
	var give catalog.Bag
	if s.Collab == nil {
		return -1, give, engine.Reject("BC-3.4", "no_collab_2p")
	}
	k := s.portionIndex(m.Portion)
	if k < 0 {
		return -1, give, engine.Reject("BC-5.6.1", "bad_portion", "word", m.Portion)
	}
	if s.Collab[k] >= 0 {
		return -1, give, engine.Reject("BC-5.6.2", "portion_taken", "portion", m.Portion)
	}
	others, mine := 0, 0
	for i, o := range s.Collab {
		if i == k || o < 0 {
			continue
		}
		others++
		if o == seat {
			mine++
		}
	}
	if others == len(s.Collab)-1 && mine == others {
		return -1, give, engine.Reject("BC-5.6.4", "collab_two_players")
	}
	pt := s.r.Portion[k]
	give = pt.GiveBag
	if pt.Adv > 0 {
		if m.Code == "" {
			return -1, give, engine.Reject("BC-5.6.1", "collab_adv")
		}
		give[catalog.IngIndex(m.Code)] += pt.Adv
	}
	if !s.P[seat].Ing.Covers(give) {
		return -1, give, engine.Reject("BC-5.6.2", "not_enough", "need", give.String(), "have", s.P[seat].Ing.String())
	}
	return k, give, nil
}

// collaborate contributes one portion (BC-5.6).
func (s *State) collaborate(seat int, m *notation.Move) error {
	k, give, err := s.collabCheck(seat, m)
	if err != nil {
		return err
	}
	pt := s.r.Portion[k]
	p := &s.P[seat]
	p.Ing = p.Ing.Sub(give)
	s.Collab[k] = seat
	p.Collab = append(p.Collab, pt.ID)
	for _, w := range s.ws(p) {
		p.Rep += w.CollabRep
	}
	s.emit("collab", seat, "portion", pt.ID, "give", give.String())
	for _, o := range s.Collab {
		if o < 0 {
			return nil
		}
	}
	// BC-5.6.3 complete: sold at once, each contributor rewarded.
	for i, o := range s.Collab {
		q := &s.P[o]
		q.Rep += s.r.Portion[i].Rep
		q.Money += s.r.Portion[i].Money
		s.Collab[i] = -1
		q.Collab = []string{}
	}
	s.emit("collab_done", -1)
	return nil
}

// research moves one cube (BC-5.7); the Experimental step's one-time
// benefit comes from the data (§8.10). The line's choice words go first to
// the Experimental step (its building space, its recipe, its ingredients),
// then to the Research Assistant's Basic Ingredient (Table 8.8, BC-5.7.7,
// BC-5.10.2); a word that nothing takes is refused, never ignored.
func (s *State) research(seat int, m *notation.Move) error {
	p := &s.P[seat]
	t := m.Track
	if p.Research[t] >= stGameEnd {
		return engine.Reject("BC-5.7.1", "track_end", "track", catalog.TrackNames[t])
	}
	choice := append([]string(nil), m.Choice...)
	// take removes and returns the first choice word that ok accepts.
	take := func(ok func(string) bool) string {
		for k, c := range choice {
			if ok(c) {
				choice = append(choice[:k:k], choice[k+1:]...)
				return c
			}
		}
		return ""
	}
	if p.Research[t]+1 == stExperimental {
		e := s.lab(t).Experimental
		switch e.Token {
		case "ops":
			sp := take(func(c string) bool { return strings.HasPrefix(c, "SPACE_") })
			if sp != "" {
				if !slices.Contains(s.emptySpaces(p), sp) {
					return engine.Reject("BC-5.7.2", "space_not_empty", "space", sp)
				}
			} else if es := s.emptySpaces(p); len(es) > 0 {
				sp = es[0]
			}
			p.OpsToken = sp
		case "brew":
			id := take(func(c string) bool { return s.r.Recipes[c] != nil })
			if id != "" {
				if !slices.Contains(s.Recipes, id) && !slices.Contains(p.Secrets, id) {
					return engine.Reject("BC-5.7.2", "recipe_not_in_play", "recipe", id)
				}
			} else {
				id = s.Recipes[0]
			}
			p.BrewToken = id
		}
		if e.Token == "" {
			s.gain(seat, s.effectGains(p, e, &choice, &choice), "research")
		}
		p.Money += e.Money
		p.Rep += e.Rep
	}
	p.Research[t]++
	// BC-5.7.7 research triggers.
	var g catalog.Bag
	for _, w := range s.ws(p) {
		for k := 0; k < w.ResearchAnyBasic; k++ {
			g[s.pickOf(p, catalog.BasicCodes, &choice)]++
		}
	}
	if len(choice) > 0 {
		return engine.Reject("BC-5.10.2", "choice_unused", "words", strings.Join(choice, " "), "track", catalog.TrackNames[t])
	}
	s.gain(seat, g, "research_assistant")
	s.emit("research", seat, "track", catalog.TrackNames[t], "step", p.Research[t])
	return nil
}

// emptySpaces are the player's labelled building spaces still empty (§8.3).
func (s *State) emptySpaces(p *Player) []string {
	var out []string
	for _, b := range s.r.Building {
		if b.Space != "" && !p.has(b.ID) {
			out = append(out, b.Space)
		}
	}
	return out
}

// canInstall checks that the item's space is free on the player's board
// (BC-5.8.2, BC-5.8.3, BC-5.8.6).
func (s *State) canInstall(p *Player, id string) error {
	if id == "HOPS_INFUSER" {
		n, free := 0, 0
		for _, sl := range s.slotsOf(p) {
			if p.Infusers[sl] {
				n++
			} else {
				free++
			}
		}
		if free == 0 || n >= s.r.Economy.MaxInfusers {
			return engine.Reject("BC-5.8.3", "no_infuser_slot")
		}
		return nil
	}
	if p.has(id) {
		return engine.Reject("BC-5.8.2", "already_built", "building", id)
	}
	return nil
}

// install installs one building or equipment type (BC-5.8).
func (s *State) install(seat int, m *notation.Move) error {
	p := &s.P[seat]
	if err := s.canInstall(p, m.Bld); err != nil {
		return err
	}
	b := s.r.Buildings[m.Bld]
	var g catalog.Bag
	if m.Bld == "HOPS_INFUSER" {
		for _, sl := range s.slotsOf(p) {
			if !p.Infusers[sl] {
				p.Infusers[sl] = true
				g = g.Add(b.GivesBag)
			}
		}
	} else {
		// A Double keeps the Single's batches in Tank 1 / Bottling 1 and
		// Tank 1's Infuser (BC-5.8.2): nothing moves.
		p.Built = append(p.Built, m.Bld)
		g = b.GivesBag
	}
	s.emit("install", seat, "building", m.Bld)
	s.gain(seat, g, m.Bld)
	// BC-5.8.5 install triggers.
	plus := slices.Clone(m.PlusOps)
	for t := 0; t < catalog.NTracks; t++ {
		if e := s.lab(t).Breakthrough; p.Research[t] >= stBreakthrough && e.On == "install" {
			s.gain(seat, s.effectGains(p, e, &plus, &plus), "breakthrough")
			p.Rep += e.Rep
		}
	}
	s.unusedChoices(seat, plus)
	if b.Space != "" && p.OpsToken == b.Space {
		p.Rep++
		p.OpsToken = ""
	}
	for _, w := range s.ws(p) {
		p.Rep += w.InstallRep
	}
	return nil
}

// secret develops a Secret Recipe (BC-5.12.5); others see only that one was.
func (s *State) secret(seat int, m *notation.Move) error {
	if !s.on("secret") {
		return engine.Reject("BC-3.11", "not_in_play", "action", "SECRET")
	}
	if !slices.Contains(s.Box, m.Recipe) {
		return engine.Reject("BC-5.12.5", "not_in_box", "recipe", m.Recipe)
	}
	p := &s.P[seat]
	s.Box = remove(s.Box, m.Recipe)
	p.Secrets = append(p.Secrets, m.Recipe)
	e := engine.NewEvent("bc.secret", seat, engine.Only(seat), "recipe", m.Recipe)
	e.Redacted = map[string]any{"hidden": true}
	s.ev = append(s.ev, e)
	return nil
}

// annual takes one Annual Winter benefit (BC-5.7.3, A-38), as the data
// describe it (§8.10).
func (s *State) annual(seat int, m *notation.Move) error {
	p := &s.P[seat]
	name := catalog.TrackNames[m.Track]
	if !slices.Contains(p.Annual, name) {
		return engine.Reject("BC-5.7.3", "no_annual", "track", name)
	}
	e := s.lab(m.Track).Annual
	if !m.Skip {
		switch e.Free {
		case "install":
			if len(m.Parts) != 1 || m.Parts[0].Verb != "INSTALL" {
				return engine.Reject("BC-5.7.3", "annual_ops")
			}
			if err := s.install(seat, m.Parts[0]); err != nil {
				return err
			}
		case "process", "process_collab":
			if len(m.Parts) == 0 {
				return engine.Reject("BC-5.7.3", "annual_process")
			}
			if err := s.processAction(seat, m.Parts, e.Free == "process_collab"); err != nil {
				return err
			}
		default:
			var g catalog.Bag
			nb, na := 0, 0
			for _, c := range m.Choice {
				g[catalog.IngIndex(c)]++
				if slices.Contains(catalog.BasicCodes, c) {
					nb++
				} else {
					na++
				}
			}
			if nb != e.Basic || na != e.Adv || len(m.Parts) > 0 {
				return engine.Reject("BC-5.7.3", "annual_count", "want", e.Basic+e.Adv)
			}
			if e.AdvDistinct {
				for _, c := range catalog.AdvCodes {
					if g[catalog.IngIndex(c)] > 1 {
						return engine.Reject("BC-5.7.3", "annual_count", "want", e.Basic+e.Adv)
					}
				}
			}
			s.gain(seat, g, "annual")
		}
		p.Money += e.Money
		p.Rep += e.Rep
	}
	p.Annual = remove(p.Annual, name)
	s.emit("annual", seat, "track", name, "skip", m.Skip)
	return nil
}

// annualDone ends the player's S0: ingredient benefits still owed are taken
// by preference, free actions are skipped (BC-10.6).
func (s *State) annualDone(seat int) {
	p := &s.P[seat]
	for _, name := range append([]string(nil), p.Annual...) {
		t := catalog.TrackIndex(name)
		e := s.lab(t).Annual
		m := &notation.Move{Verb: "ANNUAL", Track: t, Skip: e.Free != ""}
		if !m.Skip {
			g := s.effectGains(p, e, nil, nil)
			for i := catalog.NIng - 1; i >= 0; i-- {
				if i < catalog.IF {
					continue
				}
				for k := 0; k < g[i]; k++ {
					m.Choice = append(m.Choice, catalog.IngCodes[i])
				}
			}
			for i := 0; i < catalog.IF; i++ {
				for k := 0; k < g[i]; k++ {
					m.Choice = append(m.Choice, catalog.IngCodes[i])
				}
			}
		}
		if err := s.annual(seat, m); err != nil {
			p.Annual = remove(p.Annual, name)
		}
	}
	p.Annual = []string{}
}
