package fromage

import (
	_ "embed"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
)

//go:embed fromage.toml
var defaultRuleset []byte

// The words of the data file. The order of each list is the engine's index
// order for that concept (cheese types 0..2, agings 1..3, resources 0..3,
// venues 0..3).
var (
	typeNames  = []string{"soft", "hard", "blue"}
	agingNames = []string{"", "bronze", "silver", "gold"}
	iconNames  = []string{"", "fruit", "jam"}
	resNames   = []string{"structure", "cattle", "fruit", "order"}
	venueNames = []string{"city", "festival", "dairy", "bistro"}
	colNames   = []string{"", "I", "II", "III", "IV"}
)

// Resource indexes (FR-2.8).
const (
	resStructure = 0
	resCattle    = 1
	resFruit     = 2
	resOrder     = 3
)

// Venue indexes (D-1).
const (
	venCity     = 0
	venFestival = 1
	venDairy    = 2
	venBistro   = 3
)

// Icon indexes (FR-2.5).
const (
	iconNone  = 0
	iconFruit = 1
	iconJam   = 2
)

// anyValue marks the "any type / any aging" Bonus cheese of a milking zone.
const anyValue = -2

// Dairy shelf signs (D-5).
const (
	signTrade  = "trade"
	signAny    = "any"
	signTwo    = "two"
	signPoints = "points"
)

// Ability effects by column (D-10, D-15).
var columnEffects = map[int][]string{
	1: {"gain", "trade", "market", "dispatch", "press"},
	2: {"dock", "dock_aging", "dock_type", "dock_complete", "dock_milk"},
	3: {"extra", "silo", "milkhouse", "cellar", "jam"},
	4: {"hq", "aging_pp", "town_hall", "type_pp", "market_pp", "pantry", "tasting"},
}

// Corporation rules the engine knows (D-16).
var corpRuleNames = []string{"R2", "R3", "R4"}

// ---- raw file layout (decoded strictly) ----

type rawFile struct {
	Game         string        `toml:"game"`
	Version      string        `toml:"version"`
	Provisional  bool          `toml:"provisional"`
	Constants    rawConstants  `toml:"constants"`
	Group        []rawGroup    `toml:"group"`
	ResourceTile rawResTile    `toml:"resource_tile"`
	Scoring      rawScoring    `toml:"scoring"`
	City         rawCity       `toml:"city"`
	Venue        []rawVenue    `toml:"venue"`
	Board        []rawBoard    `toml:"board"`
	Orders       rawOrders     `toml:"orders"`
	Tiles        rawTiles      `toml:"tiles"`
	Corporation  rawCorpration `toml:"corporation"`
}

type rawConstants struct {
	CheesePerPlayer  int            `toml:"cheese_per_player"`
	Delay            map[string]int `toml:"delay"`
	WorkstationDelay int            `toml:"workstation_delay"`
	StartLeft        int            `toml:"start_left"`
	StartOpposite    int            `toml:"start_opposite"`
	CorpOrderPoints  int            `toml:"corp_order_points"`
	DraftHand        int            `toml:"draft_hand"`
}

type rawGroup struct {
	Name        string `toml:"name"`
	Players     []int  `toml:"players"`
	Provisional bool   `toml:"provisional"`
}

type rawResTile struct {
	Provisional bool     `toml:"provisional"`
	Order       []string `toml:"order"`
}

type rawScoring struct {
	Festival       []int   `toml:"festival"`
	FestivalBeyond int     `toml:"festival_beyond"`
	Dairy          []int   `toml:"dairy"`
	Bistro         [][]int `toml:"bistro"`
	Orders         []int   `toml:"orders"`
	OrdersBeyond   int     `toml:"orders_beyond"`
}

type rawCity struct {
	Regions     []string      `toml:"regions"`
	Provisional bool          `toml:"provisional"`
	Customers   []rawCustomer `toml:"customers"`
}

type rawCustomer struct {
	ID  string         `toml:"id"`
	Win map[string]int `toml:"win"`
	Tie map[string]int `toml:"tie"`
}

