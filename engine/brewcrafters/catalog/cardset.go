package catalog

import (
	"strconv"
	"strings"
	"sync"

	"github.com/pbem-referee/referee/engine"
)

// cardSet is the cards of one data file and lab side, listed and by
// "kind:ID"; computed once (a data file is shared by every game using it).
type cardSet struct {
	List  []engine.Card
	ByKey map[string]*engine.Card
}

var cardSets sync.Map // cardKey -> *cardSet

type cardKey struct {
	r    *Rules
	side string
}

func (r *Rules) CardSet(side string) *cardSet {
	k := cardKey{r, side}
	if cs, ok := cardSets.Load(k); ok {
		return cs.(*cardSet)
	}
	cs := &cardSet{List: r.cards(side), ByKey: map[string]*engine.Card{}}
	for i := range cs.List {
		c := &cs.List[i]
		cs.ByKey[c.Kind+":"+c.ID] = c
	}
	v, _ := cardSets.LoadOrStore(k, cs)
	return v.(*cardSet)
}

// cards lists the cards of a data file, the research lab's side given.
func (r *Rules) cards(side string) []engine.Card {
	var out []engine.Card
	for _, c := range IngCodes {
		out = append(out, engine.Card{Kind: "ingredient", ID: c, Code: c, Rule: "BC-5.1.1"})
	}
	for _, w := range r.Worker {
		out = append(out, r.workerCard(&w))
	}
	for _, b := range r.Building {
		out = append(out, r.buildingCard(&b))
	}
	for _, p := range r.Partner {
		out = append(out, engine.Card{Kind: "partner", ID: p.ID, Code: p.ID, Name: p.Name, Rule: "BC-5.9.2",
			Facts: []engine.Fact{{Key: "exchange", N: p.GiveBasic, Goods: p.GetBag.String()}}})
	}
	seen := map[string]bool{}
	for _, sp := range r.Space {
		for _, h := range sp.Half {
			if seen[h.Kw] {
				continue
			}
			seen[h.Kw] = true
			out = append(out, r.spaceCard(h))
		}
	}
	for _, rc := range r.Recipe {
		c := engine.Card{Kind: "recipe", ID: rc.ID, Code: rc.ID, Name: rc.Name, Rule: "BC-5.5.5",
			Facts: []engine.Fact{{Key: "style", Word: rc.Style}, {Key: "brew_cost", Goods: rc.CostBag.String()},
				{Key: "rep", N: rc.Rep}}}
		if rc.Symbol != "" {
			c.Facts = append(c.Facts, engine.Fact{Key: "symbol", Word: rc.Symbol})
		}
		out = append(out, c)
	}
	if side == "" {
		side = "basic"
	}
	for t := 0; t < NTracks; t++ {
		row := r.ResearchRows[side][t]
		if row == nil {
			continue
		}
		c := engine.Card{Kind: "track", ID: TrackNames[t], Code: TrackNames[t], Rule: "BC-5.7.1"}
		for _, st := range []struct {
			step string
			e    Effect
		}{{"experimental", row.Experimental}, {"annual", row.Annual}, {"breakthrough", row.Breakthrough}, {"game_end", row.GameEnd}} {
			c.Facts = append(c.Facts, engine.Fact{Key: "step", Word: st.step})
			c.Facts = append(c.Facts, EffectFacts(st.e)...)
		}
		out = append(out, c)
	}
	for _, pt := range r.Portion {
		c := engine.Card{Kind: "portion", ID: "COLLAB_" + pt.ID, Code: "COLLAB " + pt.ID, Rule: "BC-5.6.1"}
		if pt.Adv > 0 {
			c.Facts = append(c.Facts, engine.Fact{Key: "give_adv", N: pt.Adv})
		} else {
			c.Facts = append(c.Facts, engine.Fact{Key: "give", Goods: pt.GiveBag.String()})
		}
		c.Facts = append(c.Facts, engine.Fact{Key: "rep", N: pt.Rep}, engine.Fact{Key: "money", N: pt.Money})
		out = append(out, c)
	}
	for _, sl := range SlotNames {
		out = append(out, engine.Card{Kind: "slot", ID: sl, Code: sl, Rule: "BC-5.5.1"})
	}
	return out
}

// ShortCode is how a player types an id: without its underscores
// (HEAD_BREWER is HEADBREWER; the parser reads both).
func ShortCode(id string) string { return strings.ReplaceAll(id, "_", "") }

// bldShort are the short names of buildings players type (the parser's
// aliases, reversed).
var bldShort = func() map[string]string {
	m := map[string]string{}
	for a, id := range BldAliases {
		if cur, ok := m[id]; !ok || len(a) < len(cur) || len(a) == len(cur) && a < cur {
			m[id] = a
		}
	}
	return m
}()

// bldCode is the code a player types for a building.
func bldCode(id string) string {
	if a, ok := bldShort[id]; ok && a != "STORE" {
		return a
	}
	return ShortCode(id)
}

