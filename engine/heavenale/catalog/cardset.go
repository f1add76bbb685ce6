package catalog

import (
	"fmt"

	"github.com/pbem-referee/referee/engine"
)

func (r *Rules) Cards() []engine.Card {
	var out []engine.Card
	add := func(kind, id, rule string, facts ...engine.Fact) {
		out = append(out, engine.Card{Kind: kind, ID: id, Code: id, Rule: rule, Facts: facts})
	}
	f := func(key string, n int, word string) engine.Fact { return engine.Fact{Key: key, N: n, Word: word} }
	for _, c := range ColourNames {
		add("resource", c, "HA-5.8.1", f("marker", 0, c))
	}
	for _, c := range ColourNames {
		for fert := 1; fert <= 5; fert++ {
			add("tile", TileCode(indexOf(ColourNames, c), fert), "HA-5.7.1",
				f("tile_price", fert, ""), f("tile_sun", fert, c), f("tile_shade", fert, ""))
		}
	}
	for t := 1; t <= 4; t++ {
		add("monk", MonkCode(t), "HA-5.6.3", f("monk_price", 0, ""), f("monk_trigger", t, ""), f("monk_activated", 1, ""))
	}
	add("privilege", "CASH", "HA-5.9.3", f("card_cash", r.C.CardCash, ""))
	add("privilege", "BREW", "HA-5.9.3", f("card_brew", r.C.CardBrew, ""))
	add("privilege", "COLOR", "HA-5.9.3", f("card_color", 0, ""))
	add("privilege", "LOW", "HA-5.9.3", f("card_low", 0, ""))
	add("privilege", "BARREL", "HA-5.9.3", f("card_barrel", r.C.CardBarrelVP, ""))
	add("start", "FIRST", "HA-5.12.1", f("home_first", r.C.FirstVP, ""))
	add("start", "BREW", "HA-5.12.1", f("home_brew", r.C.HomeBrew, ""))
	add("start", "RES", "HA-5.12.1", f("home_res", r.C.HomeRes, ""))
	add("start", "CASH", "HA-5.12.1", f("home_cash", r.C.HomeCash, ""))
	add("discspace", "A", "HA-5.6.1", f("disc_a", 0, ""))
	add("discspace", "B", "HA-5.6.1", f("disc_b", 0, ""))
	add("discspace", "C", "HA-5.6.1", f("disc_c", 0, ""))
	add("discspace", "ABC", "HA-5.6.1", f("disc_abc", 0, ""))
	add("spot", "X", "HA-5.6.1", f("spot_x", 0, ""))
	for _, c := range ColourNames {
		add("spot", c, "HA-5.6.1", f("spot_colour", 0, c))
	}
	for t := 1; t <= 4; t++ {
		add("spot", MonkCode(t), "HA-5.6.1", f("spot_monk", t, ""))
	}
	for _, g := range r.Goals {
		add("goal", g.ID, "HA-5.11.2", g.Fact(),
			f("barrels", r.C.LargeVP, fmt.Sprint(r.C.SmallVP)))
	}
	for i := 1; i <= 15; i++ {
		add("garden", fmt.Sprintf("S%d", i), "HA-5.4.2", f("sunny", 0, ""))
		add("garden", fmt.Sprintf("D%d", i), "HA-5.4.2", f("shady", 0, ""))
	}
	for i := range r.SiteName {
		add("garden", fmt.Sprintf("SH%d", i+1), "HA-5.5.1", f("shed_site", 0, ""))
	}
	for _, row := range r.Sheds {
		add("shed", fmt.Sprintf("T%d", row.Type), "HA-5.5.3", f("shed", row.Brewmaster, fmt.Sprintf("%d-%d", row.From, row.To)))
	}
	return out
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}
