package brewcrafters

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
)

// View is what one seat may see (BC-6.2, BC-10.3): everything except the
// identity of other players' undeveloped Secret Recipes.
type View struct {
	Seat     int            `json:"seat"`
	Year     int            `json:"year"`
	Season   string         `json:"season"`
	Phase    string         `json:"phase"`
	Round    int            `json:"round"`
	Start    int            `json:"start"`
	Order    []int          `json:"order"`
	Waiting  []int          `json:"waiting"`
	Spaces   []SpaceView    `json:"spaces"`
	Collab   []PortionView  `json:"collab"`
	CFarm    []PortionView  `json:"cfarm"`
	CFLeft   string         `json:"cf_left"`
	Workers  []string       `json:"workers"`
	Partners []string       `json:"partners"`
	Recipes  []RecipeView   `json:"recipes"`
	Brewable []string       `json:"brewable"` // recipes the reader may brew now, one batch each
	Interns  int            `json:"interns"`
	Agency   []string       `json:"agency"`
	Players  []PlayerView   `json:"players"`
	Research string         `json:"research_side"`
	Result   *engine.Result `json:"result"`
	Complex  []string       `json:"complex"`
	Labels   []string       `json:"labels"` // Gold Labels still on their cards
	// Menu describes each legal answer of the reader's own decision, by
	// its canonical command (issue 22: every option in words).
	Menu map[string]MenuItem `json:"menu,omitempty"`
	// IDs maps each worker's and building's code the view shows to its
	// data-file id, RecipeNames each recipe's id to the data file's name:
	// the templates name every coded thing in words with them (issue 22:
	// the summary names workers, buildings and recipes, the codes a player
	// types stay in the menus and the legend). Shared with the rules, read
	// only; not encoded (a JSON client has the codes and HELP).
	IDs         map[string]string `json:"-"`
	RecipeNames map[string]string `json:"-"`
}

// SpaceView is one Market Action space.
type SpaceView struct {
	ID    string   `json:"id"`
	Kws   []string `json:"kws"`
	Goods string   `json:"goods"`
	Money int      `json:"money"`
	Occ   int      `json:"occ"`
	Half  string   `json:"half"`
	Show  string   `json:"show"` // goods and money, "-" when empty
}

// PortionView is one portion of the Collaboration or Community Farm card.
type PortionView struct {
	ID    string `json:"id"`
	Owner int    `json:"owner"`
}

// RecipeView is one recipe in play, with the reader's eligibility.
type RecipeView struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Style  string `json:"style"`
	Basic  bool   `json:"basic"`
	Cost   string `json:"cost"`
	Rep    int    `json:"rep"`
	Symbol string `json:"symbol"`
	Label  bool   `json:"label"`
	Open   bool   `json:"open"`
	Afford bool   `json:"afford"`
	Secret bool   `json:"secret"`
}

// PlayerView is one brewery.
type PlayerView struct {
	Seat      int                  `json:"seat"`
	Money     int                  `json:"money"`
	Rep       int                  `json:"rep"`
	Loans     int                  `json:"loans"`
	LoanRep   int                  `json:"loan_rep"`
	Ing       string               `json:"ing"`
	Stored    int                  `json:"stored"`
	Capacity  int                  `json:"capacity"`
	Line      []string             `json:"line"` // T1 T2 B1 B2 PUB contents ("-" empty, "" absent)
	Infusers  []string             `json:"infusers"`
	Built     []string             `json:"built"`
	Plots     []string             `json:"plots"`
	Shifts    int                  `json:"shifts"`
	Tokens    int                  `json:"tokens"`
	Used      int                  `json:"used"`
	Interns   int                  `json:"interns"`
	Placed    int                  `json:"placed"`
	Batches   int                  `json:"batches"`
	NextShift int                  `json:"next_shift"`
	Brewed    []string             `json:"brewed"`
	Research  [catalog.NTracks]int `json:"research"`
	Workers   []string             `json:"workers"`
	Partners  []string             `json:"partners"`
	Labels    []string             `json:"labels"`
	Shipped   int                  `json:"shipped"`
	Secrets   []string             `json:"secrets"`
	Hidden    int                  `json:"hidden"`
	OpCost    int                  `json:"op_cost"`
	LoansDue  int                  `json:"loans_due"`
	Score     int                  `json:"score"`
	Parts     []engine.ScorePart   `json:"parts"`
	Collab    []string             `json:"collab"`
	OpsToken  string               `json:"ops_token"`
	BrewToken string               `json:"brew_token"`
}

// codes is a copy of ids written as players type them (rules.code): a
// view shows no data-file id (issue 21).
func (s *State) codes(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = s.r.Code(id)
	}
	return out
}

