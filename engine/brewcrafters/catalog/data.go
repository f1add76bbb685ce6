package catalog

import (
	_ "embed"
	"fmt"
	"slices"
	"sort"

	"github.com/pbem-referee/referee/engine"
)

//go:embed brewcrafters.toml
var DefaultRuleset []byte

// Ingredient codes (§8.1): the Basic ones first, then the Advanced ones.
const (
	IM = iota
	IH
	IY
	IF
	IS
	iC
	NIng
)

// IngCodes are the ingredient codes by index.
var IngCodes = [NIng]string{"M", "H", "Y", "F", "S", "C"}

func IngIndex(code string) int {
	for i, c := range IngCodes {
		if c == code {
			return i
		}
	}
	return -1
}

func IsBasic(i int) bool { return i >= IM && i <= IY }

// Bag is a count per ingredient.
type Bag [NIng]int

func (b Bag) Total() int {
	n := 0
	for _, v := range b {
		n += v
	}
	return n
}

func (b Bag) Add(o Bag) Bag {
	for i := range b {
		b[i] += o[i]
	}
	return b
}

func (b Bag) Covers(o Bag) bool {
	for i := range b {
		if b[i] < o[i] {
			return false
		}
	}
	return true
}

func (b Bag) Sub(o Bag) Bag {
	for i := range b {
		b[i] -= o[i]
	}
	return b
}

func (b Bag) Adv() int { return b[IF] + b[IS] + b[iC] }

// String writes a bag as "2M 1H" ("" when empty).
func (b Bag) String() string {
	s := ""
	for i, v := range b {
		if v > 0 {
			if s != "" {
				s += " "
			}
			s += fmt.Sprintf("%d%s", v, IngCodes[i])
		}
	}
	return s
}

func bagOf(m map[string]int) (Bag, error) {
	var b Bag
	for k, v := range m {
		i := IngIndex(k)
		if i < 0 || v < 0 {
			return b, fmt.Errorf("bad ingredient %s=%d", k, v)
		}
		b[i] = v
	}
	return b, nil
}

// Economy holds the constants of §8.15, BC-5.1.3 and §8.5.
type Economy struct {
	Years             int    `toml:"years"`
	SalePrice         int    `toml:"sale_price"`
	GoldLabel         int    `toml:"gold_label"`
	LoanMoney         int    `toml:"loan_money"`
	LoanFirst         int    `toml:"loan_first"`
	LoanNext          int    `toml:"loan_next"`
	SecretBonus       int    `toml:"secret_bonus"`
	UnfinishedPortion int    `toml:"unfinished_portion"`
	StartMoney        int    `toml:"start_money"`
	Storage           int    `toml:"storage"`
	PrintedCost       int    `toml:"printed_cost"`
	SingleCost        int    `toml:"single_cost"`
	ShiftCost         []int  `toml:"shift_cost"`
	ShiftNeed         []int  `toml:"shift_need"`
	MaxShifts         int    `toml:"max_shifts"`
	MaxInfusers       int    `toml:"max_infusers"`
	FarmPlots         int    `toml:"farm_plots"`
	AgencyDraw        int    `toml:"agency_draw"`
	AgencyFee         int    `toml:"agency_fee"`
	InternFee         int    `toml:"intern_fee"`
	CFarmShare        string `toml:"cfarm_share"`
}

// SeatStart is one row of BC-3.10.
type SeatStart struct {
	Money   int            `toml:"money"`
	Gain    map[string]int `toml:"gain"`
	GainBag Bag
}

// Recipe is one row of §8.9.
type Recipe struct {
	ID          string         `toml:"id"`
	Name        string         `toml:"name"`
	Style       string         `toml:"style"`
	Tier        string         `toml:"tier"`
	Cost        map[string]int `toml:"cost"`
	Rep         int            `toml:"rep"`
	Symbol      string         `toml:"symbol"`
	FirstGame   bool           `toml:"first_game"`
	Provisional bool           `toml:"provisional"`
	CostBag     Bag
}