type rawVenue struct {
	ID   string    `toml:"id"`
	Side []rawSide `toml:"side"`
}

type rawSide struct {
	Name        string     `toml:"name"`
	Provisional bool       `toml:"provisional"`
	Free        []string   `toml:"free"`
	Shelves     []rawShelf `toml:"shelves"`
	Spaces      []rawSpace `toml:"spaces"`
}

type rawShelf struct {
	Shelf    int    `toml:"shelf"`
	Position string `toml:"position"`
	Sign     string `toml:"sign"`
	Points   int    `toml:"points"`
}

type rawSpace struct {
	ID      string   `toml:"id"`
	Name    string   `toml:"name"`
	Type    string   `toml:"type"`
	Aging   string   `toml:"aging"`
	Icon    string   `toml:"icon"`
	Regions []string `toml:"regions"`
	Shelf   int      `toml:"shelf"`
	Table   int      `toml:"table"`
	X       []string `toml:"x"`
}

type rawBoard struct {
	ID        int          `toml:"id"`
	Abilities []rawAbility `toml:"abilities"`
	Zones     []rawZone    `toml:"zones"`
}

type rawAbility struct {
	ID     string `toml:"id"`
	Name   string `toml:"name"`
	Column int    `toml:"column"`
	Cost   int    `toml:"cost"`
	Effect string `toml:"effect"`
	Res    string `toml:"res"`
	Venue  string `toml:"venue"`
	Type   string `toml:"type"`
	Aging  string `toml:"aging"`
	Points int    `toml:"points"`
	N      int    `toml:"n"`
}

type rawZone struct {
	Cost  int    `toml:"cost"`
	Type  string `toml:"type"`
	Aging string `toml:"aging"`
}

type rawOrders struct {
	Cards []rawCard `toml:"cards"`
}

type rawCard struct {
	ID    string `toml:"id"`
	Type  string `toml:"type"`
	Aging string `toml:"aging"`
}

type rawTiles struct {
	Provisional bool         `toml:"provisional"`
	List        []rawAbility `toml:"list"`
}

type rawCorpration struct {
	Provisional  bool           `toml:"provisional"`
	Levels       []rawCorpLevel `toml:"levels"`
	DoubleVenues []string       `toml:"double_venues"`
}

type rawCorpLevel struct {
	Level  int      `toml:"level"`
	BackOf int      `toml:"back_of"`
	Rules  []string `toml:"rules"`
	Track  []int    `toml:"track"`
}

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

	cardIDs []string // card ids by index
	tileIDs []string
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

