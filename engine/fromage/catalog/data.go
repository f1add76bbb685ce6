package catalog

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"github.com/pbem-referee/referee/engine"
)

//go:embed fromage.toml
var DefaultRuleset []byte

// The words of the data file. The order of each list is the engine's index
// order for that concept (cheese types 0..2, agings 1..3, resources 0..3,
// venues 0..3).
var (
	TypeNames  = []string{"soft", "hard", "blue"}
	AgingNames = []string{"", "bronze", "silver", "gold"}
	IconNames  = []string{"", "fruit", "jam"}
	ResNames   = []string{"structure", "cattle", "fruit", "order"}
	VenueNames = []string{"city", "festival", "dairy", "bistro"}
	ColNames   = []string{"", "I", "II", "III", "IV"}
)

// Resource indexes (FR-2.8).
const (
	ResStructure = 0
	ResCattle    = 1
	ResFruit     = 2
	ResOrder     = 3
)

// Venue indexes (D-1).
const (
	VenCity     = 0
	VenFestival = 1
	VenDairy    = 2
	VenBistro   = 3
)

// Icon indexes (FR-2.5).
const (
	IconNone  = 0
	IconFruit = 1
	IconJam   = 2
)

// AnyValue marks the "any type / any aging" Bonus cheese of a milking zone.
const AnyValue = -2

// Dairy shelf signs (D-5).
const (
	SignTrade  = "trade"
	SignAny    = "any"
	SignTwo    = "two"
	SignPoints = "points"
)

// Ability effects by column (D-10, D-15).
var columnEffects = map[int][]string{
	1: {"gain", "trade", "market", "dispatch", "press"},
	2: {"dock", "dock_aging", "dock_type", "dock_complete", "dock_milk"},
	3: {"extra", "silo", "milkhouse", "cellar", "jam"},
	4: {"hq", "aging_pp", "town_hall", "type_pp", "market_pp", "pantry", "tasting"},
}

// Corporation rules the engine knows (D-16).
var CorpRuleNames = []string{"R2", "R3", "R4"}

// ---- compiled rules ----

// Rules is a validated ruleset: every table of the data file, indexed for
// the engine. It is immutable once built and shared by every state started
// with the same file.
type Rules struct {
	Version     string
	Provisional bool

	Cheese       int    // cheese tokens per player
	Delay        [4]int // delay by aging (index 1..3)
	WorkDelay    int    // column-I worker delay
	StartLeft    int
	StartOpp     int
	CorpOrderPts int
	DraftHand    int

	Groups   []Group
	ResOrder [4]int // resource at each clockwise tile position

	FestivalPP     []int
	FestivalBeyond int
	DairyPP        []int
	BistroPP       [][3]int
	OrdersPP       []int
	OrdersBeyond   int

	Regions   []string
	Customers []Customer

	Venues [4]Venue
	Boards []Board
	Cards  []Card
	Tiles  []Ability

	CorpLevels   []CorpLevel
	DoubleVenues [4]bool

	CardIDs []string // card ids by index
	TileIDs []string
}

// Group is an insert group (FR-3.1).
type Group struct {
	Name    string
	Players []int
}

// Customer is a Customer token with its values per group (D-8).
type Customer struct {
	ID  string
	Win map[string]int
	Tie map[string]int
}

// Venue holds the sides of one venue's inserts.
type Venue struct {
	Sides []*Side
}

