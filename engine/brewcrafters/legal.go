package brewcrafters

import (
	"slices"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
	"github.com/pbem-referee/referee/engine/brewcrafters/notation"
)

type mopt struct{ m *notation.Move }

// kwCounts counts the spaces in play per keyword: a keyword on more than
// one space is written with its space id in canonical commands (BC-10.5).
func (s *State) kwCounts() map[string]int {
	if s.kw != nil {
		return s.kw
	}
	n := make(map[string]int, 16)
	for _, sp := range s.Spaces {
		for _, h := range s.r.Spaces[sp.ID].Half {
			n[h.Kw]++
		}
	}
	s.kw = n
	return n
}

// anyPlacement reports whether the seat has a legal Market placement,
// without listing them all.
func (s *State) anyPlacement(seat int) bool {
	for i := range s.Spaces {
		if s.Spaces[i].Occ >= 0 {
			continue
		}
		for _, h := range s.r.Spaces[s.Spaces[i].ID].Half {
			switch h.Effect {
			case "investor", "take", "money", "choose_adv", "choose_basic", "benefit":
				return true
			}
		}
	}
	return len(s.placements(seat)) > 0
}

// basicPairs lists the multisets of n Basic Ingredients.
func multisets(codes []string, n int) [][]string {
	if n == 0 {
		return [][]string{{}}
	}
	var out [][]string
	var rec func(from int, cur []string)
	rec = func(from int, cur []string) {
		if len(cur) == n {
			out = append(out, append([]string(nil), cur...))
			return
		}
		for i := from; i < len(codes); i++ {
			rec(i, append(cur, codes[i]))
		}
	}
	rec(0, nil)
	return out
}

// placements lists the legal Market placements of a seat (BC-5.2.6).
func (s *State) placements(seat int) []mopt {
	p := &s.P[seat]
	var out []mopt
	amb := s.kwCounts()
	for i := range s.Spaces {
		sp := &s.Spaces[i]
		def := s.r.Spaces[sp.ID]
		for _, h := range def.Half {
			if sp.Occ >= 0 && h.Effect != "cfarm" {
				continue
			}
			base := func(args ...string) *notation.Move {
				m := &notation.Move{Verb: "M", Kw: h.Kw, Args: args}
				if amb[h.Kw] > 1 {
					m.Space = sp.ID
				}
				return m
			}
			add := func(m *notation.Move) { out = append(out, mopt{m}) }
			switch h.Effect {
			case "investor", "take", "money":
				add(base())
			case "shift":
				if s.canShift(p) == nil {
					add(base())
				}
			case "partner":
				for _, id := range s.Partners {
					add(base(id))
				}
			case "worker":
				for _, id := range s.Workers {
					add(base(id))
				}
			case "choose_adv":
				for _, c := range multisets(catalog.AdvCodes, h.Count) {
					add(base(c...))
				}
			case "choose_basic":
				for _, c := range multisets(catalog.BasicCodes, h.Count) {
					add(base(c...))
				}
			case "benefit":
				for _, c := range catalog.BasicCodes {
					add(base(c))
				}
			case "interns":
				if s.Interns >= 2 { // even when fewer than 2 seasons remain
					add(base())
				}
			case "agency":
				if len(s.Unused) > 0 {
					add(base())
				}
			case "cfarm":
				if sn := s.seasonOf(); sn == 0 || sn == 3 {
					for k, cp := range s.r.CFarm {
						if s.CF[k] < 0 && p.Ing[catalog.IngIndex(cp.Code)] > 0 {
							add(base(cp.Code))
						}
					}
				}
			case "trade":
				for _, row := range s.r.Trade {
					gives := []string{row.Give}
					if row.Give == "ADV" {
						gives = catalog.AdvCodes
					}
					for _, g := range gives {
						if p.Ing[catalog.IngIndex(g)] < row.GiveN {
							continue
						}
						for _, k := range catalog.SortedKeys(row.Get) {
							gets := []string{k}
							if k == "ADV" {
								gets = catalog.AdvCodes
							}
							for _, c := range gets {
								ts := notation.TradeSpec{Give: g, GiveN: row.GiveN, Get: c, GetN: row.Get[k]}
								add(base(ts.String()))
							}
						}
					}
				}
			}
		}
	}
	return out
}

