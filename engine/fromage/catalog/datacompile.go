// The compiling half of the data file's loader: venues, their sides, spaces
// and shelves, abilities and the lookups of cards and tiles (ParseRules in
// data.go calls these).

package catalog

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// SideNames are the insert sides the options offer (FR-3.2).
var SideNames = []string{"I", "II"}

// LevelValues are the Corporation levels the options offer (D-16).
var LevelValues = []string{"1", "2", "3", "4"}

func validID(id string, letter byte) bool {
	if len(id) < 2 || id[0] != letter {
		return false
	}
	n, err := strconv.Atoi(id[1:])
	return err == nil && n > 0
}

func validTileID(id string) bool {
	if !strings.HasPrefix(id, "ST") {
		return false
	}
	n, err := strconv.Atoi(id[2:])
	return err == nil && n > 0
}

// SpaceKey normalises a space id for lookup: venue letter and number
// ("C7" and "C07" are the same space).
func SpaceKey(id string) string {
	if len(id) < 2 {
		return ""
	}
	n, err := strconv.Atoi(id[1:])
	if err != nil || n < 0 {
		return ""
	}
	return strings.ToUpper(id[:1]) + strconv.Itoa(n)
}

var venueLetters = []byte{'C', 'F', 'D', 'B'}

func compileSide(r *Rules, v int, rs rawSide, groupOK func(string) bool) (*Side, error) {
	where := fmt.Sprintf("venue %s side %s", VenueNames[v], rs.Name)
	if slices.Index(SideNames, rs.Name) < 0 {
		return nil, bad("%s: side must be one of %s", where, strings.Join(SideNames, ", "))
	}
	sd := &Side{Name: rs.Name, Provisional: rs.Provisional, ByKey: map[string]int{}}
	// D-1: 18 spaces, 6 per cheese type, 2 per aging within each type.
	if len(rs.Spaces) != 18 {
		return nil, bad("%s has %d spaces, want 18", where, len(rs.Spaces))
	}
	var count [3][4]int
	for i, raw := range rs.Spaces {
		sp := Space{ID: raw.ID, Name: raw.Name, Type: slices.Index(TypeNames, raw.Type), Aging: slices.Index(AgingNames, raw.Aging),
			Icon: slices.Index(IconNames, raw.Icon), X: raw.X, Shelf: -1, Table: -1}
		if !validID(raw.ID, venueLetters[v]) {
			return nil, bad("%s: space id %q must be %c<number>", where, raw.ID, venueLetters[v])
		}
		key := SpaceKey(raw.ID)
		if _, dup := sd.ByKey[key]; dup {
			return nil, bad("%s: space %s listed twice", where, raw.ID)
		}
		sd.ByKey[key] = i
		if sp.Type < 0 || sp.Aging < 1 || sp.Icon < 0 {
			return nil, bad("%s: space %s has a bad type, aging or icon", where, raw.ID)
		}
		count[sp.Type][sp.Aging]++
		for _, g := range raw.X {
			if !groupOK(g) {
				return nil, bad("%s: space %s is crossed for unknown group %q", where, raw.ID, g)
			}
		}
		if v != VenCity && (raw.Name != "" || len(raw.Regions) > 0) {
			return nil, bad("%s: space %s: name and regions are for City spaces only", where, raw.ID)
		}
		if v != VenDairy && raw.Shelf != 0 {
			return nil, bad("%s: space %s: shelf is for Dairy spaces only", where, raw.ID)
		}
		if v != VenBistro && raw.Table != 0 {
			return nil, bad("%s: space %s: table is for Bistro spaces only", where, raw.ID)
		}
		switch v {
		case VenCity:
			// FR-7.4 / D-3: a space touches 1, 2 or 3 regions by its aging.
			if raw.Name == "" {
				return nil, bad("%s: City space %s has no name", where, raw.ID)
			}
			if len(raw.Regions) != sp.Aging {
				return nil, bad("%s: City space %s is %s but touches %d regions (want %d)", where, raw.ID, raw.Aging, len(raw.Regions), sp.Aging)
			}
			for _, reg := range raw.Regions {
				x := slices.Index(r.Regions, reg)
				if x < 0 || slices.Contains(sp.Regions, x) {
					return nil, bad("%s: City space %s: region %q unknown or repeated", where, raw.ID, reg)
				}
				sp.Regions = append(sp.Regions, x)
			}
		case VenFestival:
			sp.Row, sp.Col = int(raw.ID[1]-'0'), int(raw.ID[2]-'0')
			if len(raw.ID) != 3 || sp.Row < 1 || sp.Row > 5 || sp.Col < 1 || sp.Col > 5 {
				return nil, bad("%s: Festival space %s is not a cell F<row><col> of the 5x5 grid", where, raw.ID)
			}
		case VenDairy:
			if raw.Shelf < 1 || raw.Shelf > 6 {
				return nil, bad("%s: Dairy space %s: shelf %d out of range 1..6", where, raw.ID, raw.Shelf)
			}
			sp.Shelf = raw.Shelf - 1
		case VenBistro:
			if raw.Table < 1 || raw.Table > 9 {
				return nil, bad("%s: Bistro space %s: table %d out of range 1..9", where, raw.ID, raw.Table)
			}
			sp.Table = raw.Table - 1
		}
		sd.Spaces = append(sd.Spaces, sp)
	}
	for t := range count {
		for a := 1; a <= 3; a++ {
			if count[t][a] != 2 {
				return nil, bad("%s has %d %s %s spaces, want 2 per type and aging (D-1)", where, count[t][a], TypeNames[t], AgingNames[a])
			}
		}
	}
	if v != VenFestival && len(rs.Free) > 0 {
		return nil, bad("%s: Free Samples are for the Festival only", where)
	}
	if v != VenDairy && len(rs.Shelves) > 0 {
		return nil, bad("%s: shelves are for the Dairy Shop only", where)
	}
	switch v {
	case VenCity:
		// D-3: every region is touched by exactly 6 spaces.
		touch := make([]int, len(r.Regions))
		for _, sp := range sd.Spaces {
			for _, x := range sp.Regions {
				touch[x]++
			}
		}
		for x, n := range touch {
			if n != 6 {
				return nil, bad("%s: region %s is touched by %d spaces, want 6", where, r.Regions[x], n)
			}
		}
	case VenFestival:
		// D-4: 7 Free Samples; cells distinct; the aging of a space equals
		// its number of orthogonally adjacent Free Samples + 1.
		if len(rs.Free) != 7 {
			return nil, bad("%s has %d Free Samples, want 7", where, len(rs.Free))
		}
		var grid [6][6]int // 0 none, 1 space, 2 free
		for _, sp := range sd.Spaces {
			grid[sp.Row][sp.Col] = 1
		}
		for _, id := range rs.Free {
			if len(id) != 3 || id[0] != 'F' {
				return nil, bad("%s: Free Sample %q is not a cell F<row><col>", where, id)
			}
			row, col := int(id[1]-'0'), int(id[2]-'0')
			if row < 1 || row > 5 || col < 1 || col > 5 || grid[row][col] != 0 {
				return nil, bad("%s: Free Sample %s is outside the grid or on another cell", where, id)
			}
			grid[row][col] = 2
			sd.Free = append(sd.Free, [2]int{row, col})
		}
		for _, sp := range sd.Spaces {
			n := 0
			for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				rr, cc := sp.Row+d[0], sp.Col+d[1]
				if rr >= 1 && rr <= 5 && cc >= 1 && cc <= 5 && grid[rr][cc] == 2 {
					n++
				}
			}
			if n+1 != sp.Aging {
				return nil, bad("%s: space %s is %s but touches %d Free Samples (Bronze 0, Silver 1, Gold 2)", where, sp.ID, AgingNames[sp.Aging], n)
			}
		}
	case VenDairy:
		// D-5: 6 shelves, each with one space per cheese type and one aging;
		// signs: one trade, one any, one two, and point shelves.
		if len(rs.Shelves) != 6 {
			return nil, bad("%s has %d shelves, want 6", where, len(rs.Shelves))
		}
		sd.Shelves = make([]Shelf, 6)
		got := make([]bool, 6)
		for _, sh := range rs.Shelves {
			if sh.Shelf < 1 || sh.Shelf > 6 || got[sh.Shelf-1] {
				return nil, bad("%s: shelf %d out of range or repeated", where, sh.Shelf)
			}
			switch sh.Sign {
			case SignTrade, SignAny, SignTwo:
				if sh.Points != 0 {
					return nil, bad("%s: resource shelf %d has points", where, sh.Shelf)
				}
			case SignPoints:
				if sh.Points < 1 {
					return nil, bad("%s: point shelf %d needs points >= 1", where, sh.Shelf)
				}
			default:
				return nil, bad("%s: shelf %d: unknown sign %q (trade, any, two, points)", where, sh.Shelf, sh.Sign)
			}
			got[sh.Shelf-1] = true
			sd.Shelves[sh.Shelf-1] = Shelf{Position: sh.Position, Sign: sh.Sign, Points: sh.Points}
		}
		var types [6][3]int
		aging := [6]int{}
		for _, sp := range sd.Spaces {
			types[sp.Shelf][sp.Type]++
			if aging[sp.Shelf] != 0 && aging[sp.Shelf] != sp.Aging {
				return nil, bad("%s: shelf %d mixes agings", where, sp.Shelf+1)
			}
			aging[sp.Shelf] = sp.Aging
		}
		for sh := range types {
			for t := range types[sh] {
				if types[sh][t] != 1 {
					return nil, bad("%s: shelf %d needs one space of each cheese type", where, sh+1)
				}
			}
		}
	case VenBistro:
		// D-6: 9 tables of 2 plates of different agings.
		var plates [9][]int
		for _, sp := range sd.Spaces {
			plates[sp.Table] = append(plates[sp.Table], sp.Aging)
		}
		for t, p := range plates {
			if len(p) != 2 || p[0] == p[1] {
				return nil, bad("%s: table %d needs 2 plates of different agings", where, t+1)
			}
		}
		sd.Tables = 9
	}
	return sd, nil
}