func (r *Recipe) Basic() bool { return r.Tier == "basic" }

// Building is one row of §8.4.
type Building struct {
	ID          string         `toml:"id"`
	Name        string         `toml:"name"`
	Space       string         `toml:"space"`
	OpCost      int            `toml:"op_cost"`
	Gives       map[string]int `toml:"gives"`
	Storage     int            `toml:"storage"`
	Reduce      int            `toml:"reduce"`
	Rep         int            `toml:"rep"`
	Yields      map[string]int `toml:"yields"`
	Provisional bool           `toml:"provisional"`
	GivesBag    Bag
	YieldsBag   Bag
}

// Half is one half of a Market Action space (BC-5.2.4).
type Half struct {
	Kw           string         `toml:"kw"`
	Effect       string         `toml:"effect"`
	Restock      map[string]int `toml:"restock"`
	RestockMoney int            `toml:"restock_money"`
	Count        int            `toml:"count"`
	RestockBag   Bag
}

// SpaceDef is one Market Action space of §8.6.
type SpaceDef struct {
	ID          string `toml:"id"`
	Players     []int  `toml:"players"`
	Complex     string `toml:"complex"`
	Provisional bool   `toml:"provisional"`
	Half        []Half `toml:"half"`
}

// Partner is one Local Partnership card of §8.7.
type Partner struct {
	ID          string         `toml:"id"`
	Name        string         `toml:"name"`
	MinPlayers  int            `toml:"min_players"`
	GiveBasic   int            `toml:"give_basic"`
	Get         map[string]int `toml:"get"`
	Provisional bool           `toml:"provisional"`
	GetBag      Bag
}

// Worker is one Skilled Worker of §8.8; its hooks are data.
type Worker struct {
	ID               string         `toml:"id"`
	Name             string         `toml:"name"`
	OpCost           int            `toml:"op_cost"`
	FirstGame        bool           `toml:"first_game"`
	Provisional      bool           `toml:"provisional"`
	CollabOnly       bool           `toml:"collab_only"`
	HireGain         map[string]int `toml:"hire_gain"`
	HireAnyAdv       int            `toml:"hire_any_adv"`
	HireMoney        int            `toml:"hire_money"`
	HireResearch     bool           `toml:"hire_research"`
	MarketType       string         `toml:"market_type"`
	MarketMin        int            `toml:"market_min"`
	MarketGain       map[string]int `toml:"market_gain"`
	MarketAnyAdv     int            `toml:"market_any_adv"`
	MashRep          int            `toml:"mash_rep"`
	YlabRep          int            `toml:"ylab_rep"`
	PubRep           int            `toml:"pub_rep"`
	PubStorage       int            `toml:"pub_storage"`
	AdvBrewRep       int            `toml:"adv_brew_rep"`
	SellBonus        int            `toml:"sell_bonus"`
	FarmExtra        int            `toml:"farm_extra"`
	OpDiscount       int            `toml:"op_discount"`
	ShiftNeed        []int          `toml:"shift_need"`
	ShiftRep         int            `toml:"shift_rep"`
	InstallRep       int            `toml:"install_rep"`
	ResearchAnyBasic int            `toml:"research_any_basic"`
	CollabRep        int            `toml:"collab_rep"`
	Seasons          []string       `toml:"seasons"`
	SeasonGain       map[string]int `toml:"season_gain"`
	SeasonPick       []string       `toml:"season_pick"`
	SeasonMoney      int            `toml:"season_money"`
	SeasonNeeds      string         `toml:"season_needs"`
	Storage          int            `toml:"storage"`
	OakExtra         int            `toml:"oak_extra"`
	InfuserExtra     int            `toml:"infuser_extra"`
	MoneyExtra       int            `toml:"money_extra"`
	MarketExtra      int            `toml:"market_extra"`
	EndRepPerRecipe  int            `toml:"end_rep_per_recipe"`
	HireBag          Bag
	MarketBag        Bag
	SeasonBag        Bag
}