// Legal implements engine.State.
func (s *State) Legal(d engine.Decision) []engine.Option {
	pend := s.Pending()
	if len(pend) == 0 || pend[0].Seat != d.Seat || pend[0].Kind != d.Kind {
		return nil
	}
	seat := d.Seat
	p := &s.P[seat]
	var out []engine.Option
	opt := func(m *notation.Move) { out = append(out, engine.Option{Cmd: s.cmd(m), Group: s.groupOf(m)}) }
	switch d.Kind {
	case kindDiscard:
		for i, v := range p.Ing {
			if v > 0 {
				var b catalog.Bag
				b[i] = 1
				opt(&notation.Move{Verb: "DISCARD", Bag: b})
			}
		}
	case kindPick:
		for i, v := range s.CFLeft {
			if v > 0 {
				opt(&notation.Move{Verb: "PICK", Code: catalog.IngCodes[i]})
			}
		}
	case kindHire:
		for _, id := range s.Agency {
			opt(&notation.Move{Verb: "HIRE", ID: id})
		}
		opt(&notation.Move{Verb: "HIRE", ID: "NONE"})
	case kindResearch:
		for _, r := range s.researchMoves(seat) {
			opt(r)
		}
		opt(&notation.Move{Verb: "RESEARCH", Skip: true})
	case kindStart:
		out = append(out, s.annualOptions(seat)...)
		opt(&notation.Move{Verb: "DONE"})
	case kindMarket, kindExtra, kindIntern:
		for _, o := range s.placements(seat) {
			opt(o.m)
		}
		if d.Kind == kindExtra {
			opt(&notation.Move{Verb: "PASS"})
		}
		if d.Kind == kindIntern {
			opt(&notation.Move{Verb: "INTERN", Val: "BREWERY"})
		}
	case kindBrewery:
		out = append(out, s.breweryOptions(seat)...)
	}
	// Menus that fit a decision (issue 22): the groups best known first
	// (menuGroups), the options of a group in the order built.
	slices.SortStableFunc(out, func(a, b engine.Option) int {
		return MenuGroupRank(a.Group) - MenuGroupRank(b.Group)
	})
	return out
}

// processOptions lists Process Beer actions: selling and bottling always,
// and every affordable brew step up to slot symmetry; the Mash Tun and Yeast
// Lab are operated whenever they apply (they only lower the cost).
func (s *State) processOptions(seat int) []*notation.Move {
	p := &s.P[seat]
	var recipes []string
	for _, id := range append(append([]string(nil), s.Recipes...), p.Secrets...) {
		if s.canBrew(p, id) == nil {
			recipes = append(recipes, id)
		}
	}
	slots := s.slotsOf(p)
	out := []*notation.Move{{Verb: "PROCESS"}}
	choice := make([]int, len(slots)) // index into recipes, -1 none
	var rec func(k int)
	rec = func(k int) {
		if k == len(slots) {
			var brews []notation.Brew
			for i, c := range choice {
				if c >= 0 {
					brews = append(brews, notation.Brew{Recipe: recipes[c], Slot: catalog.SlotNames[slots[i]]})
				}
			}
			if len(brews) == 0 {
				return
			}
			m := &notation.Move{Verb: "PROCESS", Brews: brews}
			raw, _ := s.brewCost(p, brews, false, false)
			m.Mash = p.has("MASH_TUN") && raw[catalog.IM] > 0
			m.Ylab = p.has("YEAST_LAB") && raw[catalog.IY] > 0
			c, err := s.brewCost(p, brews, m.Mash, m.Ylab)
			if err == nil && p.Ing.Covers(c) {
				out = append(out, m)
			}
			return
		}
		for c := -1; c < len(recipes); c++ {
			// T2 only after T1, and never "smaller" than T1 (symmetry).
			if slots[k] == catalog.SlT2 && (choice[k-1] < 0 && c >= 0 || c >= 0 && c < choice[k-1]) {
				continue
			}
			choice[k] = c
			rec(k + 1)
		}
	}
	rec(0)
	return out
}

// collabOptions lists the portions the player may contribute (BC-5.6).
func (s *State) collabOptions(seat int) []*notation.Move {
	if s.Collab == nil {
		return nil
	}
	var out []*notation.Move
	for k, pt := range s.r.Portion {
		if s.Collab[k] >= 0 {
			continue
		}
		codes := []string{""}
		if pt.Adv > 0 {
			codes = catalog.AdvCodes
		}
		for _, c := range codes {
			m := &notation.Move{Verb: "COLLAB", Portion: pt.ID, Code: c}
			if _, _, err := s.collabCheck(seat, m); err == nil {
				out = append(out, m)
			}
		}
	}
	return out
}

