package brewcrafters

import (
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
	"github.com/pbem-referee/referee/engine/brewcrafters/notation"
)

// MenuItem describes one legal answer of the reader's own decision (issue
// 22): its kind of action (Group, which the mail groups and orders by),
// the command as a player types it (Show: no internal id), the card it is
// about and its cost and effect as facts. The words are the templates'.
// The card is held by value (the zero Card, no Kind, when the answer is
// about none, left out of the JSON): a menu line that reads its item is
// kept from one mail to the next by the item's value, which a pointer
// would refuse (templates.AppendViewKey; issue 25).
type MenuItem struct {
	Group string        `json:"group"`
	Rank  int           `json:"rank"` // the group's place (MenuGroupRank)
	Show  string        `json:"show"`
	Card  engine.Card   `json:"card,omitzero"`
	Facts []engine.Fact `json:"facts,omitempty"`
}

// cardOf is the card of key in cards by value (the zero Card when there is
// none).
func cardOf(cards map[string]*engine.Card, key string) engine.Card {
	if c := cards[key]; c != nil {
		return *c
	}
	return engine.Card{}
}

// Menu groups, best known first: the mail lists the options of a decision
// group by group in this order (the numbers stay the engine's).
var menuGroups = []string{"ingredients", "money", "process", "research", "install", "worker", "partner",
	"shift", "collab", "trade", "complex", "secret", "annual", "discard", "pick", "hire", "other"}

// MenuGroupRank is the place of a group in a menu (unknown groups last).
func MenuGroupRank(g string) int {
	for i, x := range menuGroups {
		if x == g {
			return i
		}
	}
	return len(menuGroups)
}

// menu describes the legal options of the seat's pending decisions.
func (s *State) menu(seat int) map[string]MenuItem {
	if seat < 0 || seat >= s.N || s.Res != nil {
		return nil
	}
	var out map[string]MenuItem
	cards := s.r.CardSet(s.opt("research_side")).ByKey
	for _, d := range s.Pending() {
		if d.Seat != seat {
			continue
		}
		for _, o := range s.Legal(d) {
			if out == nil {
				out = map[string]MenuItem{}
			}
			it := s.describe(seat, o.Cmd, cards)
			it.Rank = MenuGroupRank(it.Group)
			out[o.Cmd] = it
		}
	}
	return out
}

// showCode is how a player types one token of a command (rules.code).
func (s *State) showCode(tok string) string { return s.r.Code(tok) }

func (s *State) describe(seat int, cmd string, cards map[string]*engine.Card) MenuItem {
	f := strings.Fields(cmd)
	for i, t := range f {
		f[i] = s.showCode(t)
	}
	it := MenuItem{Group: "other", Show: strings.Join(f, " ")}
	mv, err := s.Parse(seat, cmd)
	m, ok := mv.(*notation.Move)
	if err != nil || !ok {
		return it
	}
	fact := func(key string, n int, goods, word string) {
		it.Facts = append(it.Facts, engine.Fact{Key: key, N: n, Goods: goods, Word: word})
	}
	p := &s.P[seat]
	switch m.Verb {
	case "M":
		s.describeMarket(p, m, &it, cards)
	case "B":
		for _, part := range m.Parts {
			s.describePart(p, part, &it, cards)
		}
	case "RESEARCH", "INSTALL", "PROCESS", "COLLAB", "SECRET", "CFARM":
		// A free action asked on its own (a free research move, A-4).
		s.describePart(p, m, &it, cards)
	case "ANNUAL":
		it.Group = "annual"
		fact("o_annual", 0, "", catalog.TrackNames[m.Track])
		switch {
		case m.Skip:
			fact("o_skip", 0, "", "")
		case len(m.Parts) > 0:
			for _, part := range m.Parts {
				s.describePart(p, part, &it, cards)
			}
			it.Group = "annual"
		default:
			fact("o_choose", 0, strings.Join(m.Choice, " "), "")
		}
	case "DONE":
		fact("o_done", 0, "", "")
	case "PASS":
		fact("o_pass_extra", 0, "", "")
	case "INTERN":
		fact("o_intern_brewery", 0, "", "")
	case "DISCARD":
		it.Group = "discard"
		fact("o_discard", 0, m.Bag.String(), "")
	case "PICK":
		it.Group = "pick"
		fact("o_pick", 0, "1"+m.Code, "")
	case "HIRE":
		it.Group = "hire"
		if m.ID == "NONE" {
			fact("o_hire_none", 0, "", "")
		} else {
			it.Card = cardOf(cards, "worker:"+m.ID)
			fact("o_hire", s.r.Economy.AgencyFee, "", "")
		}
	}
	return it
}

