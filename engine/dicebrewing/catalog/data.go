package catalog

import (
	_ "embed"
	"regexp"
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
)

// GameName is the registry name of the game.
const GameName = "dicebrewing"

// RecipeIDsInFileOrder returns the recipe ids in the order of the data file.
func (r *Rules) RecipeIDsInFileOrder() []string {
	out := make([]string, len(r.Recipes))
	for i, rc := range r.Recipes {
		out[i] = rc.ID
	}
	return out
}

// DefaultRuleset is the embedded data file (cards, prices, thresholds).
//
//go:embed dicebrewing.toml
var DefaultRuleset []byte

// rulesFile is the TOML layout of the ruleset (§8.10, adapted to TOML).
type rulesFile struct {
	Game        string `toml:"game"`
	Version     string `toml:"version"`
	Provisional bool   `toml:"provisional"`

	Components struct {
		DiceY      int      `toml:"dice_y"`
		DiceK      int      `toml:"dice_k"`
		DiceG      int      `toml:"dice_g"`
		DiceB      int      `toml:"dice_b"`
		Faces      int      `toml:"faces"`
		Seeds      int      `toml:"seeds"`
		StartCoins int      `toml:"start_coins"`
		StartSeeds int      `toml:"start_seeds"`
		StartDice  []string `toml:"start_dice"`
	} `toml:"components"`

	Players []struct {
		N            int      `toml:"n"`
		Display      int      `toml:"display"`
		Target       int      `toml:"target"`
		Capacity     int      `toml:"capacity"`
		StartDisplay []string `toml:"start_display"`
	} `toml:"players"`

	Open struct {
		MH          int `toml:"MH"`
		HP          int `toml:"HP"`
		SS          int `toml:"SS"`
		DS          int `toml:"DS"`
		Market      int `toml:"market"`
		BlackMarket int `toml:"black_market"`
	} `toml:"open"`

	Spaces struct {
		Provisional   bool `toml:"provisional"`
		MH1Speedup    int  `toml:"MH1_speedup"`
		MH2Speedup    int  `toml:"MH2_speedup"`
		MH3Speedup    int  `toml:"MH3_speedup"`
		HP1Speedup    int  `toml:"HP1_speedup"`
		HP2Speedup    int  `toml:"HP2_speedup"`
		DS1Speedup    int  `toml:"DS1_speedup"`
		DS2Speedup    int  `toml:"DS2_speedup"`
		DS3Speedup    int  `toml:"DS3_speedup"`
		SS1BlueMin    int  `toml:"SS1_blue_min"`
		SS2BlueMin    int  `toml:"SS2_blue_min"`
		SS3BlueMin    int  `toml:"SS3_blue_min"`
		ImproveBy     int  `toml:"improve_by"`
		DS1Seeds      int  `toml:"DS1_seeds"`
		DS2Seeds      int  `toml:"DS2_seeds"`
		DS3CoinsBlue  int  `toml:"DS3_coins_blue"`
		DS3CoinsBlack int  `toml:"DS3_coins_black"`
	} `toml:"spaces"`

	Ingredients []struct {
		Code        string     `toml:"code"`
		Stock       int        `toml:"stock"`
		Price       int        `toml:"price"`
		Provisional bool       `toml:"provisional"`
		Discounts   []discount `toml:"discounts"`
	} `toml:"ingredient"`

	ActionTokens []struct {
		Code           string   `toml:"code"`
		Stock          int      `toml:"stock"`
		Price          int      `toml:"price"`
		Provisional    bool     `toml:"provisional"`
		Windows        []string `toml:"windows"`
		WindowsBrewing []string `toml:"windows_brewing"`
	} `toml:"action_token"`

	Unlucky struct {
		Credit      []int `toml:"credit"`
		ExtraPerDie int   `toml:"extra_per_die"`
	} `toml:"unlucky"`

	Season struct {
		SummerSeeds int `toml:"summer_seeds"`
	} `toml:"season"`

	Scoring struct {
		CoinsPerXP          int      `toml:"coins_per_xp"`
		XPY                 int      `toml:"xp_y"`
		XPK                 int      `toml:"xp_k"`
		XPG                 int      `toml:"xp_g"`
		XPB                 int      `toml:"xp_b"`
		BrewXP              int      `toml:"brew_xp"`
		Tiebreak            []string `toml:"tiebreak"`
		TiebreakProvisional bool     `toml:"tiebreak_provisional"`
	} `toml:"scoring"`

	Defaults struct {
		Die        string   `toml:"die"`
		TokenOrder []string `toml:"token_order"`
	} `toml:"defaults"`

	Coins []struct {
		Count       int   `toml:"count"`
		Sides       []int `toml:"sides"`
		Provisional bool  `toml:"provisional"`
	} `toml:"coin"`

	Recipes []struct {
		ID          string        `toml:"id"`
		Name        string        `toml:"name"`
		Style       string        `toml:"style"`
		Level       string        `toml:"level"`
		Setup       string        `toml:"setup"`
		Provisional bool          `toml:"provisional"`
		Dice        []string      `toml:"dice"`
		Tokens      []string      `toml:"tokens"`
		Reward      GainSpec      `toml:"reward"`
		Improve     []improveSpec `toml:"improve"`
		Bonus       GainSpec      `toml:"bonus"`
	} `toml:"recipe"`
}