// breweryOptions lists the Brewery actions (BC-5.4.3).
func (s *State) breweryOptions(seat int) []engine.Option {
	p := &s.P[seat]
	var out []engine.Option
	b := func(parts ...*notation.Move) {
		m := &notation.Move{Verb: "B", Parts: parts}
		out = append(out, engine.Option{Cmd: s.cmd(m), Group: s.groupOf(m)})
	}
	for _, m := range s.processOptions(seat) {
		b(m)
	}
	for _, c := range s.collabOptions(seat) {
		b(c)
		b(c, &notation.Move{Verb: "PROCESS"})
	}
	for _, r := range s.researchMoves(seat) {
		b(r)
	}
	for _, id := range catalog.BuildingIDs {
		if s.canInstall(p, id) == nil {
			b(&notation.Move{Verb: "INSTALL", Bld: id})
		}
	}
	if s.on("secret") {
		for _, id := range s.Box {
			b(&notation.Move{Verb: "SECRET", Recipe: id})
		}
	}
	if s.on("cfarm") {
		if sn := s.seasonOf(); sn == 0 || sn == 3 {
			for k, cp := range s.r.CFarm {
				if s.CF[k] < 0 && p.Ing[catalog.IngIndex(cp.Code)] > 0 {
					b(&notation.Move{Verb: "CFARM", Code: cp.Code})
				}
			}
		}
	}
	b(&notation.Move{Verb: "PASS"})
	return out
}

// researchMoves lists the Lab Research moves of the seat (BC-5.7.1): one per
// track short of Game End, with each Experimental choice when the cube
// arrives there (BC-5.7.2).
func (s *State) researchMoves(seat int) []*notation.Move {
	p := &s.P[seat]
	var out []*notation.Move
	for t := 0; t < catalog.NTracks; t++ {
		if p.Research[t] >= stGameEnd {
			continue
		}
		if p.Research[t] == stStart {
			e := s.lab(t).Experimental
			var choices [][]string
			switch e.Token {
			case "ops":
				for _, sp := range s.emptySpaces(p) {
					choices = append(choices, []string{sp})
				}
			case "brew":
				for _, id := range s.Recipes {
					choices = append(choices, []string{id})
				}
			default:
				if e.Basic+e.Adv > 0 {
					choices = choiceCombos(e)
				}
			}
			for _, c := range choices {
				out = append(out, &notation.Move{Verb: "RESEARCH", Track: t, Choice: c})
			}
			if len(choices) > 0 {
				continue
			}
		}
		out = append(out, &notation.Move{Verb: "RESEARCH", Track: t})
	}
	return out
}

// annualOptions lists the Annual benefits still owed at S0 (BC-5.7.3).
func (s *State) annualOptions(seat int) []engine.Option {
	p := &s.P[seat]
	var out []engine.Option
	a := func(m *notation.Move) { out = append(out, engine.Option{Cmd: s.cmd(m), Group: s.groupOf(m)}) }
	for _, name := range p.Annual {
		t := catalog.TrackIndex(name)
		e := s.lab(t).Annual
		switch e.Free {
		case "install":
			for _, id := range catalog.BuildingIDs {
				if s.canInstall(p, id) == nil {
					a(&notation.Move{Verb: "ANNUAL", Track: t, Parts: []*notation.Move{{Verb: "INSTALL", Bld: id}}})
				}
			}
		case "process", "process_collab":
			for _, m := range s.processOptions(seat) {
				a(&notation.Move{Verb: "ANNUAL", Track: t, Parts: []*notation.Move{m}})
			}
			if e.Free == "process_collab" {
				for _, c := range s.collabOptions(seat) {
					a(&notation.Move{Verb: "ANNUAL", Track: t, Parts: []*notation.Move{c}})
				}
			}
		default:
			for _, c := range choiceCombos(e) {
				a(&notation.Move{Verb: "ANNUAL", Track: t, Choice: c})
			}
		}
		a(&notation.Move{Verb: "ANNUAL", Track: t, Skip: true})
	}
	return out
}

// HasChoice implements engine.Chooser: a Brewery decision always has at
// least B PROCESS and B PASS (BC-5.4.3), an Agency hire HIRE NONE and a
// worker of the draw, so neither is ever forced; the Table need not list
// their options to know it.
func (s *State) HasChoice(d engine.Decision) bool {
	switch d.Kind {
	case kindBrewery:
		return true
	case kindHire:
		return len(s.Agency) > 0
	}
	return false
}
