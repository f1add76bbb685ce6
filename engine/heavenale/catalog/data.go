package catalog

import (
	_ "embed"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
)

//go:embed heavenale.toml
var DefaultRuleset []byte

// The fixed words of the game. Their order is the engine's index order.
var (
	ColourNames = []string{"WO", "YE", "HO", "WA", "BA"}
	SpotNames   = []string{"X", "WO", "YE", "HO", "WA", "BA", "M1", "M2", "M3", "M4"}
	HomeNames   = []string{"FIRST", "BREW", "RES", "CASH"}
	CardNames   = []string{"CASH", "BREW", "COLOR", "LOW", "BARREL"}
	kindNames   = []string{"resource", "monk", "disc", "barrel"}
	discNames   = []string{"A", "B", "C", "ABC"}
)

// Indexes of the start spaces (§8.2) and the scoring spots (§8.5).
const (
	HomeFirst = 0
	HomeBrew  = 1
	HomeRes   = 2
	HomeCash  = 3

	SpotX     = 0
	SpotColor = 1 // WO..BA are spots 1..5
	SpotMonk  = 6 // M1..M4 are spots 6..9

	SideSun   = 0
	SideShade = 1
	SideShed  = 2

	KindResource = 0
	KindMonk     = 1
	KindDisc     = 2
	KindBarrel   = 3

	DiscA   = 0
	DiscB   = 1
	DiscC   = 2
	DiscABC = 3

	HomePos = 28 // the start area's track number (§8.1)
)

// file is the data file as written.
type file struct {
	engine.RulesetMeta
	Constants  Constants `toml:"constants"`
	Production struct {
		Min             int   `toml:"min"`
		Max             int   `toml:"max"`
		StartBrewmaster int   `toml:"start_brewmaster"`
		StartMarkers    []int `toml:"start_markers"`
	} `toml:"production"`
	Band      []Band    `toml:"band"`
	Shed      []ShedRow `toml:"shed"`
	Privilege struct {
		Pairs [][]string `toml:"pairs"`
	} `toml:"privilege"`
	Count []Count `toml:"count"`
	Tiles struct {
		Provisional        bool           `toml:"provisional"`
		PerColourFertility map[string]int `toml:"per_colour_fertility"`
		MonksPerType       map[string]int `toml:"monks_per_type"`
	} `toml:"tiles"`
	Barrels struct {
		Goal []Goal `toml:"goal"`
	} `toml:"barrels"`
	Board struct {
		Track []Space `toml:"track"`
	} `toml:"board"`
	Garden struct {
		Cell []fileCell `toml:"cell"`
	} `toml:"garden"`
}

// Constants are the single numbers of the rules.
type Constants struct {
	StartDucats   int `toml:"start_ducats"`
	SaleDucats    int `toml:"emergency_sale_ducats"`
	DucatsPerStep int `toml:"ducats_per_final_step"`
	LargeVP       int `toml:"barrel_large_vp"`
	SmallVP       int `toml:"barrel_small_vp"`
	FirstVP       int `toml:"first_end_vp"`
	CardCash      int `toml:"card_cash"`
	CardBrew      int `toml:"card_brew"`
	CardBarrelVP  int `toml:"card_barrel_vp"`
	HomeBrew      int `toml:"home_brew"`
	HomeRes       int `toml:"home_res"`
	HomeCash      int `toml:"home_cash"`
}

// Band is one row of the band table (§8.4).
type Band struct {
	From int `toml:"from"`
	To   int `toml:"to"`
	Rate int `toml:"rate"`
	VP   int `toml:"vp"`
}

// ShedRow is one row of the shed table (§8.6).
type ShedRow struct {
	From       int `toml:"from"`
	To         int `toml:"to"`
	Brewmaster int `toml:"brewmaster"`
	Type       int `toml:"type"`
}

// Count holds the parameters of one player count (§8.11).
type Count struct {
	Players    int      `toml:"players"`
	Rounds     int      `toml:"rounds"`
	Stacks     []string `toml:"stacks"`
	FinalDiscs []int    `toml:"final_extra_discs"`
}

// Goal is one barrel goal (§8.9).
type Goal struct {
	ID   string `toml:"id"`
	Kind string `toml:"kind"`
	N    int    `toml:"n"`
	F    int    `toml:"f"`
}