// View implements engine.State.
func (s *State) View(seat int) any {
	v := &View{Seat: seat, Year: s.year(), Season: catalog.SeasonNames[s.seasonOf()], Phase: s.Phase, Round: s.Round + 1,
		Start: s.Start, Order: append([]int{}, s.Order...), Waiting: []int{}, CFLeft: s.CFLeft.String(),
		Workers: s.codes(s.Workers), Partners: append([]string{}, s.Partners...),
		Interns: s.Interns, Agency: s.codes(s.Agency), Research: s.opt("research_side"),
		Labels: append([]string{}, s.Labels...),
		Result: s.Res, Complex: []string{}, IDs: s.r.Ids, RecipeNames: s.r.RecipeNames}
	for _, c := range catalog.ComplexNames {
		if s.on(c) {
			v.Complex = append(v.Complex, c)
		}
	}
	for _, d := range s.Pending() {
		v.Waiting = append(v.Waiting, d.Seat)
	}
	for _, sp := range s.Spaces {
		sv := SpaceView{ID: sp.ID, Goods: sp.Goods.String(), Money: sp.Money, Occ: sp.Occ, Half: sp.Half}
		sv.Show = sv.Goods
		if sp.Money > 0 {
			sv.Show = strings.TrimSpace(sv.Show + " $" + strconv.Itoa(sp.Money))
		}
		if sv.Show == "" {
			sv.Show = "-"
		}
		for _, h := range s.r.Spaces[sp.ID].Half {
			sv.Kws = append(sv.Kws, h.Kw)
		}
		v.Spaces = append(v.Spaces, sv)
	}
	for i, o := range s.Collab {
		v.Collab = append(v.Collab, PortionView{ID: s.r.Portion[i].ID, Owner: o})
	}
	for i, o := range s.CF {
		v.CFarm = append(v.CFarm, PortionView{ID: s.r.CFarm[i].Code, Owner: o})
	}
	var me *Player
	if seat >= 0 && seat < s.N {
		me = &s.P[seat]
	}
	recipes := append([]string(nil), s.Recipes...)
	if me != nil {
		recipes = append(recipes, me.Secrets...)
	}
	for _, id := range recipes {
		rc := s.r.Recipes[id]
		rv := RecipeView{ID: id, Name: rc.Name, Style: rc.Style, Basic: rc.Basic(), Cost: rc.CostBag.String(),
			Rep: rc.Rep, Symbol: rc.Symbol, Label: slices.Contains(s.Labels, id), Secret: !slices.Contains(s.Recipes, id)}
		if me != nil {
			rv.Open = s.canBrew(me, id) == nil
			rv.Afford = me.Ing.Covers(rc.CostBag)
		}
		v.Recipes = append(v.Recipes, rv)
		if rv.Open && rv.Afford {
			v.Brewable = append(v.Brewable, id)
		}
	}
	for i := range s.P {
		v.Players = append(v.Players, s.playerView(i, seat))
	}
	v.Menu = s.menu(seat)
	return v
}

func (s *State) playerView(i, reader int) PlayerView {
	p := &s.P[i]
	cell := func(id string) string {
		if id == "" {
			return "-"
		}
		return id
	}
	line := []string{cell(p.Tanks[0]), "", cell(p.Bottles[0]), "", ""}
	if p.has("DOUBLE_BATCH") {
		line[1], line[3] = cell(p.Tanks[1]), cell(p.Bottles[1])
	}
	if p.has("BREWPUB") {
		line[4] = cell(p.Pub)
	}
	pv := PlayerView{Seat: i, Money: p.Money, Rep: p.Rep, Loans: p.Loans, Ing: p.Ing.String(), Stored: p.Ing.Total(),
		Capacity: s.capacity(p), Line: line, Infusers: []string{}, Built: s.codes(p.Built),
		Plots: append([]string{}, p.Plots...), Shifts: p.Shifts, Tokens: s.tokens(p), Used: p.Used, Interns: p.Interns,
		Placed: p.Placed, Batches: p.Batches, NextShift: -1, Brewed: append([]string{}, p.Brewed...),
		Research: p.Research, Workers: s.codes(p.Workers), Partners: append([]string{}, p.Partners...),
		Labels: append([]string{}, p.Labels...), Shipped: len(p.Shipping), Secrets: []string{},
		OpCost: s.opCost(p), Collab: append([]string{}, p.Collab...), OpsToken: s.r.Code(p.OpsToken), BrewToken: p.BrewToken}
	for sl, on := range p.Infusers {
		if on {
			pv.Infusers = append(pv.Infusers, catalog.SlotNames[sl])
		}
	}
	if p.Loans > 0 {
		pv.LoanRep = s.r.Economy.LoanFirst + s.r.Economy.LoanNext*(p.Loans-1)
	}
	if p.Shifts < s.r.Economy.MaxShifts {
		pv.NextShift = s.shiftNeed(p, p.Shifts)
	}
	if p.Money < pv.OpCost {
		lm := s.r.Economy.LoanMoney
		pv.LoansDue = (pv.OpCost - p.Money + lm - 1) / lm
	}
	// BC-6.2: an undeveloped Secret Recipe is seen by its owner only (also
	// when the Brewing Experimental token names it).
	if i != reader && slices.Contains(p.Secrets, p.BrewToken) && !slices.Contains(p.Revealed, p.BrewToken) {
		pv.BrewToken = "?"
	}
	for _, id := range p.Secrets {
		if i == reader || slices.Contains(p.Revealed, id) {
			pv.Secrets = append(pv.Secrets, id)
		} else {
			pv.Hidden++
		}
	}
	if i == reader || s.Res != nil {
		pv.Parts = s.scoreParts(i)
	} else {
		// Another player's projection would reveal nothing secret, but
		// keep it public-only: recipes brewed are public.
		pv.Parts = s.scoreParts(i)
	}
	for _, pt := range pv.Parts {
		pv.Score += pt.Points
	}
	return pv
}