func (s *State) describeMarket(p *Player, m *notation.Move, it *MenuItem, cards map[string]*engine.Card) {
	fact := func(key string, n int, goods, word string) {
		it.Facts = append(it.Facts, engine.Fact{Key: key, N: n, Goods: goods, Word: word})
	}
	var sp *Space
	var h *catalog.Half
	for i := range s.Spaces {
		if m.Space != "" && s.Spaces[i].ID != m.Space {
			continue
		}
		def := s.r.Spaces[s.Spaces[i].ID]
		for k := range def.Half {
			if def.Half[k].Kw == m.Kw && h == nil {
				sp, h = &s.Spaces[i], &def.Half[k]
			}
		}
	}
	if h == nil {
		return
	}
	switch h.Effect {
	case "take":
		it.Group = "ingredients"
		fact("o_take", 0, sp.Goods.String(), "")
	case "choose_adv", "choose_basic":
		it.Group = "ingredients"
		fact("o_take", 0, bagOfCodes(m.Args).String(), "")
	case "benefit":
		it.Group = "ingredients"
		fact("o_take", 0, bagOfCodes(m.Args).String(), "")
		fact("o_money", h.Count, "", "")
	case "investor":
		it.Group = "money"
		fact("o_money", sp.Money, "", "")
		fact("o_start", 0, "", "")
	case "money":
		it.Group = "money"
		fact("o_money", h.Count, "", "")
	case "shift":
		it.Group = "shift"
		wage := 0
		if p.Shifts < len(s.r.Economy.ShiftCost) {
			wage = s.r.Economy.ShiftCost[p.Shifts]
		}
		fact("o_shift", wage, "", "")
	case "partner":
		it.Group = "partner"
		it.Card = cardOf(cards, "partner:"+m.Args[0])
	case "worker":
		it.Group = "worker"
		it.Card = cardOf(cards, "worker:"+m.Args[0])
	case "trade":
		it.Group = "trade"
		if ts, err := notation.ParseTrade(m.Args[0]); err == nil {
			var give, get catalog.Bag
			give[catalog.IngIndex(ts.Give)] = ts.GiveN
			get[catalog.IngIndex(ts.Get)] = ts.GetN
			fact("o_trade", 0, get.String(), give.String())
		}
	case "interns":
		it.Group = "complex"
		fact("o_interns", s.r.Economy.InternFee, "", "")
	case "agency":
		it.Group = "complex"
		fact("o_agency", s.r.Economy.AgencyFee, "", "")
	case "cfarm":
		it.Group = "complex"
		fact("o_cfarm", 0, "1"+m.Args[0], "")
	}
	if sp.Money > 0 && h.Effect != "investor" {
		fact("o_also_money", sp.Money, "", "")
	}
}