// Portion is one portion of the Collaboration recipe (§8.11).
type Portion struct {
	ID          string         `toml:"id"`
	Give        map[string]int `toml:"give"`
	Adv         int            `toml:"adv"`
	Rep         int            `toml:"rep"`
	Money       int            `toml:"money"`
	Provisional bool           `toml:"provisional"`
	GiveBag     Bag
}

// Trade is one Traders Market rate (§8.12).
type Trade struct {
	Give        string         `toml:"give"`
	GiveN       int            `toml:"give_n"`
	Get         map[string]int `toml:"get"`
	Provisional bool           `toml:"provisional"`
}

// Effect is what one research step does (§8.10); see the data file.
type Effect struct {
	Basic       int    `toml:"basic"`
	Adv         int    `toml:"adv"`
	AdvDistinct bool   `toml:"adv_distinct"`
	Money       int    `toml:"money"`
	Rep         int    `toml:"rep"`
	Token       string `toml:"token"`
	Free        string `toml:"free"`
	OpDiscount  int    `toml:"op_discount"`
	On          string `toml:"on"`
	Min         int    `toml:"min"`
	Extra       int    `toml:"extra"`
	AdvOnly     bool   `toml:"adv_only"`
	Per         string `toml:"per"`
	Div         int    `toml:"div"`
}

// ResearchRow is one track of one side of the Research Lab (§8.10).
type ResearchRow struct {
	Side         string `toml:"side"`
	Track        string `toml:"track"`
	Provisional  bool   `toml:"provisional"`
	Experimental Effect `toml:"experimental"`
	Annual       Effect `toml:"annual"`
	Breakthrough Effect `toml:"breakthrough"`
	GameEnd      Effect `toml:"game_end"`
}

// CFarmPortion is one Community Farm portion (§8.13).
type CFarmPortion struct {
	Code  string `toml:"code"`
	Yield int    `toml:"yield"`
}

// Rules is the parsed data file.
type Rules struct {
	Game        string         `toml:"game"`
	Version     string         `toml:"version"`
	Provisional bool           `toml:"provisional"`
	Economy     Economy        `toml:"economy"`
	Seat        []SeatStart    `toml:"seat"`
	Recipe      []Recipe       `toml:"recipe"`
	Building    []Building     `toml:"building"`
	Space       []SpaceDef     `toml:"space"`
	Partner     []Partner      `toml:"partner"`
	Worker      []Worker       `toml:"worker"`
	Portion     []Portion      `toml:"portion"`
	Trade       []Trade        `toml:"trade"`
	CFarm       []CFarmPortion `toml:"cfarm"`
	Research    []ResearchRow  `toml:"research"`

	ResearchRows map[string]*[NTracks]*ResearchRow

	Recipes   map[string]*Recipe
	Buildings map[string]*Building
	Workers   map[string]*Worker
	Partners  map[string]*Partner
	Spaces    map[string]*SpaceDef
	// Codes maps a data-file id that players do not type (a worker's,
	// a building's, a building space's) to its code (rules.code).
	Codes map[string]string
	// Ids maps a worker's or a building's code back to its data-file id,
	// and recipeNames a recipe's id to the data file's name: what the
	// templates need to name a coded thing in words (View.IDs, issue 22).
	Ids         map[string]string
	RecipeNames map[string]string
}

// Code is how a player types an id (doc.go "Canonical commands"): a
// worker without its underscores, a building by its short name, a
// building's space by its building's code; any other word as it is.
func (r *Rules) Code(id string) string {
	if c, ok := r.Codes[id]; ok {
		return c
	}
	return id
}

// makeCodes fills r.codes from the workers and buildings.
func (r *Rules) makeCodes() {
	r.Codes, r.Ids, r.RecipeNames = map[string]string{}, map[string]string{}, map[string]string{}
	for _, w := range r.Worker {
		r.Codes[w.ID] = ShortCode(w.ID)
		r.Ids[ShortCode(w.ID)] = w.ID
	}
	for _, b := range r.Building {
		r.Codes[b.ID] = bldCode(b.ID)
		r.Ids[bldCode(b.ID)] = b.ID
		if b.Space != "" {
			r.Codes[b.Space] = bldCode(b.ID)
		}
	}
	for _, rc := range r.Recipe {
		r.RecipeNames[rc.ID] = rc.Name
	}
}

