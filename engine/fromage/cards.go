package fromage

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
)

// Cards implements engine.Carder (issue 22): every code a Fromage mail
// shows as structured facts (the cheese spaces of every venue insert, the
// Order cards, the structure tiles and printed abilities, the venues, the
// resources, the cheese types and agings); the referee answers HELP <code or
// name> with them, in the words of templates/fromage/<lang>/cards.tmpl.
func (s *State) Cards() []engine.Card {
	r := s.r
	var out []engine.Card
	f := func(key string, n int, goods, word string) engine.Fact {
		return engine.Fact{Key: key, N: n, Goods: goods, Word: word}
	}
	add := func(kind, id, name, rule string, facts ...engine.Fact) {
		out = append(out, engine.Card{Kind: kind, ID: id, Code: id, Name: name, Rule: rule, Facts: facts})
	}
	for v, name := range catalog.VenueNames {
		add("venue", name, "", venueRule[v], f("venue_"+name, 0, "", ""))
	}
	for _, name := range catalog.ResNames {
		add("resource", name, "", "FR-2.8", f("res_"+name, 0, "", ""))
	}
	for _, name := range catalog.TypeNames {
		add("type", name, "", "FR-2.3", f("cheese_type", 0, "", name))
	}
	for a, name := range catalog.AgingNames {
		if a > 0 {
			add("aging", name, "", "FR-2.4", f("aging", r.Delay[a], "", name))
		}
	}
	seen := map[string]bool{}
	for v, ven := range r.Venues {
		for _, side := range ven.Sides {
			for _, sp := range side.Spaces {
				if seen[sp.ID] {
					continue
				}
				seen[sp.ID] = true
				c := engine.Card{Kind: "space", ID: sp.ID, Code: sp.ID, Name: sp.Name, Rule: "FR-5.3.2",
					Facts: []engine.Fact{f("in_venue", 0, "", catalog.VenueNames[v]), f("cheese", r.Delay[sp.Aging], catalog.AgingNames[sp.Aging], catalog.TypeNames[sp.Type])}}
				if sp.Icon > 0 {
					c.Facts = append(c.Facts, f("icon", 0, "", catalog.IconNames[sp.Icon]))
				}
				if len(sp.Regions) > 0 {
					c.Facts = append(c.Facts, f("regions", len(sp.Regions), "", ""))
				}
				out = append(out, c)
			}
		}
	}
	for _, cd := range r.Cards {
		add("order", cd.ID, "", "FR-7.8", f("order", 0, catalog.AgingNames[cd.Aging], catalog.TypeNames[cd.Type]))
	}
	name := func(names []string, i int) string {
		if i >= 0 && i < len(names) {
			return names[i]
		}
		return ""
	}
	for _, t := range r.Tiles {
		add("tile", t.ID, t.Name, "FR-5.11.1", f("column", t.Column, "", ""), f("tile_cost", t.Cost, "", ""),
			f("effect", 0, "", t.Effect))
		out[len(out)-1].Params = map[string]any{"Effect": t.Effect, "Res": name(catalog.ResNames, t.Res), "Venue": name(catalog.VenueNames, t.Venue),
			"Type": name(catalog.TypeNames, t.Type), "Aging": name(catalog.AgingNames, t.Aging), "N": t.N, "Points": t.Points}
	}
	return out
}

// venueRule is the scoring rule of each venue (FR-7.3-7.6).
var venueRule = [4]string{"FR-7.4", "FR-7.3", "FR-7.5", "FR-7.6"}
