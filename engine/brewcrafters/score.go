package brewcrafters

import (
	"slices"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
)

// Score part names (BC-7.2), in scoring order.
const (
	spBeer     = "beer"
	spResearch = "research"
	spTasting  = "tasting"
	spTokens   = "tokens"
	spLabels   = "labels"
	spCollab   = "collab"
	spWorkers  = "workers"
	spLoans    = "loans"
)

// scoreParts scores one player (BC-7.2).
func (s *State) scoreParts(seat int) []engine.ScorePart {
	p := &s.P[seat]
	e := &s.r.Economy
	batches := append(append([]string(nil), p.Shipping...), p.Tanks[0], p.Tanks[1], p.Bottles[0], p.Bottles[1], p.Pub)
	beer := 0
	counts := map[string]int{}
	for _, id := range batches {
		if id != "" {
			beer += s.r.Recipes[id].Rep
			counts[id]++
		}
	}
	// Every batch brewed still held counts (BC-7.2.1); per-recipe counts
	// feed the research Game End (§8.10).
	nBasic, nAdvIn, nAdvAll := 0, 0, 0
	for _, id := range p.Brewed {
		rc := s.r.Recipes[id]
		if rc.Basic() {
			nBasic++
		} else {
			nAdvAll++
			if slices.Contains(s.Recipes, id) {
				nAdvIn++
			}
		}
	}
	res := 0
	for t := 0; t < catalog.NTracks; t++ {
		if p.Research[t] != stGameEnd {
			continue
		}
		e := s.lab(t).GameEnd
		n := 0
		switch e.Per {
		case "basic_recipe":
			n = nBasic
		case "original_space":
			for _, b := range p.Built {
				if s.r.Buildings[b].Space != "" {
					n++
				}
			}
		case "batches":
			n = p.Batches
		case "adv_recipe_in_play":
			n = nAdvIn
		case "basic_batches":
			for id, c := range counts {
				if s.r.Recipes[id].Basic() {
					n += c
				}
			}
		case "costly_building":
			for _, b := range p.Built {
				if s.r.Buildings[b].OpCost >= 1 {
					n++
				}
			}
		case "recipe_thrice":
			for _, c := range counts {
				if c >= 3 {
					n++
				}
			}
		case "gold_label":
			n = len(p.Labels)
		}
		if e.Div > 1 {
			n /= e.Div
		}
		res += n * e.Rep
	}
	tasting := 0
	if p.has("TOUR_TASTING") {
		tasting = nAdvAll
	}
	collab := 0
	if s.Collab != nil {
		collab = len(p.Collab) * e.UnfinishedPortion
	}
	workers := 0
	for _, w := range s.ws(p) {
		workers += w.EndRepPerRecipe * len(p.Brewed)
	}
	loans := 0
	if p.Loans > 0 {
		loans = -(e.LoanFirst + e.LoanNext*(p.Loans-1))
	}
	return []engine.ScorePart{
		{Name: spBeer, Points: beer},
		{Name: spResearch, Points: res},
		{Name: spTasting, Points: tasting},
		{Name: spTokens, Points: p.Rep},
		{Name: spLabels, Points: e.GoldLabel * len(p.Labels)},
		{Name: spCollab, Points: collab},
		{Name: spWorkers, Points: workers},
		{Name: spLoans, Points: loans},
	}
}

// projected is the player's score if the game ended now.
func (s *State) projected(seat int) int {
	t := 0
	for _, pt := range s.scoreParts(seat) {
		t += pt.Points
	}
	return t
}

// Result implements engine.State.
func (s *State) Result() *engine.Result { return s.Res }