// DataFile loads the data file: the embedded default, parsed once, or an
// organiser's, once per SHA-256 (engine.Ruleset).
var DataFile = &engine.Ruleset[*Rules]{Default: DefaultRuleset, Parse: ParseRules}

// RulesetVersion implements engine.Versioned.
func (r *Rules) RulesetVersion() string { return r.Version }

var bad = engine.BadRuleset

// ParseRules decodes and validates a data file.
func ParseRules(data []byte) (*Rules, error) {
	r := &Rules{}
	if _, err := engine.DecodeRuleset(GameName, data, r); err != nil {
		return nil, err
	}
	e := &r.Economy
	if e.Years < 1 || e.Years > 10 {
		return nil, bad("economy.years must be 1 to 10")
	}
	if e.Storage <= 0 || e.MaxShifts < 1 || len(e.ShiftCost) != e.MaxShifts || len(e.ShiftNeed) != e.MaxShifts ||
		e.LoanMoney <= 0 || e.MaxInfusers < 1 || e.FarmPlots < 1 || e.AgencyDraw < 1 {
		return nil, bad("economy: storage, max_shifts, shift_cost, shift_need, loan_money, max_infusers, farm_plots, agency_draw")
	}
	if e.CFarmShare != "token" && e.CFarmShare != "player" {
		return nil, bad("economy.cfarm_share must be token or player")
	}
	if len(r.Seat) < 5 {
		return nil, bad("seat: need 5 rows, have %d", len(r.Seat))
	}
	var err error
	for i := range r.Seat {
		if r.Seat[i].GainBag, err = bagOf(r.Seat[i].Gain); err != nil {
			return nil, bad("seat %d: %v", i+1, err)
		}
	}
	r.Recipes = map[string]*Recipe{}
	perStyle := map[string]int{}
	for i := range r.Recipe {
		rc := &r.Recipe[i]
		if rc.ID == "" || r.Recipes[rc.ID] != nil {
			return nil, bad("recipe %q: empty or duplicate id", rc.ID)
		}
		if rc.Style != "ale" && rc.Style != "porter" && rc.Style != "stout" {
			return nil, bad("recipe %s: style %q", rc.ID, rc.Style)
		}
		if rc.Tier != "basic" && rc.Tier != "advanced" {
			return nil, bad("recipe %s: tier %q", rc.ID, rc.Tier)
		}
		if rc.Symbol != "" && rc.Symbol != "hops" && rc.Symbol != "oak" {
			return nil, bad("recipe %s: symbol %q", rc.ID, rc.Symbol)
		}
		if rc.CostBag, err = bagOf(rc.Cost); err != nil || rc.CostBag.Total() == 0 {
			return nil, bad("recipe %s: cost", rc.ID)
		}
		if rc.Rep < 0 {
			return nil, bad("recipe %s: rep", rc.ID)
		}
		r.Recipes[rc.ID] = rc
		key := rc.Style + "/" + rc.Tier
		perStyle[key]++
		if rc.FirstGame && !rc.Basic() {
			perStyle[key+"/first"]++
		}
	}
	for _, st := range Styles {
		if perStyle[st+"/basic"] != 1 {
			return nil, bad("style %s needs exactly one basic recipe", st)
		}
		if perStyle[st+"/advanced"] < 2 || perStyle[st+"/advanced/first"] != 2 {
			return nil, bad("style %s needs at least 2 advanced recipes, 2 of them first_game", st)
		}
	}
	r.Buildings = map[string]*Building{}
	for i := range r.Building {
		b := &r.Building[i]
		if r.Buildings[b.ID] != nil {
			return nil, bad("building %s: duplicate", b.ID)
		}
		if b.GivesBag, err = bagOf(b.Gives); err != nil {
			return nil, bad("building %s: %v", b.ID, err)
		}
		if b.YieldsBag, err = bagOf(b.Yields); err != nil {
			return nil, bad("building %s: %v", b.ID, err)
		}
		if b.OpCost < 0 {
			return nil, bad("building %s: op_cost", b.ID)
		}
		r.Buildings[b.ID] = b
	}
	for _, id := range BuildingIDs {
		if r.Buildings[id] == nil {
			return nil, bad("building %s missing", id)
		}
	}
	r.Spaces = map[string]*SpaceDef{}
	for i := range r.Space {
		sp := &r.Space[i]
		if sp.ID == "" || r.Spaces[sp.ID] != nil || len(sp.Half) == 0 || len(sp.Half) > 2 {
			return nil, bad("space %q: id or halves", sp.ID)
		}
		for j := range sp.Half {
			h := &sp.Half[j]
			if !effects[h.Effect] || h.Kw == "" {
				return nil, bad("space %s: effect %q", sp.ID, h.Effect)
			}
			if h.RestockBag, err = bagOf(h.Restock); err != nil {
				return nil, bad("space %s: %v", sp.ID, err)
			}
		}
		if sp.Complex != "" && !slices.Contains(ComplexNames, sp.Complex) {
			return nil, bad("space %s: complex %q", sp.ID, sp.Complex)
		}
		r.Spaces[sp.ID] = sp
	}
	r.Partners = map[string]*Partner{}
	for i := range r.Partner {
		pt := &r.Partner[i]
		if pt.GetBag, err = bagOf(pt.Get); err != nil || r.Partners[pt.ID] != nil || pt.GiveBasic < 1 {
			return nil, bad("partner %s", pt.ID)
		}
		r.Partners[pt.ID] = pt
	}
	r.Workers = map[string]*Worker{}
	firsts := 0
	for i := range r.Worker {
		w := &r.Worker[i]
		if w.ID == "" || r.Workers[w.ID] != nil {
			return nil, bad("worker %q: empty or duplicate", w.ID)
		}
		if w.HireBag, err = bagOf(w.HireGain); err != nil {
			return nil, bad("worker %s: %v", w.ID, err)
		}
		if w.MarketBag, err = bagOf(w.MarketGain); err != nil {
			return nil, bad("worker %s: %v", w.ID, err)
		}
		if w.SeasonBag, err = bagOf(w.SeasonGain); err != nil {
			return nil, bad("worker %s: %v", w.ID, err)
		}
		switch w.MarketType {
		case "", "M", "H", "Y", "ADV":
		default:
			return nil, bad("worker %s: market_type %q", w.ID, w.MarketType)
		}
		for _, s := range w.Seasons {
			if seasonIndex(s) < 0 {
				return nil, bad("worker %s: season %q", w.ID, s)
			}
		}
		for _, c := range w.SeasonPick {
			if IngIndex(c) < 0 {
				return nil, bad("worker %s: season_pick %q", w.ID, c)
			}
		}
		if len(w.ShiftNeed) != 0 && len(w.ShiftNeed) != e.MaxShifts {
			return nil, bad("worker %s: shift_need", w.ID)
		}
		if w.FirstGame {
			firsts++
		}
		r.Workers[w.ID] = w
	}
	if firsts != 9 {
		return nil, bad("need 9 first_game workers, have %d", firsts)
	}
	if len(r.Portion) != 4 {
		return nil, bad("need 4 collaboration portions")
	}
	for i := range r.Portion {
		if r.Portion[i].GiveBag, err = bagOf(r.Portion[i].Give); err != nil {
			return nil, bad("portion %s: %v", r.Portion[i].ID, err)
		}
	}
	for _, t := range r.Trade {
		if (t.Give != "ADV" && IngIndex(t.Give) < 0) || t.GiveN < 1 || len(t.Get) == 0 {
			return nil, bad("trade giving %s", t.Give)
		}
		for k, v := range t.Get {
			if (k != "ADV" && IngIndex(k) < 0) || v < 1 {
				return nil, bad("trade giving %s: get %s", t.Give, k)
			}
		}
	}
	r.ResearchRows = map[string]*[NTracks]*ResearchRow{}
	for i := range r.Research {
		row := &r.Research[i]
		t := TrackIndex(row.Track)
		if (row.Side != "basic" && row.Side != "advanced") || t < 0 || row.Track != TrackNames[t] {
			return nil, bad("research: side %q track %q", row.Side, row.Track)
		}
		if r.ResearchRows[row.Side] == nil {
			r.ResearchRows[row.Side] = &[NTracks]*ResearchRow{}
		}
		if r.ResearchRows[row.Side][t] != nil {
			return nil, bad("research %s %s twice", row.Side, row.Track)
		}
		if err := row.check(); err != nil {
			return nil, bad("research %s %s: %v", row.Side, row.Track, err)
		}
		r.ResearchRows[row.Side][t] = row
	}
	for _, side := range []string{"basic", "advanced"} {
		for t := 0; t < NTracks; t++ {
			if r.ResearchRows[side] == nil || r.ResearchRows[side][t] == nil {
				return nil, bad("research %s %s missing", side, TrackNames[t])
			}
		}
	}
	if len(r.CFarm) == 0 {
		return nil, bad("cfarm: no portions")
	}
	for _, c := range r.CFarm {
		if IngIndex(c.Code) < 0 || c.Yield < 1 {
			return nil, bad("cfarm %s", c.Code)
		}
	}
	r.makeCodes()
	return r, nil
}