// side returns the named side or nil.
func (v Venue) side(name string) *Side {
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
	byKey       map[string]int
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

// blocked reports whether the space carries a cross for the group.
func (sp *Space) blocked(group string) bool {
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

// dataFile loads the data file: the embedded default, parsed once, or an
// organiser's, once per SHA-256 (engine.Ruleset).
var dataFile = &engine.Ruleset[*Rules]{Default: defaultRuleset, Parse: parseRules}

// RulesetVersion implements engine.Versioned.
func (r *Rules) RulesetVersion() string { return r.Version }

var bad = engine.BadRuleset

// parseRules decodes and validates a ruleset file.
func parseRules(data []byte) (*Rules, error) {
	var f rawFile
	meta, err := engine.DecodeRuleset(gameName, data, &f)
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
		a := slices.Index(agingNames, k)
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
		x := slices.Index(resNames, name)
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
		v := slices.Index(venueNames, rv.ID)
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
			if r.Venues[v].side(sd.Name) != nil {
				return nil, bad("venue %s: side %q listed twice", rv.ID, sd.Name)
			}
			r.Venues[v].Sides = append(r.Venues[v].Sides, sd)
		}
		for _, need := range sideNames {
			if r.Venues[v].side(need) == nil {
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
			z := Zone{Cost: rz.Cost, Type: slices.Index(typeNames, rz.Type), Aging: slices.Index(agingNames, rz.Aging)}
			if rz.Type == "any" {
				z.Type = anyValue
			}
			if rz.Aging == "any" {
				z.Aging = anyValue
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
		cd := Card{ID: rc.ID, Type: slices.Index(typeNames, rc.Type), Aging: slices.Index(agingNames, rc.Aging)}
		if !validID(rc.ID, 'O') || ids[rc.ID] {
			return nil, bad("order card id %q invalid (O<number>) or repeated", rc.ID)
		}
		if cd.Type < 0 || cd.Aging < 1 {
			return nil, bad("order card %s: bad type or aging", rc.ID)
		}
		ids[rc.ID] = true
		r.Cards = append(r.Cards, cd)
		r.cardIDs = append(r.cardIDs, rc.ID)
	}
	if len(r.Cards) < 1 || len(r.Cards) > 200 {
		return nil, bad("order deck needs 1..200 cards, found %d", len(r.Cards))
	}

	// Advanced tiles (D-15).
	for _, ra := range f.Tiles.List {
		if !validTileID(ra.ID) || slices.Index(r.tileIDs, ra.ID) >= 0 {
			return nil, bad("tile id %q invalid (ST<number>) or repeated", ra.ID)
		}
		a, err := compileAbility(ra, "tile "+ra.ID)
		if err != nil {
			return nil, err
		}
		r.Tiles = append(r.Tiles, a)
		r.tileIDs = append(r.tileIDs, ra.ID)
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
			if slices.Index(corpRuleNames, rr) < 0 {
				return nil, bad("corporation level %d: unknown rule %q (known: %s)", rl.Level, rr, strings.Join(corpRuleNames, ", "))
			}
			cl.Rules[rr] = true
		}
		r.CorpLevels = append(r.CorpLevels, cl)
	}
	if len(r.CorpLevels) != len(levelValues) {
		return nil, bad("need %d corporation levels, found %d", len(levelValues), len(r.CorpLevels))
	}
	for _, dv := range f.Corporation.DoubleVenues {
		v := slices.Index(venueNames, dv)
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
					if !sd.Spaces[i].blocked(g.Name) {
						n++
					}
				}
				if n == 0 {
					return nil, bad("venue %s side %s has no open space for group %s", venueNames[v], sd.Name, g.Name)
				}
			}
		}
		for v := range r.Venues {
			min := 1 << 30
			for _, sd := range r.Venues[v].Sides {
				n := 0
				for i := range sd.Spaces {
					if !sd.Spaces[i].blocked(g.Name) {
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

// sideNames are the insert sides the options offer (FR-3.2).
var sideNames = []string{"I", "II"}

// levelValues are the Corporation levels the options offer (D-16).
var levelValues = []string{"1", "2", "3", "4"}

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

// spaceKey normalises a space id for lookup: venue letter and number
// ("C7" and "C07" are the same space).
func spaceKey(id string) string {
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
	where := fmt.Sprintf("venue %s side %s", venueNames[v], rs.Name)
	if slices.Index(sideNames, rs.Name) < 0 {
		return nil, bad("%s: side must be one of %s", where, strings.Join(sideNames, ", "))
	}
	sd := &Side{Name: rs.Name, Provisional: rs.Provisional, byKey: map[string]int{}}
	// D-1: 18 spaces, 6 per cheese type, 2 per aging within each type.
	if len(rs.Spaces) != 18 {
		return nil, bad("%s has %d spaces, want 18", where, len(rs.Spaces))
	}
	var count [3][4]int
	for i, raw := range rs.Spaces {
		sp := Space{ID: raw.ID, Name: raw.Name, Type: slices.Index(typeNames, raw.Type), Aging: slices.Index(agingNames, raw.Aging),
			Icon: slices.Index(iconNames, raw.Icon), X: raw.X, Shelf: -1, Table: -1}
		if !validID(raw.ID, venueLetters[v]) {
			return nil, bad("%s: space id %q must be %c<number>", where, raw.ID, venueLetters[v])
		}
		key := spaceKey(raw.ID)
		if _, dup := sd.byKey[key]; dup {
			return nil, bad("%s: space %s listed twice", where, raw.ID)
		}
		sd.byKey[key] = i
		if sp.Type < 0 || sp.Aging < 1 || sp.Icon < 0 {
			return nil, bad("%s: space %s has a bad type, aging or icon", where, raw.ID)
		}
		count[sp.Type][sp.Aging]++
		for _, g := range raw.X {
			if !groupOK(g) {
				return nil, bad("%s: space %s is crossed for unknown group %q", where, raw.ID, g)
			}
		}
		if v != venCity && (raw.Name != "" || len(raw.Regions) > 0) {
			return nil, bad("%s: space %s: name and regions are for City spaces only", where, raw.ID)
		}
		if v != venDairy && raw.Shelf != 0 {
			return nil, bad("%s: space %s: shelf is for Dairy spaces only", where, raw.ID)
		}
		if v != venBistro && raw.Table != 0 {
			return nil, bad("%s: space %s: table is for Bistro spaces only", where, raw.ID)
		}
		switch v {
		case venCity:
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
		case venFestival:
			sp.Row, sp.Col = int(raw.ID[1]-'0'), int(raw.ID[2]-'0')
			if len(raw.ID) != 3 || sp.Row < 1 || sp.Row > 5 || sp.Col < 1 || sp.Col > 5 {
				return nil, bad("%s: Festival space %s is not a cell F<row><col> of the 5x5 grid", where, raw.ID)
			}
		case venDairy:
			if raw.Shelf < 1 || raw.Shelf > 6 {
				return nil, bad("%s: Dairy space %s: shelf %d out of range 1..6", where, raw.ID, raw.Shelf)
			}
			sp.Shelf = raw.Shelf - 1
		case venBistro:
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
				return nil, bad("%s has %d %s %s spaces, want 2 per type and aging (D-1)", where, count[t][a], typeNames[t], agingNames[a])
			}
		}
	}
	if v != venFestival && len(rs.Free) > 0 {
		return nil, bad("%s: Free Samples are for the Festival only", where)
	}
	if v != venDairy && len(rs.Shelves) > 0 {
		return nil, bad("%s: shelves are for the Dairy Shop only", where)
	}
	switch v {
	case venCity:
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
	case venFestival:
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
				return nil, bad("%s: space %s is %s but touches %d Free Samples (Bronze 0, Silver 1, Gold 2)", where, sp.ID, agingNames[sp.Aging], n)
			}
		}
	case venDairy:
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
			case signTrade, signAny, signTwo:
				if sh.Points != 0 {
					return nil, bad("%s: resource shelf %d has points", where, sh.Shelf)
				}
			case signPoints:
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
	case venBistro:
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
		return a, bad("%s: effect %q is not a column-%s effect (%s)", where, a.Effect, colNames[a.Column], strings.Join(columnEffects[a.Column], ", "))
	}
	if ra.Res != "" {
		if a.Res = slices.Index(resNames, ra.Res); a.Res < 0 {
			return a, bad("%s: unknown resource %q", where, ra.Res)
		}
	}
	if ra.Venue != "" {
		if a.Venue = slices.Index(venueNames, ra.Venue); a.Venue < 0 {
			return a, bad("%s: unknown venue %q", where, ra.Venue)
		}
	}
	if ra.Type != "" {
		if a.Type = slices.Index(typeNames, ra.Type); a.Type < 0 {
			return a, bad("%s: unknown cheese type %q", where, ra.Type)
		}
	}
	if ra.Aging != "" {
		if a.Aging = slices.Index(agingNames, ra.Aging); a.Aging < 1 {
			return a, bad("%s: unknown aging %q", where, ra.Aging)
		}
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

// cardIndex returns the index of an order card id, or -1.
func (r *Rules) cardIndex(id string) int {
	key := spaceKey(id)
	for i, c := range r.cardIDs {
		if spaceKey(c) == key {
			return i
		}
	}
	return -1
}

// tileIndex returns the index of a tile id, or -1.
func (r *Rules) tileIndex(id string) int {
	id = strings.ToUpper(id)
	for i, t := range r.tileIDs {
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

// sortedCopy returns a sorted copy of xs.
func sortedCopy(xs []int) []int {
	c := append([]int(nil), xs...)
	sort.Ints(c)
	return c
}