// discount is one Market discount: a blue die of value >= BlueMin lowers the
// price by Minus (DB-5.7.4).
type discount struct {
	BlueMin int `toml:"blue_min" json:"blue_min"`
	Minus   int `toml:"minus" json:"minus"`
}

// GainSpec is a reward or a bonus (DB-5.9.8).
type GainSpec struct {
	XP     int    `toml:"xp" json:"xp,omitempty"`
	Coins  int    `toml:"coins" json:"coins,omitempty"`
	Die    string `toml:"die" json:"die,omitempty"`       // "", Y, K, G, B or ANY
	Tokens int    `toml:"tokens" json:"tokens,omitempty"` // action tokens of the player's choice
}

func (g GainSpec) empty() bool { return g == GainSpec{} }

// improveSpec is one accepted improvement (DB-5.9.4).
type improveSpec struct {
	BlueMin int       `toml:"blue_min" json:"blue_min,omitempty"`
	Token   string    `toml:"token" json:"token,omitempty"`
	Bonus   *GainSpec `toml:"bonus" json:"bonus,omitempty"`
}

// Req is one required die of a recipe: colour index and minimum value.
type Req struct {
	C   int
	Min int
}

// Recipe is a parsed recipe card.
type Recipe struct {
	Index                         int // position in the data file
	ID, Name, Style, Level, Setup string
	Provisional                   bool
	Dice                          []Req
	DiceText                      []string
	Tokens                        []int // ingredient indexes
	Reward                        GainSpec
	Improve                       []improveSpec
	Bonus                         GainSpec
}

// BonusFor returns the bonus an improvement earns.
func (r *Recipe) BonusFor(i int) GainSpec {
	if b := r.Improve[i].Bonus; b != nil {
		return *b
	}
	return r.Bonus
}

// ingredient is a Market stack.
type ingredient struct {
	Code        string
	Stock       int
	Price       int
	Provisional bool
	Discounts   []discount
}

// actionToken is a Black Market stack.
type actionToken struct {
	Code           string
	Stock          int
	Price          int
	Provisional    bool
	Windows        []string
	WindowsBrewing []string
}

// playerParams are the per-player-count parameters (§8.1).
type playerParams struct {
	Display      int
	Target       int
	Capacity     int
	StartDisplay []string
}