// Side returns the named side or nil.
func (v Venue) Side(name string) *Side {
	for _, s := range v.Sides {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Side is one printed side of a venue insert.
type Side struct {
	Name        string
	Provisional bool
	Spaces      []Space
	Free        [][2]int // festival Free Sample cells (row, col), 1-based
	Shelves     []Shelf  // dairy shelves by index (shelf number - 1)
	Tables      int      // bistro tables
	ByKey       map[string]int
}

// Space is one cheese space of a side.
type Space struct {
	ID      string
	Name    string
	Type    int
	Aging   int
	Icon    int
	Regions []int
	Shelf   int // dairy: shelf index (0-based)
	Table   int // bistro: table index (0-based)
	Row     int // festival grid row (1-5)
	Col     int // festival grid column (1-5)
	X       []string
}

// Blocked reports whether the space carries a cross for the group.
func (sp *Space) Blocked(group string) bool {
	for _, g := range sp.X {
		if g == group {
			return true
		}
	}
	return false
}

// Shelf is a Dairy Shop shelf sign.
type Shelf struct {
	Position string
	Sign     string
	Points   int
}

// Board is a player board (D-10, D-11).
type Board struct {
	ID        int
	Abilities [5]Ability // by column 1..4
	Zones     []Zone
}

// Ability is a structure ability: printed on a board or on an advanced tile.
type Ability struct {
	ID     string // "" for printed abilities
	Name   string
	Column int
	Cost   int
	Effect string
	Res    int // -1 when unused
	Venue  int
	Type   int
	Aging  int
	Points int
	N      int
}

// Zone is a milking zone.
type Zone struct {
	Cost  int
	Type  int // anyValue for any type
	Aging int // anyValue for any aging
}

// Card is an Order card.
type Card struct {
	ID    string
	Type  int
	Aging int
}

// CorpLevel is a Corporation board (D-16).
type CorpLevel struct {
	Level  int
	BackOf int // board id
	Rules  map[string]bool
	Track  []int
}

// DataFile loads the data file: the embedded default, parsed once, or an
// organiser's, once per SHA-256 (engine.Ruleset).
var DataFile = &engine.Ruleset[*Rules]{Default: DefaultRuleset, Parse: ParseRules}

// RulesetVersion implements engine.Versioned.
func (r *Rules) RulesetVersion() string { return r.Version }

var bad = engine.BadRuleset

// ParseRules decodes and validates a ruleset file.
func ParseRules(data []byte) (*Rules, error) {
	var f RawFile
	meta, err := engine.DecodeRuleset(GameName, data, &f)
	if err != nil {
		return nil, err
	}
	r := &Rules{Version: meta.Version, Provisional: meta.Provisional}
	c := f.Constants
	r.Cheese, r.WorkDelay, r.StartLeft, r.StartOpp = c.CheesePerPlayer, c.WorkstationDelay, c.StartLeft, c.StartOpposite
	r.CorpOrderPts, r.DraftHand = c.CorpOrderPoints, c.DraftHand
	if r.Cheese < 1 || r.Cheese > 60 {
		return nil, bad("constants.cheese_per_player %d out of range 1..60", r.Cheese)
	}
	if r.WorkDelay < 1 || r.WorkDelay > 3 {
		return nil, bad("constants.workstation_delay %d out of range 1..3", r.WorkDelay)
	}
	if r.StartLeft < 0 || r.StartOpp < 0 || r.CorpOrderPts < 0 {
		return nil, bad("constants: negative starting resources or Corporation points")
	}
	if r.DraftHand < 1 || r.DraftHand > 8 {
		return nil, bad("constants.draft_hand %d out of range 1..8", r.DraftHand)
	}
	if len(c.Delay) != 3 {
		return nil, bad("constants.delay needs exactly bronze, silver and gold")
	}
	for k, v := range c.Delay {
		a := slices.Index(AgingNames, k)
		if a < 1 {
			return nil, bad("constants.delay: unknown aging %q", k)
		}
		if v < 1 || v > 3 {
			// FR-5.10.2: the pointed quadrant is found after d rotations, 1 <= d <= 3.
			return nil, bad("constants.delay.%s = %d: delays must be 1, 2 or 3", k, v)
		}
		r.Delay[a] = v
	}

	// Groups (FR-3.1).
	seenPlayers := map[int]string{}
	for _, g := range f.Group {
		if g.Name == "" || len(g.Players) == 0 {
			return nil, bad("group without name or players")
		}
		for _, n := range g.Players {
			if n < 1 || n > 4 {
				return nil, bad("group %q: player count %d out of range 1..4", g.Name, n)
			}
			if o, dup := seenPlayers[n]; dup {
				return nil, bad("player count %d is in groups %q and %q", n, o, g.Name)
			}
			seenPlayers[n] = g.Name
		}
		r.Groups = append(r.Groups, Group{Name: g.Name, Players: g.Players})
	}
	for n := 1; n <= 4; n++ {
		if _, ok := seenPlayers[n]; !ok {
			return nil, bad("no insert group for %d players", n)
		}
	}
	groupOK := func(name string) bool {
		for _, g := range r.Groups {
			if g.Name == name {
				return true
			}
		}
		return false
	}

	// Resource tile (D-9).
	if len(f.ResourceTile.Order) != 4 {
		return nil, bad("resource_tile.order needs the 4 resources")
	}
	seen := map[int]bool{}
	for i, name := range f.ResourceTile.Order {
		x := slices.Index(ResNames, name)
		if x < 0 || seen[x] {
			return nil, bad("resource_tile.order: %q unknown or repeated", name)
		}
		seen[x] = true
		r.ResOrder[i] = x
	}

	// Legends (D-13).
	sc := f.Scoring
	r.FestivalPP, r.FestivalBeyond, r.DairyPP, r.OrdersPP, r.OrdersBeyond = sc.Festival, sc.FestivalBeyond, sc.Dairy, sc.Orders, sc.OrdersBeyond
	if len(r.FestivalPP) < 2 || len(r.DairyPP) < 7 || len(r.OrdersPP) < 1 || len(sc.Bistro) < 1 {
		return nil, bad("scoring: festival needs sizes 0..1 at least, dairy 0..6 shelves, orders and bistro at least one row")
	}
	for _, row := range sc.Bistro {
		if len(row) != 3 {
			return nil, bad("scoring.bistro rows need 3 values (bronze, silver, gold plate)")
		}
		r.BistroPP = append(r.BistroPP, [3]int{row[0], row[1], row[2]})
	}
	for _, l := range [][]int{r.FestivalPP, r.DairyPP, r.OrdersPP} {
		for _, v := range l {
			if v < 0 {
				return nil, bad("scoring: negative legend value")
			}
		}
	}

	// City regions and Customer tokens (D-3, D-8).
	r.Regions = f.City.Regions
	if len(r.Regions) < 1 {
		return nil, bad("city.regions is empty")
	}
	for i, reg := range r.Regions {
		if reg == "" || slices.Index(r.Regions[:i], reg) >= 0 {
			return nil, bad("city.regions: %q empty or repeated", reg)
		}
	}
	if len(f.City.Customers) != len(r.Regions) {
		return nil, bad("city.customers: %d tokens for %d regions (one per region, FR-3.6)", len(f.City.Customers), len(r.Regions))
	}
	for _, cu := range f.City.Customers {
		for _, g := range r.Groups {
			if _, ok := cu.Win[g.Name]; !ok {
				return nil, bad("customer %s has no win value for group %q", cu.ID, g.Name)
			}
			if _, ok := cu.Tie[g.Name]; !ok {
				return nil, bad("customer %s has no tie value for group %q", cu.ID, g.Name)
			}
		}
		for _, m := range []map[string]int{cu.Win, cu.Tie} {
			for k, v := range m {
				if !groupOK(k) || v < 0 {
					return nil, bad("customer %s: bad group %q or negative value", cu.ID, k)
				}
			}
		}
		r.Customers = append(r.Customers, Customer(cu))
	}

	// Venues (D-1..D-7).
	if len(f.Venue) != 4 {
		return nil, bad("need exactly 4 venues (city, festival, dairy, bistro), found %d", len(f.Venue))
	}
	for _, rv := range f.Venue {
		v := slices.Index(VenueNames, rv.ID)
		if v < 0 {
			return nil, bad("unknown venue %q", rv.ID)
		}
		if len(r.Venues[v].Sides) > 0 {
			return nil, bad("venue %q listed twice", rv.ID)
		}
		if len(rv.Side) == 0 {
			return nil, bad("venue %q has no side", rv.ID)
		}
		for _, rs := range rv.Side {
			sd, err := compileSide(r, v, rs, groupOK)
			if err != nil {
				return nil, err
			}
			if r.Venues[v].Side(sd.Name) != nil {
				return nil, bad("venue %s: side %q listed twice", rv.ID, sd.Name)
			}
			r.Venues[v].Sides = append(r.Venues[v].Sides, sd)
		}
		for _, need := range SideNames {
			if r.Venues[v].Side(need) == nil {
				return nil, bad("venue %s has no side %s", rv.ID, need)
			}
		}
	}

	// Player boards (D-10, D-11).
	if len(f.Board) < 4 {
		return nil, bad("need at least 4 player boards, found %d", len(f.Board))
	}
	for i, rb := range f.Board {
		b := Board{ID: rb.ID}
		if rb.ID != i+1 {
			return nil, bad("boards must be numbered 1, 2, ... in order (found %d at position %d)", rb.ID, i+1)
		}
		if len(rb.Abilities) != 4 {
			return nil, bad("board %d needs 4 abilities (columns I-IV)", rb.ID)
		}
		for _, ra := range rb.Abilities {
			a, err := compileAbility(ra, fmt.Sprintf("board %d", rb.ID))
			if err != nil {
				return nil, err
			}
			if b.Abilities[a.Column].Column != 0 {
				return nil, bad("board %d: column %d listed twice", rb.ID, a.Column)
			}
			b.Abilities[a.Column] = a
		}
		if len(rb.Zones) < 1 || len(rb.Zones) > 9 {
			return nil, bad("board %d needs 1..9 milking zones", rb.ID)
		}
		for zi, rz := range rb.Zones {
			z := Zone{Cost: rz.Cost, Type: slices.Index(TypeNames, rz.Type), Aging: slices.Index(AgingNames, rz.Aging)}
			if rz.Type == "any" {
				z.Type = AnyValue
			}
			if rz.Aging == "any" {
				z.Aging = AnyValue
			}
			if z.Cost < 1 || z.Type == -1 || z.Aging == -1 || z.Aging == 0 {
				return nil, bad("board %d zone %d: bad cost, type or aging", rb.ID, zi+1)
			}
			b.Zones = append(b.Zones, z)
		}
		r.Boards = append(r.Boards, b)
	}

	// Order deck (D-12).
	ids := map[string]bool{}
	for _, rc := range f.Orders.Cards {
		cd := Card{ID: rc.ID, Type: slices.Index(TypeNames, rc.Type), Aging: slices.Index(AgingNames, rc.Aging)}
		if !validID(rc.ID, 'O') || ids[rc.ID] {
			return nil, bad("order card id %q invalid (O<number>) or repeated", rc.ID)
		}
		if cd.Type < 0 || cd.Aging < 1 {
			return nil, bad("order card %s: bad type or aging", rc.ID)
		}
		ids[rc.ID] = true
		r.Cards = append(r.Cards, cd)
		r.CardIDs = append(r.CardIDs, rc.ID)
	}
	if len(r.Cards) < 1 || len(r.Cards) > 200 {
		return nil, bad("order deck needs 1..200 cards, found %d", len(r.Cards))
	}

	// Advanced tiles (D-15).
	for _, ra := range f.Tiles.List {
		if !validTileID(ra.ID) || slices.Index(r.TileIDs, ra.ID) >= 0 {
			return nil, bad("tile id %q invalid (ST<number>) or repeated", ra.ID)
		}
		a, err := compileAbility(ra, "tile "+ra.ID)
		if err != nil {
			return nil, err
		}
		r.Tiles = append(r.Tiles, a)
		r.TileIDs = append(r.TileIDs, ra.ID)
	}
	if len(r.Tiles) < 4*r.DraftHand {
		return nil, bad("the advanced draft needs %d tiles (4 players x %d), found %d", 4*r.DraftHand, r.DraftHand, len(r.Tiles))
	}

	// Corporation (D-16).
	for i, rl := range f.Corporation.Levels {
		if rl.Level != i+1 {
			return nil, bad("corporation levels must be numbered 1, 2, ... in order")
		}
		if rl.BackOf < 1 || rl.BackOf > len(r.Boards) {
			return nil, bad("corporation level %d: back_of %d is not a board", rl.Level, rl.BackOf)
		}
		if len(rl.Track) < 1 {
			return nil, bad("corporation level %d has an empty track", rl.Level)
		}
		cl := CorpLevel{Level: rl.Level, BackOf: rl.BackOf, Track: rl.Track, Rules: map[string]bool{}}
		for _, rr := range rl.Rules {
			if slices.Index(CorpRuleNames, rr) < 0 {
				return nil, bad("corporation level %d: unknown rule %q (known: %s)", rl.Level, rr, strings.Join(CorpRuleNames, ", "))
			}
			cl.Rules[rr] = true
		}
		r.CorpLevels = append(r.CorpLevels, cl)
	}
	if len(r.CorpLevels) != len(LevelValues) {
		return nil, bad("need %d corporation levels, found %d", len(LevelValues), len(r.CorpLevels))
	}
	for _, dv := range f.Corporation.DoubleVenues {
		v := slices.Index(VenueNames, dv)
		if v < 0 {
			return nil, bad("corporation.double_venues: unknown venue %q", dv)
		}
		r.DoubleVenues[v] = true
	}

	// Termination: every group must leave room for every token in play
	// (FR-7.1 needs some player to place the last token).
	for _, g := range r.Groups {
		open := 0
		for v := range r.Venues {
			for _, sd := range r.Venues[v].Sides {
				n := 0
				for i := range sd.Spaces {
					if !sd.Spaces[i].Blocked(g.Name) {
						n++
					}
				}
				if n == 0 {
					return nil, bad("venue %s side %s has no open space for group %s", VenueNames[v], sd.Name, g.Name)
				}
			}
		}
		for v := range r.Venues {
			min := 1 << 30
			for _, sd := range r.Venues[v].Sides {
				n := 0
				for i := range sd.Spaces {
					if !sd.Spaces[i].Blocked(g.Name) {
						n++
					}
				}
				if n < min {
					min = n
				}
			}
			open += min
		}
		for _, np := range g.Players {
			need := np * r.Cheese
			if np == 1 {
				need = r.Cheese + len(r.CorpLevels[len(r.CorpLevels)-1].Track)
			}
			if open <= need-1 {
				return nil, bad("group %s: %d open spaces cannot hold the %d tokens of a %d-player game", g.Name, open, need, np)
			}
		}
	}
	return r, nil
}

// GameName is the registry name of the game.
const GameName = "fromage"