var Styles = []string{"ale", "porter", "stout"}

// BuildingIDs are the building types the engine knows (§8.4).
var BuildingIDs = []string{"STOREHOUSE", "DOUBLE_BATCH", "MASH_TUN", "YEAST_LAB", "OAK_BARRELHOUSE",
	"HOPS_INFUSER", "BREWPUB", "TOUR_TASTING", "FARM"}

var effects = map[string]bool{"investor": true, "shift": true, "partner": true, "worker": true, "take": true,
	"choose_adv": true, "choose_basic": true, "money": true, "benefit": true, "interns": true, "trade": true,
	"agency": true, "cfarm": true}

var ComplexNames = []string{"interns", "trade", "agency", "cfarm", "secret"}

var SeasonNames = []string{"SPRING", "SUMMER", "FALL", "WINTER"}

func seasonIndex(s string) int {
	for i, n := range SeasonNames {
		if n == s {
			return i
		}
	}
	return -1
}

func SortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (row *ResearchRow) check() error {
	for _, e := range []Effect{row.Experimental, row.Annual, row.Breakthrough, row.GameEnd} {
		if e.Basic < 0 || e.Adv < 0 || e.Money < 0 || e.Rep < 0 || e.Basic > 5 || e.Adv > 3 || (e.AdvDistinct && e.Adv > 3) {
			return fmt.Errorf("negative or too large gains")
		}
	}
	switch row.Experimental.Token {
	case "", "ops", "brew":
	default:
		return fmt.Errorf("token %q", row.Experimental.Token)
	}
	switch row.Annual.Free {
	case "", "install", "process", "process_collab":
	default:
		return fmt.Errorf("free %q", row.Annual.Free)
	}
	switch row.Breakthrough.On {
	case "", "market", "take", "install", "brew", "sell":
	default:
		return fmt.Errorf("breakthrough on %q", row.Breakthrough.On)
	}
	switch row.GameEnd.Per {
	case "", "basic_recipe", "original_space", "batches", "adv_recipe_in_play", "basic_batches", "costly_building", "recipe_thrice", "gold_label":
	default:
		return fmt.Errorf("game_end per %q", row.GameEnd.Per)
	}
	if row.GameEnd.Div < 0 {
		return fmt.Errorf("div")
	}
	return nil
}

// GameName is the registry name of the game.
const GameName = "brewcrafters"