// Fact is the goal's condition as its card's fact (goal_<kind>), the one
// the card, the barrel event and the summary's "Barrels taken" say.
func (g Goal) Fact() engine.Fact {
	return engine.Fact{Key: "goal_" + g.Kind, N: g.N, Word: strconv.Itoa(g.F)}
}

// FactParam is the goal's fact as an option's or an event's parameter:
// keyed as engine.Fact's fields, as the template ha.fact reads them, so
// that it reads the same after the parameters' JSON round trip (a stored
// menu, the log) as before it.
func (g Goal) FactParam() map[string]any {
	f := g.Fact()
	return map[string]any{"Key": f.Key, "N": f.N, "Word": f.Word}
}

// Space is one track space (§8.1).
type Space struct {
	N     int    `toml:"n"`
	Kind  string `toml:"kind"`
	Cost  int    `toml:"cost"`
	Disc  string `toml:"disc"`
	Label string `toml:"label"`

	KindIdx, DiscIdx int
}

type fileCell struct {
	ID   string   `toml:"id"`
	X    int      `toml:"x"`
	Y    int      `toml:"y"`
	Side string   `toml:"side"`
	Nb   []string `toml:"nb"`
}

// Cell is one garden hex, compiled.
type Cell struct {
	ID   string
	X, Y int
	Side int
	Nb   [6]int // neighbour cell index per direction E SE SW W NW NE, -1 off the board
}

// Rules is a compiled data file.
type Rules struct {
	Version     string
	Provisional bool
	C           Constants
	Min, Max    int
	StartBrew   int
	StartMark   [5]int
	Bands       []Band
	Sheds       []ShedRow
	Pairs       [5][2]int // spot indexes
	PairOf      [10]int   // pair index of each spot
	Counts      map[int]Count
	TilesPer    map[string]int // per back: tiles of each colour x fertility
	MonksPer    map[string]int // per back: monks of each type
	Goals       []Goal
	Track       [HomePos]Space // index 1..27
	Cells       []Cell
	CellIdx     map[string]int
	ShedSites   []int   // cell indexes of SH1..SH7
	ShedOf      []int   // per cell: index into ShedSites, -1 when not a site
	Touch       [][]int // per cell: the shed sites (indexes into ShedSites) it touches
	SunCells    []int
	ShadeCells  []int
	ResSpaces   []int // resource space numbers in track order
	MonkSpaces  []int // monk space numbers in track order
	DiscSpaces  []int
	Patterns    [][5][][]int // per shed site, per type: the cell sets a shed activates
	SiteName    []string
	provisional []string
}

// DataFile loads the data file: the embedded default, parsed once, or an
// organiser's, once per SHA-256 (engine.Ruleset).
var DataFile = &engine.Ruleset[*Rules]{Default: DefaultRuleset, Parse: ParseRules}

// RulesetVersion implements engine.Versioned.
func (r *Rules) RulesetVersion() string { return r.Version }

var bad = engine.BadRuleset