// Rules is the validated ruleset the engine plays with.
type Rules struct {
	Version     string
	Provisional bool

	DiceCount  [NumColours]int
	Faces      int
	Seeds      int
	StartCoins int
	StartSeeds int
	StartDice  []int

	Players map[int]playerParams

	OpenBuilding    [NumBuildings]int
	OpenMarket      int
	OpenBlackMarket int

	Speedup   [NumSpaces]int // 0 = no speed-up slot
	BlueMin   [NumSpaces]int // School spaces: minimum blue value of the main die
	ImproveBy int
	DS1Seeds  int
	DS2Seeds  int
	DS3Blue   int
	DS3Black  int

	Ingredients []ingredient
	ingrIndex   map[string]int
	Tokens      []actionToken
	tokenIndex  map[string]int

	UnluckyCredit []int
	UnluckyExtra  int

	SummerSeeds int

	CoinsPerXP int
	XPColour   [NumColours]int
	BrewXP     int
	Tiebreak   []string

	DefaultDie        int
	DefaultTokenOrder []string

	Recipes     []*Recipe
	RecipeIndex map[string]*Recipe
}

// Ingr returns the index of an ingredient code, or -1.
func (r *Rules) Ingr(code string) int {
	if i, ok := r.ingrIndex[code]; ok {
		return i
	}
	return -1
}

// Tok returns the index of an action-token code, or -1.
func (r *Rules) Tok(code string) int {
	if i, ok := r.tokenIndex[code]; ok {
		return i
	}
	return -1
}

// TotalDice returns the number of dice of all colours.
func (r *Rules) TotalDice() int {
	n := 0
	for _, c := range r.DiceCount {
		n += c
	}
	return n
}

// DataFile loads the data file: the embedded default, parsed once, or an
// organiser's, once per SHA-256 (engine.Ruleset).
var DataFile = &engine.Ruleset[*Rules]{Default: DefaultRuleset, Parse: ParseRules}

// RulesetVersion implements engine.Versioned.
func (r *Rules) RulesetVersion() string { return r.Version }

var bad = engine.BadRuleset

var (
	codeRE    = regexp.MustCompile(`^[A-Z][A-Z0-9]{1,11}$`)
	recipeRE  = regexp.MustCompile(`^[A-Z][A-Z0-9]{0,7}$`)
	dieReqRE  = regexp.MustCompile(`^([YKG])([1-9][0-9]?)$`)
	windowSet = map[string]bool{WinW0: true, WinW1: true, WinW2: true, WinW3: true}
)

// reservedWords may not be used as ingredient codes or recipe ids, because
// the command parser would confuse them.
var reservedWords = map[string]bool{
	"ALL": true, "WITH": true, "IMPROVE": true, "USE": true, "GET": true, "SEED": true,
	"THEN": true, "SWAP": true, "REROLL": true, "NONE": true, "ROUND": true, "GAME": true,
	"OFF": true, "PASS": true, "DONE": true, "END": true, "ANY": true,
}

