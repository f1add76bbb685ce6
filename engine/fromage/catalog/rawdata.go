// The raw layout of fromage.toml, decoded strictly before ParseRules
// (data.go) validates and compiles it.

package catalog

// ---- raw file layout (decoded strictly) ----

type RawFile struct {
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