// ParseRules decodes and validates a data file.
func ParseRules(data []byte) (*Rules, error) {
	var f file
	meta, err := engine.DecodeRuleset(GameName, data, &f)
	if err != nil {
		return nil, err
	}
	r := &Rules{Version: meta.Version, Provisional: meta.Provisional, C: f.Constants,
		Min: f.Production.Min, Max: f.Production.Max, StartBrew: f.Production.StartBrewmaster}
	c := f.Constants
	if c.StartDucats < 0 || c.SaleDucats < 0 || c.DucatsPerStep < 1 || c.CardCash < 0 || c.CardBrew < 0 {
		return nil, bad("constants must be non-negative (ducats_per_final_step at least 1)")
	}
	if r.Min >= 1 || r.Max < 1 || r.Max > 99 || r.Min < -99 {
		return nil, bad("production track %d..%d must run from <= 0 to >= 1", r.Min, r.Max)
	}
	if len(f.Production.StartMarkers) != 5 {
		return nil, bad("start_markers needs 5 positions (WO YE HO WA BA)")
	}
	for i, p := range f.Production.StartMarkers {
		if p < r.Min || p > r.Max {
			return nil, bad("start marker %s at %d is off the track", ColourNames[i], p)
		}
		r.StartMark[i] = p
	}
	if r.StartBrew < r.Min || r.StartBrew > r.Max {
		return nil, bad("start_brewmaster %d is off the track", r.StartBrew)
	}
	// Bands cover min..max without gap (§8.4).
	next := r.Min
	for _, b := range f.Band {
		if b.From != next || b.To < b.From || b.Rate < 1 || b.VP < 0 {
			return nil, bad("band %d..%d: bands must cover %d..%d in order, rate >= 1", b.From, b.To, r.Min, r.Max)
		}
		next = b.To + 1
	}
	if next != r.Max+1 {
		return nil, bad("bands end at %d, not %d", next-1, r.Max)
	}
	r.Bands = f.Band
	// Shed table covers 0..30 (§8.6).
	next = 0
	for _, s := range f.Shed {
		if s.From != next || s.To < s.From || s.Type < 0 || s.Type > 4 || s.Brewmaster < 0 {
			return nil, bad("shed row %d..%d: rows must cover 0..30 in order, types 0-4", s.From, s.To)
		}
		next = s.To + 1
	}
	if next != 31 {
		return nil, bad("shed table ends at %d, not 30", next-1)
	}
	r.Sheds = f.Shed
	// Pairs: the 10 spots, each once (§8.5).
	if len(f.Privilege.Pairs) != 5 {
		return nil, bad("need 5 privilege pairs")
	}
	seen := map[int]bool{}
	for i, p := range f.Privilege.Pairs {
		if len(p) != 2 {
			return nil, bad("pair %d needs 2 spots", i+1)
		}
		for j, sp := range p {
			k := slices.Index(SpotNames, sp)
			if k < 0 || seen[k] {
				return nil, bad("pair %d: spot %q unknown or used twice", i+1, sp)
			}
			seen[k] = true
			r.Pairs[i][j] = k
			r.PairOf[k] = i
		}
	}
	// Player counts.
	r.Counts = map[int]Count{}
	for _, ct := range f.Count {
		if ct.Players < 2 || ct.Players > 4 || ct.Rounds < 1 || len(ct.Stacks) != ct.Rounds {
			return nil, bad("count %d: rounds %d need as many monk stacks", ct.Players, ct.Rounds)
		}
		for _, st := range ct.Stacks {
			if st != "I" && st != "II" {
				return nil, bad("count %d: monk stack back %q", ct.Players, st)
			}
		}
		r.Counts[ct.Players] = ct
	}
	for n := 2; n <= 4; n++ {
		if _, ok := r.Counts[n]; !ok {
			return nil, bad("no parameters for %d players", n)
		}
	}
	r.TilesPer, r.MonksPer = f.Tiles.PerColourFertility, f.Tiles.MonksPerType
	for _, back := range []string{"I", "II"} {
		if r.TilesPer[back] < 0 || r.MonksPer[back] < 0 {
			return nil, bad("negative tile counts")
		}
	}
	for k := range r.TilesPer {
		if k != "I" && k != "II" {
			return nil, bad("tile back %q", k)
		}
	}
	for k := range r.MonksPer {
		if k != "I" && k != "II" {
			return nil, bad("monk back %q", k)
		}
	}
	if f.Tiles.Provisional {
		r.provisional = append(r.provisional, "tiles")
	}
	// Goals.
	goalKinds := map[string]bool{"brewmaster": true, "all_markers": true, "fertility": true, "monk_spots": true,
		"colour_spots": true, "same_shed": true, "shed_types": true, "marker_at": true, "sunny_full": true,
		"shady_full": true, "cards_placed": true}
	for _, g := range f.Barrels.Goal {
		if !goalKinds[g.Kind] || g.ID == "" {
			return nil, bad("barrel goal %q: unknown kind %q", g.ID, g.Kind)
		}
	}
	r.Goals = f.Barrels.Goal
	// Track: 27 spaces numbered in order (§8.1).
	if len(f.Board.Track) != HomePos-1 {
		return nil, bad("the track needs %d spaces, not %d", HomePos-1, len(f.Board.Track))
	}
	for i, sp := range f.Board.Track {
		if sp.N != i+1 {
			return nil, bad("track space %d numbered %d", i+1, sp.N)
		}
		sp.KindIdx = slices.Index(kindNames, sp.Kind)
		if sp.KindIdx < 0 {
			return nil, bad("track space %d: kind %q", sp.N, sp.Kind)
		}
		sp.DiscIdx = -1
		switch sp.KindIdx {
		case KindResource:
			r.ResSpaces = append(r.ResSpaces, sp.N)
		case KindMonk:
			if sp.Cost < 1 {
				return nil, bad("monk space %d needs a cost", sp.N)
			}
			r.MonkSpaces = append(r.MonkSpaces, sp.N)
		case KindDisc:
			sp.DiscIdx = slices.Index(discNames, sp.Disc)
			if sp.DiscIdx < 0 {
				return nil, bad("disc space %d: disc %q", sp.N, sp.Disc)
			}
			r.DiscSpaces = append(r.DiscSpaces, sp.N)
		}
		if sp.Label == "" {
			return nil, bad("track space %d has no label", sp.N)
		}
		r.Track[sp.N] = sp
	}
	if len(r.MonkSpaces) == 0 || len(r.ResSpaces) == 0 {
		return nil, bad("the track needs resource and monk spaces")
	}
	for n, ct := range r.Counts {
		for _, d := range ct.FinalDiscs {
			if d < 1 || d >= HomePos || r.Track[d].KindIdx != KindDisc {
				return nil, bad("count %d: final extra disc on %d, not a disc space", n, d)
			}
		}
		total := 25 * (r.TilesPer["I"] + r.TilesPer["II"])
		if total < len(r.ResSpaces)*ct.Rounds {
			return nil, bad("%d players need %d resource tiles, the piles hold %d", n, len(r.ResSpaces)*ct.Rounds, total)
		}
		need := map[string]int{}
		for _, st := range ct.Stacks {
			need[st] += len(r.MonkSpaces)
		}
		for back, k := range need {
			if 4*r.MonksPer[back] < k {
				return nil, bad("%d players need %d monks of back %s", n, k, back)
			}
		}
	}
	if err := r.compileGarden(f.Garden.Cell); err != nil {
		return nil, err
	}
	return r, nil
}