func (s *State) describePart(p *Player, m *notation.Move, it *MenuItem, cards map[string]*engine.Card) {
	fact := func(key string, n int, goods, word string) {
		it.Facts = append(it.Facts, engine.Fact{Key: key, N: n, Goods: goods, Word: word})
	}
	switch m.Verb {
	case "PROCESS":
		if it.Group == "other" {
			it.Group = "process"
		}
		fact("o_process", 0, "", "")
		for _, br := range m.Brews {
			cost := ""
			if rc := s.r.Recipes[br.Recipe]; rc != nil {
				cost = rc.CostBag.String()
			}
			fact("o_brew", 0, cost, br.Recipe)
			if br.Slot != "" {
				fact("o_slot", 0, "", br.Slot)
			}
		}
		if m.Mash {
			fact("o_mash", 0, "", "")
		}
		if m.Ylab {
			fact("o_ylab", 0, "", "")
		}
	case "COLLAB":
		it.Group = "collab"
		for _, pt := range s.r.Portion {
			if pt.ID == m.Portion {
				give := pt.GiveBag.String()
				if pt.Adv > 0 {
					give = "1" + m.Code
				}
				fact("o_collab", pt.Rep, give, "")
			}
		}
	case "RESEARCH":
		it.Group = "research"
		if m.Skip {
			fact("o_skip", 0, "", "")
			return
		}
		t := m.Track
		step := p.Research[t] + 1
		fact("o_research", step, "", catalog.TrackNames[t])
		if row := s.lab(t); row != nil && step == stExperimental {
			for _, c := range m.Choice {
				switch {
				case strings.HasPrefix(c, "SPACE_"):
					for _, b := range s.r.Building {
						if b.Space == c {
							fact("o_token_ops", 0, "", b.ID)
						}
					}
				case s.r.Recipes[c] != nil:
					fact("o_token_brew", 0, "", c)
				}
			}
			if row.Experimental.Token == "" {
				if g := bagOfCodes(m.Choice).String(); g != "" {
					fact("o_take", 0, g, "")
				} else {
					it.Facts = append(it.Facts, catalog.EffectFacts(row.Experimental)...)
				}
			}
		} else if row != nil {
			var e catalog.Effect
			switch step {
			case stAnnual:
				e = row.Annual
			case stBreakthrough:
				e = row.Breakthrough
			case stGameEnd:
				e = row.GameEnd
			}
			it.Facts = append(it.Facts, catalog.EffectFacts(e)...)
		}
	case "INSTALL":
		it.Group = "install"
		it.Card = cardOf(cards, "building:"+m.Bld)
		if len(m.PlusOps) > 0 {
			fact("o_take", 0, bagOfCodes(m.PlusOps).String(), "")
		}
	case "SECRET":
		it.Group = "secret"
		fact("o_secret", 0, "", m.Recipe)
	case "CFARM":
		it.Group = "complex"
		fact("o_cfarm", 0, "1"+m.Code, "")
	case "PASS":
		fact("o_pass", 0, "", "")
	}
}

// bagOfCodes counts ingredient codes ("M M Y" is 2M 1Y); other words are
// left out.
func bagOfCodes(codes []string) catalog.Bag {
	var b catalog.Bag
	for _, c := range codes {
		if i := catalog.IngIndex(c); i >= 0 {
			b[i]++
		}
	}
	return b
}

// groupOf is the menu group of a legal move (engine.Option.Group, issue
// 22), the one describe gives its MenuItem, found without describing it:
// Legal is on the bots' hot path (no allocation).
func (s *State) groupOf(m *notation.Move) string {
	switch m.Verb {
	case "M":
		return s.marketGroup(m)
	case "B":
		g := "other"
		for _, part := range m.Parts {
			g = partGroup(part, g)
		}
		return g
	case "RESEARCH", "INSTALL", "PROCESS", "COLLAB", "SECRET", "CFARM":
		return partGroup(m, "other")
	case "ANNUAL":
		return "annual"
	case "DISCARD":
		return "discard"
	case "PICK":
		return "pick"
	case "HIRE":
		return "hire"
	}
	return "other"
}

// partGroup is the group of a Brewery action after one of its parts.
func partGroup(m *notation.Move, g string) string {
	switch m.Verb {
	case "PROCESS":
		if g == "other" {
			return "process"
		}
	case "COLLAB":
		return "collab"
	case "RESEARCH":
		return "research"
	case "INSTALL":
		return "install"
	case "SECRET":
		return "secret"
	case "CFARM":
		return "complex"
	}
	return g
}

// marketGroups is the group of each effect of a Market space's half.
var marketGroups = map[string]string{
	"take": "ingredients", "choose_adv": "ingredients", "choose_basic": "ingredients",
	"benefit": "ingredients", "investor": "money", "money": "money", "shift": "shift",
	"partner": "partner", "worker": "worker", "trade": "trade", "interns": "complex",
	"agency": "complex", "cfarm": "complex",
}

// marketGroup is the group of a Market placement: its half's effect.
func (s *State) marketGroup(m *notation.Move) string {
	for i := range s.Spaces {
		if m.Space != "" && s.Spaces[i].ID != m.Space {
			continue
		}
		def := s.r.Spaces[s.Spaces[i].ID]
		for k := range def.Half {
			if def.Half[k].Kw == m.Kw {
				if g, ok := marketGroups[def.Half[k].Effect]; ok {
					return g
				}
				return "other"
			}
		}
	}
	return "other"
}