// ParseRules decodes and validates a ruleset file.
func ParseRules(data []byte) (*Rules, error) {
	var f rulesFile
	meta, err := engine.DecodeRuleset(GameName, data, &f)
	if err != nil {
		return nil, err
	}
	r := &Rules{Version: meta.Version, Provisional: meta.Provisional}

	// Components (§2).
	c := f.Components
	r.DiceCount = [NumColours]int{c.DiceY, c.DiceK, c.DiceG, c.DiceB}
	for i, n := range r.DiceCount {
		if n < 1 || n > 60 {
			return nil, bad("components: dice_%s = %d (want 1..60)", strings.ToLower(ColourLetters[i]), n)
		}
	}
	if c.Faces < 2 || c.Faces > 20 {
		return nil, bad("components: faces = %d (want 2..20)", c.Faces)
	}
	r.Faces = c.Faces
	if c.Seeds < 0 || c.Seeds > 60 {
		return nil, bad("components: seeds = %d (want 0..60)", c.Seeds)
	}
	r.Seeds = c.Seeds
	if c.StartCoins < 0 || c.StartCoins > 100 {
		return nil, bad("components: start_coins = %d (want 0..100)", c.StartCoins)
	}
	r.StartCoins = c.StartCoins
	if c.StartSeeds < 0 {
		return nil, bad("components: start_seeds = %d is negative", c.StartSeeds)
	}
	r.StartSeeds = c.StartSeeds
	startCount := [NumColours]int{}
	for _, s := range c.StartDice {
		ci := ColourIndex(s)
		if ci < 0 {
			return nil, bad("components: start_dice has %q (want Y, K, G or B)", s)
		}
		r.StartDice = append(r.StartDice, ci)
		startCount[ci]++
	}

	// Per-player-count parameters (§8.1).
	r.Players = map[int]playerParams{}
	for _, p := range f.Players {
		if p.N < 2 || p.N > 4 {
			return nil, bad("players: n = %d (the game is for 2 to 4 players)", p.N)
		}
		if _, dup := r.Players[p.N]; dup {
			return nil, bad("players: n = %d is given twice", p.N)
		}
		if p.Display < 1 || p.Display > 10 {
			return nil, bad("players n=%d: display = %d (want 1..10)", p.N, p.Display)
		}
		if p.Target < 1 {
			return nil, bad("players n=%d: target = %d (want at least 1)", p.N, p.Target)
		}
		if p.Capacity < 1 || p.Capacity > p.N {
			return nil, bad("players n=%d: capacity = %d (want 1..%d)", p.N, p.Capacity, p.N)
		}
		if len(p.StartDisplay) != p.Display {
			return nil, bad("players n=%d: start_display has %d cards for %d display slots", p.N, len(p.StartDisplay), p.Display)
		}
		for i, col := range startCount {
			if col*p.N > r.DiceCount[i] {
				return nil, bad("players n=%d: start_dice needs %d %s dice, the game has %d", p.N, col*p.N, ColourLetters[i], r.DiceCount[i])
			}
		}
		if c.StartSeeds*p.N > r.Seeds {
			return nil, bad("players n=%d: start_seeds needs %d seeds, the game has %d", p.N, c.StartSeeds*p.N, r.Seeds)
		}
		r.Players[p.N] = playerParams{Display: p.Display, Target: p.Target, Capacity: p.Capacity, StartDisplay: p.StartDisplay}
	}
	for n := 2; n <= 4; n++ {
		if _, ok := r.Players[n]; !ok {
			return nil, bad("players: no entry for n = %d", n)
		}
	}

	// Availability (DB-4.3).
	o := f.Open
	r.OpenBuilding = [NumBuildings]int{o.MH, o.HP, o.SS, o.DS}
	for i, v := range r.OpenBuilding {
		if v < 1 || v > 99 {
			return nil, bad("open: %s = %d (want a round 1..99)", BuildingNames[i], v)
		}
	}
	if o.Market < 1 || o.Market > 99 || o.BlackMarket < 1 || o.BlackMarket > 99 {
		return nil, bad("open: market = %d, black_market = %d (want rounds 1..99)", o.Market, o.BlackMarket)
	}
	r.OpenMarket, r.OpenBlackMarket = o.Market, o.BlackMarket

	// Spaces (§8.2).
	s := f.Spaces
	speed := map[int]int{SpMH1: s.MH1Speedup, SpMH2: s.MH2Speedup, SpMH3: s.MH3Speedup, SpHP1: s.HP1Speedup,
		SpHP2: s.HP2Speedup, SpDS1: s.DS1Speedup, SpDS2: s.DS2Speedup, SpDS3: s.DS3Speedup}
	for sp, v := range speed {
		if v < 0 || v > r.Faces {
			return nil, bad("spaces: %s_speedup = %d (want 0..%d; 0 = no speed-up slot)", SpaceNames[sp], v, r.Faces)
		}
		r.Speedup[sp] = v
	}
	for sp, v := range map[int]int{SpSS1: s.SS1BlueMin, SpSS2: s.SS2BlueMin, SpSS3: s.SS3BlueMin} {
		if v < 1 || v > r.Faces {
			return nil, bad("spaces: %s_blue_min = %d (want 1..%d)", SpaceNames[sp], v, r.Faces)
		}
		r.BlueMin[sp] = v
	}
	if s.ImproveBy < 1 || s.ImproveBy >= r.Faces {
		return nil, bad("spaces: improve_by = %d (want 1..%d)", s.ImproveBy, r.Faces-1)
	}
	r.ImproveBy = s.ImproveBy
	if s.DS1Seeds < 1 || s.DS2Seeds < 1 || s.DS1Seeds > r.Seeds || s.DS2Seeds > r.Seeds {
		return nil, bad("spaces: DS1_seeds = %d, DS2_seeds = %d (want 1..%d)", s.DS1Seeds, s.DS2Seeds, r.Seeds)
	}
	r.DS1Seeds, r.DS2Seeds = s.DS1Seeds, s.DS2Seeds
	if s.DS3CoinsBlue < 0 || s.DS3CoinsBlack < 0 {
		return nil, bad("spaces: DS3 coins must not be negative")
	}
	r.DS3Blue, r.DS3Black = s.DS3CoinsBlue, s.DS3CoinsBlack

	// Market (§8.3).
	r.ingrIndex = map[string]int{}
	if len(f.Ingredients) < 1 || len(f.Ingredients) > 12 {
		return nil, bad("ingredient: %d stacks (want 1..12)", len(f.Ingredients))
	}
	for i, in := range f.Ingredients {
		if !codeRE.MatchString(in.Code) || reservedWords[in.Code] || ColourIndex(in.Code) >= 0 {
			return nil, bad("ingredient: bad code %q (2-12 capitals and digits, not a keyword)", in.Code)
		}
		if _, dup := r.ingrIndex[in.Code]; dup {
			return nil, bad("ingredient: %s is given twice", in.Code)
		}
		if in.Stock < 0 || in.Stock > 99 || in.Price < 0 || in.Price > 99 {
			return nil, bad("ingredient %s: stock = %d, price = %d (want 0..99)", in.Code, in.Stock, in.Price)
		}
		for _, d := range in.Discounts {
			if d.BlueMin < 1 || d.BlueMin > r.Faces || d.Minus < 1 {
				return nil, bad("ingredient %s: discount blue_min = %d, minus = %d (want blue_min 1..%d, minus >= 1)", in.Code, d.BlueMin, d.Minus, r.Faces)
			}
		}
		r.ingrIndex[in.Code] = i
		r.Ingredients = append(r.Ingredients, ingredient{Code: in.Code, Stock: in.Stock, Price: in.Price, Provisional: in.Provisional, Discounts: in.Discounts})
	}

	// Black Market (§8.4).
	r.tokenIndex = map[string]int{}
	for _, t := range f.ActionTokens {
		known := false
		for _, k := range tokenCodes {
			if k == t.Code {
				known = true
			}
		}
		if !known {
			return nil, bad("action_token: unknown code %q (want one of %s)", t.Code, strings.Join(tokenCodes, ", "))
		}
		if _, dup := r.tokenIndex[t.Code]; dup {
			return nil, bad("action_token: %s is given twice", t.Code)
		}
		if _, clash := r.ingrIndex[t.Code]; clash {
			return nil, bad("action_token: %s is also an ingredient code", t.Code)
		}
		if t.Stock < 0 || t.Stock > 99 || t.Price < 0 || t.Price > 99 {
			return nil, bad("action_token %s: stock = %d, price = %d (want 0..99)", t.Code, t.Stock, t.Price)
		}
		for _, w := range append(append([]string(nil), t.Windows...), t.WindowsBrewing...) {
			if !windowSet[w] {
				return nil, bad("action_token %s: unknown window %q (want W0, W1, W2 or W3)", t.Code, w)
			}
		}
		if len(t.Windows) == 0 {
			return nil, bad("action_token %s: no windows", t.Code)
		}
		if t.Code == TokBLOCKR && (len(t.Windows) != 1 || t.Windows[0] != WinW3) {
			return nil, bad("action_token BLOCKR: windows must be [\"W3\"] (a recipe is blocked for the brewing, DB-5.8.6)")
		}
		if t.Code == TokBLOCKB {
			for _, w := range t.Windows {
				if w != WinW0 {
					return nil, bad("action_token BLOCKB: windows must be [\"W0\"] (it forbids placing, DB-5.8.5)")
				}
			}
			if len(t.WindowsBrewing) == 0 {
				return nil, bad("action_token BLOCKB: windows_brewing is required (block_building_timing = brewing)")
			}
			for _, w := range t.WindowsBrewing {
				if w != WinW3 {
					return nil, bad("action_token BLOCKB: windows_brewing must be [\"W3\"] (it cancels pending effects, DB-5.8.5)")
				}
			}
		} else if len(t.WindowsBrewing) > 0 {
			return nil, bad("action_token %s: windows_brewing is only for BLOCKB", t.Code)
		}
		r.tokenIndex[t.Code] = len(r.Tokens)
		r.Tokens = append(r.Tokens, actionToken{Code: t.Code, Stock: t.Stock, Price: t.Price, Provisional: t.Provisional,
			Windows: t.Windows, WindowsBrewing: t.WindowsBrewing})
	}
	if len(r.Tokens) != len(tokenCodes) {
		return nil, bad("action_token: %d stacks, want the %d types %s", len(r.Tokens), len(tokenCodes), strings.Join(tokenCodes, ", "))
	}

	// Unlucky roll (DB-5.7.9).
	u := f.Unlucky
	if len(u.Credit) < 1 || u.ExtraPerDie < 0 {
		return nil, bad("unlucky: credit needs at least one value and extra_per_die >= 0")
	}
	for i, v := range u.Credit {
		if v < 0 || (i > 0 && v < u.Credit[i-1]) {
			return nil, bad("unlucky: credit must be non-negative and non-decreasing: %v", u.Credit)
		}
	}
	r.UnluckyCredit, r.UnluckyExtra = u.Credit, u.ExtraPerDie

	if f.Season.SummerSeeds < 0 {
		return nil, bad("season: summer_seeds = %d is negative", f.Season.SummerSeeds)
	}
	r.SummerSeeds = f.Season.SummerSeeds

	// Scoring (DB-7.2, DB-7.4).
	sc := f.Scoring
	if sc.CoinsPerXP < 1 {
		return nil, bad("scoring: coins_per_xp = %d (want at least 1)", sc.CoinsPerXP)
	}
	r.CoinsPerXP = sc.CoinsPerXP
	r.XPColour = [NumColours]int{sc.XPY, sc.XPK, sc.XPG, sc.XPB}
	for i, v := range r.XPColour {
		if v < 0 {
			return nil, bad("scoring: xp_%s = %d is negative", strings.ToLower(ColourLetters[i]), v)
		}
	}
	if sc.BrewXP < 0 {
		return nil, bad("scoring: brew_xp = %d is negative", sc.BrewXP)
	}
	r.BrewXP = sc.BrewXP
	for _, t := range sc.Tiebreak {
		if t != "recipes" && t != "resource_dice" && t != "coins" {
			return nil, bad("scoring: unknown tiebreak %q (want recipes, resource_dice or coins)", t)
		}
	}
	r.Tiebreak = sc.Tiebreak

	// Defaults (DB-10.6).
	d := f.Defaults
	r.DefaultDie = ColourIndex(d.Die)
	if r.DefaultDie < 0 {
		return nil, bad("defaults: die = %q (want Y, K, G or B)", d.Die)
	}
	if len(d.TokenOrder) != len(tokenCodes) {
		return nil, bad("defaults: token_order must list the %d token types once each", len(tokenCodes))
	}
	seenTok := map[string]bool{}
	for _, t := range d.TokenOrder {
		if r.Tok(t) < 0 || seenTok[t] {
			return nil, bad("defaults: token_order must list the %d token types once each (bad %q)", len(tokenCodes), t)
		}
		seenTok[t] = true
	}
	r.DefaultTokenOrder = d.TokenOrder

	// Coins (§8.6): informative only, but still checked.
	for _, cn := range f.Coins {
		if cn.Count < 0 || len(cn.Sides) != 2 || cn.Sides[0] < 1 || cn.Sides[1] < 1 {
			return nil, bad("coin: count = %d, sides = %v (want two positive sides)", cn.Count, cn.Sides)
		}
	}

	// Recipes (§8.7).
	r.RecipeIndex = map[string]*Recipe{}
	levels := map[string]bool{"beginner": true, "intermediate": true, "expert": true, "experimental": true}
	setups := map[string]bool{"start": true, "start4": true, "deck": true}
	for _, rc := range f.Recipes {
		if !recipeRE.MatchString(rc.ID) || reservedWords[rc.ID] || r.Ingr(rc.ID) >= 0 || r.Tok(rc.ID) >= 0 || ColourIndex(rc.ID) >= 0 || LooksLikeDie(rc.ID) {
			return nil, bad("recipe: bad id %q (1-8 capitals and digits, not a keyword, code or die)", rc.ID)
		}
		if _, dup := r.RecipeIndex[rc.ID]; dup {
			return nil, bad("recipe: %s is given twice", rc.ID)
		}
		if rc.Name == "" {
			return nil, bad("recipe %s: no name", rc.ID)
		}
		if !levels[rc.Level] {
			return nil, bad("recipe %s: level %q (want beginner, intermediate, expert or experimental)", rc.ID, rc.Level)
		}
		if !setups[rc.Setup] {
			return nil, bad("recipe %s: setup %q (want start, start4 or deck)", rc.ID, rc.Setup)
		}
		rec := &Recipe{Index: len(r.Recipes), ID: rc.ID, Name: rc.Name, Style: rc.Style, Level: rc.Level, Setup: rc.Setup, Provisional: rc.Provisional,
			Reward: rc.Reward, Bonus: rc.Bonus, Improve: rc.Improve}
		if len(rc.Dice) == 0 && len(rc.Tokens) == 0 {
			return nil, bad("recipe %s: the base recipe is empty", rc.ID)
		}
		need := [NumColours]int{}
		for _, dt := range rc.Dice {
			m := dieReqRE.FindStringSubmatch(dt)
			if m == nil {
				return nil, bad("recipe %s: bad die %q (want Y, K or G and a minimum, like K5)", rc.ID, dt)
			}
			v, _ := strconv.Atoi(m[2])
			if v < 1 || v > r.Faces {
				return nil, bad("recipe %s: die %s asks for more than %d", rc.ID, dt, r.Faces)
			}
			ci := ColourIndex(m[1])
			need[ci]++
			rec.Dice = append(rec.Dice, Req{C: ci, Min: v})
			rec.DiceText = append(rec.DiceText, dt)
		}
		for ci, n := range need {
			if n > r.DiceCount[ci] {
				return nil, bad("recipe %s: needs %d %s dice, the game has %d", rc.ID, n, ColourLetters[ci], r.DiceCount[ci])
			}
		}
		tokNeed := map[int]int{}
		for _, t := range rc.Tokens {
			i := r.Ingr(t)
			if i < 0 {
				return nil, bad("recipe %s: unknown ingredient %q", rc.ID, t)
			}
			tokNeed[i]++
			if tokNeed[i] > r.Ingredients[i].Stock {
				return nil, bad("recipe %s: needs more %s than the Market stocks", rc.ID, t)
			}
			rec.Tokens = append(rec.Tokens, i)
		}
		for _, g := range []GainSpec{rc.Reward, rc.Bonus} {
			if err := r.checkGain(rc.ID, g); err != nil {
				return nil, err
			}
		}
		if rc.Reward.empty() {
			return nil, bad("recipe %s: no reward", rc.ID)
		}
		seenImp := map[string]bool{}
		blue := false
		for _, im := range rc.Improve {
			switch {
			case im.Token != "" && im.BlueMin != 0:
				return nil, bad("recipe %s: an improve entry names both a token and blue_min", rc.ID)
			case im.Token != "":
				if r.Ingr(im.Token) < 0 {
					return nil, bad("recipe %s: improve names unknown ingredient %q", rc.ID, im.Token)
				}
				if seenImp[im.Token] {
					return nil, bad("recipe %s: improve lists %s twice", rc.ID, im.Token)
				}
				seenImp[im.Token] = true
			case im.BlueMin >= 1 && im.BlueMin <= r.Faces:
				if blue {
					return nil, bad("recipe %s: improve lists two blue dice", rc.ID)
				}
				blue = true
			default:
				return nil, bad("recipe %s: improve entry needs a token or blue_min 1..%d", rc.ID, r.Faces)
			}
			if im.Bonus != nil {
				if err := r.checkGain(rc.ID, *im.Bonus); err != nil {
					return nil, err
				}
			}
		}
		if len(rc.Improve) > 0 && rc.Bonus.empty() {
			for _, im := range rc.Improve {
				if im.Bonus == nil {
					return nil, bad("recipe %s: improvements but no bonus", rc.ID)
				}
			}
		}
		r.Recipes = append(r.Recipes, rec)
		r.RecipeIndex[rc.ID] = rec
	}
	for n := 2; n <= 4; n++ {
		p := r.Players[n]
		in := map[string]bool{}
		for _, id := range p.StartDisplay {
			rec := r.RecipeIndex[id]
			if rec == nil {
				return nil, bad("players n=%d: start_display names unknown recipe %q", n, id)
			}
			if in[id] {
				return nil, bad("players n=%d: start_display names %s twice", n, id)
			}
			in[id] = true
			if rec.Setup == "deck" || (rec.Setup == "start4" && n != 4) {
				return nil, bad("players n=%d: start_display has %s whose setup is %q", n, id, rec.Setup)
			}
		}
		for _, rec := range r.Recipes {
			if (rec.Setup == "start" || (rec.Setup == "start4" && n == 4)) && !in[rec.ID] {
				return nil, bad("players n=%d: recipe %s (setup %q) is missing from start_display", n, rec.ID, rec.Setup)
			}
		}
		if len(r.Recipes) < p.Display {
			return nil, bad("players n=%d: %d recipes cannot fill %d display slots", n, len(r.Recipes), p.Display)
		}
	}
	return r, nil
}