// compileGarden checks the garden geometry (§8.3) and derives the shed
// patterns (HA-5.5.4).
func (r *Rules) compileGarden(cells []fileCell) error {
	r.CellIdx = map[string]int{}
	for i, c := range cells {
		if c.ID == "" || r.CellIdx[c.ID] != 0 || (i > 0 && c.ID == cells[0].ID) {
			return bad("garden cell %d: id %q empty or repeated", i, c.ID)
		}
		r.CellIdx[c.ID] = i
	}
	r.Cells = make([]Cell, len(cells))
	for i, c := range cells {
		side := slices.Index([]string{"sun", "shade", "shed"}, c.Side)
		if side < 0 || len(c.Nb) != 6 {
			return bad("garden cell %s: side %q, %d neighbours", c.ID, c.Side, len(c.Nb))
		}
		cell := Cell{ID: c.ID, X: c.X, Y: c.Y, Side: side}
		for d, nb := range c.Nb {
			cell.Nb[d] = -1
			if nb == "" {
				continue
			}
			j, ok := r.CellIdx[nb]
			if !ok {
				return bad("garden cell %s: unknown neighbour %q", c.ID, nb)
			}
			cell.Nb[d] = j
		}
		r.Cells[i] = cell
	}
	r.ShedOf = make([]int, len(r.Cells))
	for i, c := range r.Cells {
		r.ShedOf[i] = -1
		for d, j := range c.Nb {
			if j >= 0 && r.Cells[j].Nb[(d+3)%6] != i {
				return bad("garden: %s and %s are not mutual neighbours", c.ID, r.Cells[j].ID)
			}
		}
		switch c.Side {
		case SideSun:
			r.SunCells = append(r.SunCells, i)
		case SideShade:
			r.ShadeCells = append(r.ShadeCells, i)
		case SideShed:
			for _, j := range c.Nb {
				if j < 0 || r.Cells[j].Side == SideShed {
					return bad("shed site %s needs 6 garden spots around it (HA-5.5.1)", c.ID)
				}
			}
			r.ShedOf[i] = len(r.ShedSites)
			r.ShedSites = append(r.ShedSites, i)
			r.SiteName = append(r.SiteName, c.ID)
		}
	}
	if len(r.SunCells) == 0 || len(r.ShadeCells) == 0 || len(r.ShedSites) == 0 {
		return bad("garden needs sunny, shady and shed cells")
	}
	r.Touch = make([][]int, len(r.Cells))
	for k, site := range r.ShedSites {
		for _, j := range r.Cells[site].Nb {
			r.Touch[j] = append(r.Touch[j], k)
		}
	}
	// Patterns (HA-5.5.4): type 1 any one, 2 opposite pairs, 3 alternate
	// triples, 4 any four; sets sorted by cell index.
	r.Patterns = make([][5][][]int, len(r.ShedSites))
	for k, site := range r.ShedSites {
		nb := r.Cells[site].Nb
		var p [5][][]int
		for d := 0; d < 6; d++ {
			p[1] = append(p[1], []int{nb[d]})
		}
		for d := 0; d < 3; d++ {
			p[2] = append(p[2], []int{nb[d], nb[d+3]})
		}
		p[3] = [][]int{{nb[0], nb[2], nb[4]}, {nb[1], nb[3], nb[5]}}
		for m := 0; m < 64; m++ {
			if bits(m) != 4 {
				continue
			}
			var set []int
			for d := 0; d < 6; d++ {
				if m&(1<<d) != 0 {
					set = append(set, nb[d])
				}
			}
			p[4] = append(p[4], set)
		}
		for t := range p {
			for _, set := range p[t] {
				sort.Ints(set)
			}
			sort.Slice(p[t], func(a, b int) bool { return lessInts(p[t][a], p[t][b]) })
		}
		r.Patterns[k] = p
	}
	return nil
}