// lookUp sets *at to raw's index in names when raw is given, and reports
// false when names holds it at no index from first on (an ability's aging
// is 1..3: AgingNames[0] is no aging). An empty raw leaves *at as it was.
func lookUp(at *int, names []string, raw string, first int) bool {
	if raw == "" {
		return true
	}
	*at = slices.Index(names, raw)
	return *at >= first
}

func compileAbility(ra rawAbility, where string) (Ability, error) {
	a := Ability{ID: ra.ID, Name: ra.Name, Column: ra.Column, Cost: ra.Cost, Effect: ra.Effect,
		Res: -1, Venue: -1, Type: -1, Aging: -1, Points: ra.Points, N: ra.N}
	if a.Column < 1 || a.Column > 4 {
		return a, bad("%s: column %d out of range 1..4", where, a.Column)
	}
	if a.Name == "" {
		return a, bad("%s: ability without a name", where)
	}
	if a.Cost < 1 || a.Cost > 10 {
		return a, bad("%s: cost %d out of range 1..10", where, a.Cost)
	}
	if slices.Index(columnEffects[a.Column], a.Effect) < 0 {
		return a, bad("%s: effect %q is not a column-%s effect (%s)", where, a.Effect, ColNames[a.Column], strings.Join(columnEffects[a.Column], ", "))
	}
	if !lookUp(&a.Res, ResNames, ra.Res, 0) {
		return a, bad("%s: unknown resource %q", where, ra.Res)
	}
	if !lookUp(&a.Venue, VenueNames, ra.Venue, 0) {
		return a, bad("%s: unknown venue %q", where, ra.Venue)
	}
	if !lookUp(&a.Type, TypeNames, ra.Type, 0) {
		return a, bad("%s: unknown cheese type %q", where, ra.Type)
	}
	if !lookUp(&a.Aging, AgingNames, ra.Aging, 1) { // AgingNames[0] is no aging
		return a, bad("%s: unknown aging %q", where, ra.Aging)
	}
	need := map[string][]string{
		"gain": {"res"}, "dispatch": {"n"}, "press": {"aging"},
		"dock": {"venue", "res"}, "dock_aging": {"aging"}, "dock_type": {"type", "res"}, "dock_complete": {"res"}, "dock_milk": {"res"},
		"extra": {"res"}, "milkhouse": {"n"}, "cellar": {"n"}, "jam": {"res"},
		"hq": {"res"}, "aging_pp": {"aging", "points"}, "town_hall": {"points"}, "type_pp": {"type", "points"},
		"market_pp": {"points", "n"}, "pantry": {"points"}, "tasting": {"points", "n"},
	}
	for _, k := range need[a.Effect] {
		ok := true
		switch k {
		case "res":
			ok = a.Res >= 0
		case "venue":
			ok = a.Venue >= 0
		case "type":
			ok = a.Type >= 0
		case "aging":
			ok = a.Aging >= 1
		case "points":
			ok = a.Points > 0
		case "n":
			ok = a.N > 0 && a.N <= 5
		}
		if !ok {
			return a, bad("%s: effect %s needs %s", where, a.Effect, k)
		}
	}
	if a.Effect == "cellar" && a.N > 3 {
		return a, bad("%s: cellar delay %d out of range 1..3", where, a.N)
	}
	return a, nil
}

// CardIndex returns the index of an order card id, or -1.
func (r *Rules) CardIndex(id string) int {
	key := SpaceKey(id)
	for i, c := range r.CardIDs {
		if SpaceKey(c) == key {
			return i
		}
	}
	return -1
}

// TileIndex returns the index of a tile id, or -1.
func (r *Rules) TileIndex(id string) int {
	id = strings.ToUpper(id)
	for i, t := range r.TileIDs {
		if t == id {
			return i
		}
		if n1, e1 := strconv.Atoi(strings.TrimPrefix(id, "ST")); e1 == nil {
			if n2, _ := strconv.Atoi(t[2:]); n1 == n2 && strings.HasPrefix(id, "ST") {
				return i
			}
		}
	}
	return -1
}

// SortedCopy returns a sorted copy of xs.
func SortedCopy(xs []int) []int {
	c := append([]int(nil), xs...)
	sort.Ints(c)
	return c
}