// checkGain validates a reward or bonus.
func (r *Rules) checkGain(id string, g GainSpec) error {
	if g.XP < 0 || g.Coins < 0 || g.Tokens < 0 || g.Tokens > 6 {
		return bad("recipe %s: reward or bonus has a negative value or too many tokens", id)
	}
	if g.Die != "" && g.Die != "ANY" && ColourIndex(g.Die) < 0 {
		return bad("recipe %s: reward die %q (want Y, K, G, B or ANY)", id, g.Die)
	}
	return nil
}

// LooksLikeDie reports whether a word would parse as a die reference.
func LooksLikeDie(w string) bool {
	_, _, ok := SplitColourValue(w)
	return ok
}

// ColourIndex returns the colour of a letter or synonym (§10.3), or -1.
func ColourIndex(s string) int {
	switch strings.ToUpper(s) {
	case "Y", "L", "YEL":
		return ColY
	case "K", "D", "BLK":
		return ColK
	case "G", "H", "GRN":
		return ColG
	case "B", "S", "BLU":
		return ColB
	}
	return -1
}

func (r *Rules) TotalTokens() int {
	n := 0
	for _, t := range r.Tokens {
		n += t.Stock
	}
	return n
}

// unluckyCredit returns the credit for n qualifying dice (DB-5.7.9, §9 A-17).
func (r *Rules) UnluckyCreditFor(n int) int {
	if n < 0 {
		return 0
	}
	if n < len(r.UnluckyCredit) {
		return r.UnluckyCredit[n]
	}
	last := len(r.UnluckyCredit) - 1
	return r.UnluckyCredit[last] + r.UnluckyExtra*(n-last)
}