func bits(m int) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

func lessInts(a, b []int) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}

// Band returns the band of a brewmaster position (HA-7.2).
func (r *Rules) Band(pos int) Band {
	for _, b := range r.Bands {
		if pos >= b.From && pos <= b.To {
			return b
		}
	}
	return r.Bands[0]
}

// ShedRow returns the shed table row of a fertility sum (HA-5.5.3).
func (r *Rules) ShedRow(sum int) ShedRow {
	for _, s := range r.Sheds {
		if sum >= s.From && sum <= s.To {
			return s
		}
	}
	return r.Sheds[len(r.Sheds)-1]
}

// Tile codes: colour + fertility ("HO5"), monk type ("M2"), shed type on a
// site ("T2").
// The codes of fertility and monk type 0-9 are made once (issue 24: a
// new game's piles and stacks made 130 strings a game).
func TileCode(colour, fert int) string {
	if fert >= 0 && fert < len(tileCodes[0]) && colour < len(tileCodes) {
		return tileCodes[colour][fert]
	}
	return fmt.Sprintf("%s%d", ColourNames[colour], fert)
}

func MonkCode(t int) string {
	if t >= 0 && t < len(monkCodes) {
		return monkCodes[t]
	}
	return fmt.Sprintf("M%d", t)
}

var tileCodes, monkCodes = func() ([][10]string, [10]string) {
	tiles := make([][10]string, len(ColourNames))
	var monks [10]string
	for n := range monks {
		for c := range tiles {
			tiles[c][n] = fmt.Sprintf("%s%d", ColourNames[c], n)
		}
		monks[n] = fmt.Sprintf("M%d", n)
	}
	return tiles, monks
}()

// TileColour returns the colour index of a resource tile code, -1 otherwise.
func TileColour(code string) int {
	if len(code) != 3 {
		return -1
	}
	return slices.Index(ColourNames, code[:2])
}

// TileFert returns the fertility of a resource tile code, 0 otherwise.
func TileFert(code string) int {
	if TileColour(code) < 0 {
		return 0
	}
	return int(code[2] - '0')
}

// MonkType returns the type (1-4) of a monk code, 0 otherwise.
func MonkType(code string) int {
	if len(code) == 2 && code[0] == 'M' && code[1] >= '1' && code[1] <= '4' {
		return int(code[1] - '0')
	}
	return 0
}

// ShedType returns the type of a shed code ("T2"), -1 otherwise.
func ShedType(code string) int {
	if len(code) == 2 && code[0] == 'T' && code[1] >= '0' && code[1] <= '4' {
		return int(code[1] - '0')
	}
	return -1
}

// ValidTile reports whether code names a resource or monk tile.
func ValidTile(code string) bool {
	f := TileFert(code)
	return (f >= 1 && f <= 5) || MonkType(code) > 0
}

// ProvisionalTables lists the tables the data file marks PROVISIONAL.
func (r *Rules) ProvisionalTables() string { return strings.Join(r.provisional, ", ") }

// GameName is the registry name of the game.
const GameName = "heavenale"