func (r *Rules) workerCard(w *Worker) engine.Card {
	c := engine.Card{Kind: "worker", ID: w.ID, Code: ShortCode(w.ID), Name: w.Name, Rule: "BC-5.3.4"}
	f := func(key string, n int, goods, word string) {
		c.Facts = append(c.Facts, engine.Fact{Key: key, N: n, Goods: goods, Word: word})
	}
	if g := w.HireBag.String(); g != "" {
		f("hire_gain", 0, g, "")
	}
	if w.HireAnyAdv > 0 {
		f("hire_any_adv", w.HireAnyAdv, "", "")
	}
	if w.HireMoney > 0 {
		f("hire_money", w.HireMoney, "", "")
	}
	if w.HireResearch {
		f("hire_research", 0, "", "")
	}
	if g := w.MarketBag.String(); g != "" {
		f("market_gain", w.MarketMin, g, w.MarketType)
	}
	if w.MarketAnyAdv > 0 {
		f("market_any_adv", w.MarketMin, "", w.MarketType)
	}
	for _, x := range []struct {
		key string
		n   int
	}{{"mash_rep", w.MashRep}, {"ylab_rep", w.YlabRep}, {"pub_rep", w.PubRep}, {"pub_storage", w.PubStorage},
		{"adv_brew_rep", w.AdvBrewRep}, {"sell_bonus", w.SellBonus}, {"farm_extra", w.FarmExtra},
		{"op_discount", w.OpDiscount}, {"shift_rep", w.ShiftRep}, {"install_rep", w.InstallRep},
		{"research_any_basic", w.ResearchAnyBasic}, {"collab_rep", w.CollabRep}, {"storage", w.Storage},
		{"oak_extra", w.OakExtra}, {"infuser_extra", w.InfuserExtra}, {"money_extra", w.MoneyExtra},
		{"market_extra", w.MarketExtra}, {"end_rep_per_recipe", w.EndRepPerRecipe}} {
		if x.n > 0 {
			f(x.key, x.n, "", "")
		}
	}
	if len(w.ShiftNeed) > 1 {
		f("shift_need", w.ShiftNeed[1], "", "")
	}
	if len(w.Seasons) > 0 {
		seasons := strings.Join(w.Seasons, " ")
		if g := w.SeasonBag.String(); g != "" {
			f("season_gain", 0, g, seasons)
		}
		if len(w.SeasonPick) > 0 {
			f("season_pick", 1, strings.Join(w.SeasonPick, "/"), seasons)
		}
		if w.SeasonMoney > 0 {
			f("season_money", w.SeasonMoney, "", seasons)
		}
		if w.SeasonNeeds != "" {
			f("needs", 0, "", w.SeasonNeeds)
		}
	}
	if w.CollabOnly {
		f("collab_only", 0, "", "")
	}
	f("wage", w.OpCost, "", "")
	return c
}

func (r *Rules) buildingCard(b *Building) engine.Card {
	c := engine.Card{Kind: "building", ID: b.ID, Code: bldCode(b.ID), Name: b.Name, Rule: "BC-5.8.4"}
	f := func(key string, n int, goods string) {
		c.Facts = append(c.Facts, engine.Fact{Key: key, N: n, Goods: goods})
	}
	if g := b.GivesBag.String(); g != "" {
		f("install_gain", 0, g)
	}
	if b.Storage > 0 {
		f("storage", b.Storage, "")
	}
	if b.Reduce > 0 {
		f("reduce", b.Reduce, "")
	}
	if b.Rep > 0 {
		f("bld_rep", b.Rep, "")
	}
	if g := b.YieldsBag.String(); g != "" {
		f("yields", 0, g)
	}
	switch b.ID {
	case "DOUBLE_BATCH":
		f("double", 0, "")
	case "BREWPUB":
		f("pub", 0, "")
	case "TOUR_TASTING":
		f("tasting", 0, "")
	}
	f("wage", b.OpCost, "")
	return c
}

func (r *Rules) spaceCard(h Half) engine.Card {
	c := engine.Card{Kind: "space", ID: h.Kw, Code: h.Kw, Rule: "BC-5.3.1"}
	f := func(key string, n int, goods string) {
		c.Facts = append(c.Facts, engine.Fact{Key: "sp_" + key, N: n, Goods: goods})
	}
	switch h.Effect {
	case "take":
		f("take", 0, h.RestockBag.String())
	case "investor":
		f("investor", h.RestockMoney, "")
	case "money":
		f("money", h.Count, "")
	case "shift":
		f("shift", 0, "")
	case "partner":
		f("partner", 0, "")
	case "worker":
		f("worker", 0, "")
	case "choose_adv":
		f("choose_adv", h.Count, "")
	case "choose_basic":
		f("choose_basic", h.Count, "")
	case "benefit":
		f("benefit", h.Count, "")
	case "interns":
		f("interns", 0, "")
	case "agency":
		f("agency", r.Economy.AgencyFee, "")
	case "cfarm":
		f("cfarm", 0, "")
	case "trade":
		for _, row := range r.Trade {
			for _, k := range SortedKeys(row.Get) {
				c.Facts = append(c.Facts, engine.Fact{Key: "sp_trade", N: row.GiveN, Word: row.Give,
					Goods: strings.TrimSpace(strconv.Itoa(row.Get[k]) + k)})
			}
		}
	}
	return c
}

// EffectFacts are the facts of a research step (§8.10).
func EffectFacts(e Effect) []engine.Fact {
	var out []engine.Fact
	f := func(key string, n int, word string) {
		out = append(out, engine.Fact{Key: "r_" + key, N: n, Word: word})
	}
	if e.On != "" {
		f("on", e.Min, e.On)
	}
	if e.Adv > 0 {
		f("adv", e.Adv, "")
	}
	if e.Basic > 0 {
		f("basic", e.Basic, "")
	}
	if e.Money > 0 {
		f("money", e.Money, "")
	}
	if e.Extra > 0 {
		f("extra", e.Extra, "")
	}
	if e.Token != "" {
		f("token", 0, e.Token)
	}
	if e.Free != "" {
		f("free", 0, e.Free)
	}
	if e.OpDiscount > 0 {
		f("op_discount", e.OpDiscount, "")
	}
	if e.Per != "" {
		f("per", max(e.Div, 1), e.Per)
	}
	if e.Rep > 0 {
		f("rep", e.Rep, "")
	}
	if e.AdvOnly {
		f("adv_only", 0, "")
	}
	return out
}
