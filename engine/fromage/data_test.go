package fromage

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
)

func defaultRulesT(t *testing.T) *catalog.Rules {
	t.Helper()
	r, _, err := catalog.DataFile.Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The data file marks its PROVISIONAL tables (spec §8).
func TestDataProvisionalMarkers(t *testing.T) {
	r := defaultRulesT(t)
	if !r.Provisional || r.Version == "" {
		t.Fatalf("meta: provisional %v version %q", r.Provisional, r.Version)
	}
	var f catalog.RawFile
	if _, err := engine.DecodeRuleset(catalog.GameName, catalog.DefaultRuleset, &f); err != nil {
		t.Fatal(err)
	}
	if !f.Tiles.Provisional || !f.Corporation.Provisional || !f.ResourceTile.Provisional || !f.City.Provisional {
		t.Error("tiles (D-15), Corporation (D-16), resource tile order (D-9) and Customer values (D-8) are PROVISIONAL")
	}
	for _, g := range f.Group {
		if (g.Name != "4") != g.Provisional {
			t.Errorf("group %s provisional = %v (A-1)", g.Name, g.Provisional)
		}
	}
	for _, v := range f.Venue {
		for _, sd := range v.Side {
			if !sd.Provisional {
				t.Errorf("%s side %s: crosses (and side II) are PROVISIONAL", v.ID, sd.Name)
			}
		}
	}
}

// D-7: fruit / jam icon totals per venue and side.
func TestD7IconTotals(t *testing.T) {
	r := defaultRulesT(t)
	want := map[string][2][2]int{
		"city": {{3, 4}, {4, 3}}, "festival": {{4, 3}, {3, 4}}, "dairy": {{3, 4}, {3, 4}}, "bistro": {{4, 3}, {3, 4}},
	}
	for v := range r.Venues {
		for k, name := range catalog.SideNames {
			var got [2]int
			for _, sp := range r.Venues[v].Side(name).Spaces {
				if sp.Icon != catalog.IconNone {
					got[sp.Icon-1]++
				}
			}
			if got != want[catalog.VenueNames[v]][k] {
				t.Errorf("%s side %s: fruit/jam %v, want %v", catalog.VenueNames[v], name, got, want[catalog.VenueNames[v]][k])
			}
		}
	}
}

// the two corrections of the public side-I data.
func TestA13Corrections(t *testing.T) {
	r := defaultRulesT(t)
	fest := r.Venues[catalog.VenFestival].Side("I")
	if sp := fest.Spaces[fest.ByKey["F24"]]; sp.Aging != 1 {
		t.Errorf("F24 is %s, want bronze", catalog.AgingNames[sp.Aging])
	}
	city := r.Venues[catalog.VenCity].Side("I")
	sp := city.Spaces[city.ByKey["C10"]]
	if sp.Name != "Laguiole" || len(sp.Regions) != 2 || r.Regions[sp.Regions[1]] != "pink" {
		t.Errorf("Laguiole %+v, want Yellow and Pink", sp)
	}
}

// D-3: each region is touched 6 times; the group-3 insert removes exactly
// 1 touch per region, the group-1-2 insert exactly 2.
func TestD3RegionTouches(t *testing.T) {
	r := defaultRulesT(t)
	for _, name := range catalog.SideNames {
		sd := r.Venues[catalog.VenCity].Side(name)
		for _, g := range []struct {
			group string
			lost  int
		}{{"4", 0}, {"3", 1}, {"1-2", 2}} {
			touch := make([]int, len(r.Regions))
			for i := range sd.Spaces {
				if !sd.Spaces[i].Blocked(g.group) {
					for _, x := range sd.Spaces[i].Regions {
						touch[x]++
					}
				}
			}
			for x, n := range touch {
				if n != 6-g.lost {
					t.Errorf("side %s group %s: region %s touched %d times, want %d", name, g.group, r.Regions[x], n, 6-g.lost)
				}
			}
		}
	}
}

// D-6: crosses in the Bistro cover whole tables; A-1: 3 crosses per venue
// for group 3 (2 in the Bistro), 6 for group 1-2.
func TestD2Crosses(t *testing.T) {
	r := defaultRulesT(t)
	for v := range r.Venues {
		for _, sd := range r.Venues[v].Sides {
			for _, g := range []struct {
				group  string
				want   int
				bistro int
			}{{"3", 3, 2}, {"1-2", 6, 6}, {"4", 0, 0}} {
				n := 0
				perTable := map[int]int{}
				for _, sp := range sd.Spaces {
					if sp.Blocked(g.group) {
						n++
						perTable[sp.Table]++
					}
				}
				want := g.want
				if v == catalog.VenBistro {
					want = g.bistro
					for tb, k := range perTable {
						if k != 2 {
							t.Errorf("bistro side %s group %s: table %d half crossed", sd.Name, g.group, tb+1)
						}
					}
				}
				if n != want {
					t.Errorf("%s side %s group %s: %d crosses, want %d", catalog.VenueNames[v], sd.Name, g.group, n, want)
				}
			}
		}
	}
}

// D-10, D-11, D-12, D-16: boards, zones, deck and Corporation tracks.
func TestD10BoardsDeckAndTracks(t *testing.T) {
	r := defaultRulesT(t)
	// Each board uses each resource in exactly one ability; each column
	// uses each resource on exactly one board.
	for _, b := range r.Boards {
		seen := map[int]bool{}
		for c := 1; c <= 4; c++ {
			seen[b.Abilities[c].Res] = true
		}
		if len(seen) != 4 {
			t.Errorf("board %d repeats a resource", b.ID)
		}
	}
	for c := 1; c <= 4; c++ {
		seen := map[int]bool{}
		for _, b := range r.Boards {
			seen[b.Abilities[c].Res] = true
		}
		if len(seen) != 4 {
			t.Errorf("column %d repeats a resource", c)
		}
	}
	// Zones 1-3: each cheese type 4 times over the 4 boards; zone 4 any/any.
	var types [3]int
	for _, b := range r.Boards {
		for z, zn := range b.Zones {
			if z == 3 {
				if zn.Type != catalog.AnyValue || zn.Aging != catalog.AnyValue || zn.Cost != 5 {
					t.Errorf("board %d zone 4 %+v", b.ID, zn)
				}
				continue
			}
			types[zn.Type]++
			if zn.Cost != z+2 || zn.Aging != z+1 {
				t.Errorf("board %d zone %d %+v", b.ID, z+1, zn)
			}
		}
	}
	if types != [3]int{4, 4, 4} {
		t.Errorf("zone types %v", types)
	}
	var deck [3][4]int
	for _, c := range r.Cards {
		deck[c.Type][c.Aging]++
	}
	for ty := 0; ty < 3; ty++ {
		for a := 1; a <= 3; a++ {
			if deck[ty][a] != 4 {
				t.Errorf("%d %s-%s Orders", deck[ty][a], catalog.TypeNames[ty], catalog.AgingNames[a])
			}
		}
	}
	if len(r.Cards) != 36 || r.CardIDs[0] != "O01" || r.CardIDs[35] != "O36" || r.Cards[4].Aging != 2 {
		t.Errorf("deck ids %v", r.CardIDs)
	}
	want := map[int]int{1: 15, 2: 16, 3: 18, 4: 20}
	for _, lv := range r.CorpLevels {
		if len(lv.Track) != want[lv.Level] || lv.Track[12] != 36 || lv.BackOf != lv.Level {
			t.Errorf("level %d: %v", lv.Level, lv.Track)
		}
		if len(lv.Rules) != lv.Level-1 {
			t.Errorf("level %d has rules %v (cumulative, D-16)", lv.Level, lv.Rules)
		}
	}
	if len(r.Tiles) != 32 {
		t.Errorf("%d tiles", len(r.Tiles))
	}
	for i, a := range r.Tiles {
		if want := i/8 + 1; a.Column != want {
			t.Errorf("%s in column %d, want %d", a.ID, a.Column, want)
		}
	}
}

// An organiser's override file is validated thoroughly (bad_ruleset with
// a reason) and, when valid, used and pinned by its SHA-256.
func TestRulesetOverride(t *testing.T) {
	base := string(catalog.DefaultRuleset)
	for _, c := range []struct {
		name, old, new, reason string
	}{
		{"unknown key", `cheese_per_player = 15`, "cheese_per_player = 15\ncheez = 1", "unknown keys"},
		{"wrong game", `game = "fromage"`, `game = "toy"`, "not \"fromage\""},
		{"no version", `version = "2026.1"`, `version = ""`, "missing version"},
		{"17 spaces", `  { id = "C18", name = "Strasbourg",    type = "hard", aging = "bronze", icon = "jam",   regions = ["green"] },
]

[[venue.side]]
name = "II"`, `]

[[venue.side]]
name = "II"`, "want 18"},
		{"type count", `{ id = "C03", name = "Montpellier",   type = "blue", aging = "bronze"`, `{ id = "C03", name = "Montpellier",   type = "hard", aging = "bronze"`, "want 2 per type"},
		{"region count", `regions = ["purple", "pink", "yellow"] },
  { id = "C03"`, `regions = ["purple", "pink", "green"] },
  { id = "C03"`, "touched by"},
		{"regions by aging", `regions = ["pink"] },
  { id = "C04", name = "Nantes",        type = "hard"`, `regions = ["pink", "green"] },
  { id = "C04", name = "Nantes",        type = "hard"`, "touches 2 regions"},
		{"free sample", `free = ["F11", "F15", "F31", "F33", "F35", "F51", "F55"]`, `free = ["F11", "F15", "F31", "F33", "F35", "F51", "F53"]`, "Free Sample"},
		{"bad group", `x = ["3", "1-2"] },
  { id = "F13"`, `x = ["5"] },
  { id = "F13"`, "unknown group"},
		{"shelf sign", `{ shelf = 2, position = "left middle",  sign = "any" },
  { shelf = 3, position = "left top",     sign = "two" },
  { shelf = 4, position = "right bottom", sign = "points", points = 1 },`, `{ shelf = 2, position = "left middle",  sign = "gift" },
  { shelf = 3, position = "left top",     sign = "two" },
  { shelf = 4, position = "right bottom", sign = "points", points = 1 },`, "unknown sign"},
		{"bistro plates", `{ id = "B2",  table = 1, type = "soft", aging = "gold",   icon = "" },`, `{ id = "B2",  table = 2, type = "soft", aging = "gold",   icon = "" },`, "table"},
		{"effect", `effect = "silo" }`, `effect = "teleport" }`, "not a column-III effect"},
		{"draft hand", `draft_hand = 4 `, `draft_hand = 9 `, "draft_hand"},
		{"tile column", `{ id = "ST32", name = "Tasting Room",      column = 4`, `{ id = "ST32", name = "Tasting Room",      column = 5`, "column 5"},
		{"corp rule", `rules = ["R2", "R3", "R4"]`, `rules = ["R2", "R3", "R9"]`, "unknown rule"},
		{"customers", `  { id = "K6", win = { "1-2" = 5, "3" = 7, "4" = 9 }, tie = { "1-2" = 0, "3" = 2, "4" = 3 } },
`, ``, "tokens for 6 regions"},
		{"group", `players = [3]`, `players = [5]`, "out of range"},
		{"delay", `delay = { bronze = 1, silver = 2, gold = 3 }`, `delay = { bronze = 1, silver = 2, gold = 4 }`, "delays must be"},
		{"legend", `dairy = [0, 0, 2, 5, 9, 14, 20]`, `dairy = [0, 0, 2]`, "dairy 0..6"},
		{"no side II", `name = "II"
provisional = true   # tables mix types: PROVISIONAL`, `name = "III"
provisional = true   # tables mix types: PROVISIONAL`, "side must be"},
	} {
		data := strings.Replace(base, c.old, c.new, 1)
		if data == base {
			t.Errorf("%s: the test edit did not apply", c.name)
			continue
		}
		_, err := catalog.ParseRules([]byte(data))
		re, ok := engine.AsRuleError(err)
		if !ok || re.Code != "bad_ruleset" || !strings.Contains(re.Params["error"].(string), c.reason) {
			t.Errorf("%s: got %v, want bad_ruleset with %q", c.name, err, c.reason)
		}
		if c.name == "17 spaces" || c.name == "effect" {
			_, _, err = Game{}.NewState(engine.Config{Seats: []string{"a", "b"}, Seed: "x", Ruleset: []byte(data)})
			if re, ok := engine.AsRuleError(err); !ok || re.Code != "bad_ruleset" {
				t.Errorf("%s: NewState accepted a bad ruleset: %v", c.name, err)
			}
		}
	}
	// A valid override: 12 cheese tokens each.
	data := []byte(strings.Replace(base, "cheese_per_player = 15", "cheese_per_player = 12", 1))
	cfg := engine.Config{Seats: []string{"a", "b"}, Seed: "x", Ruleset: data}
	st, _, err := Game{}.NewState(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st.(*State).Players[0].Cheese != 12 || st.Head().RulesetSHA != engine.RulesetSHA(data) {
		t.Fatalf("override not used")
	}
	js, _ := json.Marshal(st)
	if _, err := (Game{}).DecodeState(js, data); err != nil {
		t.Fatal(err)
	}
	if _, err := (Game{}).DecodeState(js, nil); err == nil {
		t.Fatal("a state decoded with another ruleset")
	}
}
