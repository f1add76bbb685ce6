package view

// View is what one seat may see (§10.4, DB-6.2 to DB-6.6); seat -1 is an
// observer, who sees the public information only. Templates render it as
// the personalised summary.
type View struct {
	Seat        int               `json:"seat"`        // the reader's seat, -1 for an observer
	Seats       []string          `json:"seats"`       // the players' names by seat
	Variant     string            `json:"variant"`     // the variant played
	Options     map[string]string `json:"options"`     // the game's options
	Ruleset     string            `json:"ruleset"`     // the version of the data file
	Provisional bool              `json:"provisional"` // some data is PROVISIONAL

	Round    int    `json:"round"`            // the round number
	Summer   bool   `json:"summer"`           // the Season token shows Summer
	Step     string `json:"step"`             // w0, place, buy, w3, brew, over
	Sub      string `json:"sub,omitempty"`    // second, reroll, reward
	Window   string `json:"window,omitempty"` // W0 or W3 during a window
	Priority int    `json:"priority"`         // the seat holding the Season/Priority token
	Order    []int  `json:"order"`            // the player order, by seat
	// Turn is the seat to act (-1: none) and Kind its decision kind;
	// MyTurn tells the reader it is asked now.
	Turn     int    `json:"turn"`
	TurnName string `json:"turn_name"` // the name of the seat to act
	Kind     string `json:"kind"`
	MyTurn   bool   `json:"my_turn"`
	// Example is a legal command the reader could send now (their own
	// decision only), for the prompt (§10.5).
	Example string `json:"example,omitempty"`
	// Toward gives, by an option's canonical command, the recipes on
	// display the option brings closer to brewing (the reader's own
	// decision only; toward.go): what it gives toward the reader's goal.
	Toward map[string][]string `json:"toward,omitempty"`
	// Costs gives, by an option's canonical command, the recipes on
	// display that lose a die the option pays (toward.go).
	Costs map[string][]string `json:"costs,omitempty"`

	Target   int `json:"target"`    // the end trigger T (DB-1.3)
	Brewed   int `json:"brewed"`    // recipes brewed by all players
	DeckSize int `json:"deck_size"` // cards left in the deck (its order is hidden)
	Capacity int `json:"capacity"`  // players per space per round (N-1)

	Supply      SupplyView   `json:"supply"`       // the general supply
	MarketOpen  bool         `json:"market_open"`  // the Market is open this round
	MarketOpens int          `json:"market_opens"` // the round it opens
	Market      []MarketItem `json:"market"`       // the ingredient stacks
	BMOpen      bool         `json:"bm_open"`      // the Black Market is open this round
	BMOpens     int          `json:"bm_opens"`     // the round it opens
	BlackMarket []BMItem     `json:"black_market"` // the action-token stacks
	// BMFaceDown: with hidden action tokens (DB-6.6), how many of the
	// tokens counted in BlackMarket's stocks are in fact held face down by
	// the other players (their types hidden from the reader).
	BMFaceDown int        `json:"bm_face_down,omitempty"`
	Display    []CardView `json:"display"` // the face-up recipes, by slot

	// Me is the reader's own complete data (nil for an observer).
	Me *PlayerView `json:"me,omitempty"`
	// Players are every seat's public data, in seat order (the reader's
	// own entry is complete too).
	Players []PlayerView `json:"players"`

	Picked []string    `json:"picked,omitempty"` // SS1 dice picked so far
	Reward string      `json:"reward,omitempty"` // card whose reward choice is pending
	Needs  []string    `json:"needs,omitempty"`  // its choices still to make
	Over   bool        `json:"over"`             // the game has ended
	Scores []ScoreView `json:"scores,omitempty"` // the final scores, once over
	// Projected: the scores if the game ended now (DB-7.2, as ADJUDICATE
	// scores it), while it runs: where each player stands (issue 22).
	Projected []ScoreView `json:"projected,omitempty"`

	// Heads gives, by a menu group's code (menu.go), what the group's
	// heading says of the reader's position (the templates'
	// option.group): a group without an entry reads the zero HeadView.
	// For the templates only, never in the JSON: a heading indexes it by
	// its option's own group, so its text is kept from one mail to the
	// next by that value (issue 25, templates.Tmpl.OptionKeyed).
	Heads map[string]HeadView `json:"-"`
}

// HeadView is what the heading of one menu group reads of the view
// (heads): the same for every option of the group.
type HeadView struct {
	// Listed: an option of the group says what it helps brew or costs
	// (a key of Toward or Costs starts with the group and a space), so
	// the group lists one option a line.
	Listed bool
	// Speedup: PLACE <space>+, the speed-up threshold of the space.
	Speedup int
	// Card: BREW <card>, the card on display.
	Card CardView
}

// SupplyView counts the general supply (DB-6.2).
type SupplyView struct {
	Y     int `json:"y"`     // yellow dice
	K     int `json:"k"`     // black dice
	G     int `json:"g"`     // green dice
	B     int `json:"b"`     // blue dice
	Seeds int `json:"seeds"` // seeds
}

// MarketItem is one Market stack (DB-5.7.3, DB-5.7.4).
type MarketItem struct {
	Code        string   `json:"code"`                // the ingredient
	Stock       int      `json:"stock"`               // tokens left
	Price       int      `json:"price"`               // the listed price
	Discounts   []string `json:"discounts,omitempty"` // "B>=4 -1"
	MyPrice     int      `json:"my_price"`            // the reader's best price
	MyWith      string   `json:"my_with,omitempty"`   // the blue die that gives it
	Provisional bool     `json:"provisional"`         // the price is PROVISIONAL
}

// BMItem is one Black Market stack.
type BMItem struct {
	Code  string `json:"code"`  // the action token
	Stock int    `json:"stock"` // tokens left, as the reader may know (DB-6.6: see stockFor)
	Price int    `json:"price"` // the price
	// Gone: the stack is in fact empty though Stock counts others'
	// face-down tokens; set only for a reader who owes a purchase or a
	// reward choice now, whose own options say so anyway (DB-6.6, doc.go).
	Gone        bool     `json:"gone,omitempty"`
	Windows     []string `json:"windows"`     // where it may be played
	Provisional bool     `json:"provisional"` // the price is PROVISIONAL
}

// CardView is a face-up recipe card, with what it means for the reader.
type CardView struct {
	Slot        int      `json:"slot"`                   // display slot, from 1
	ID          string   `json:"id"`                     // card id; "" for an empty slot
	Name        string   `json:"name"`                   // the beer
	Style       string   `json:"style"`                  // the style
	Level       string   `json:"level"`                  // beginner, intermediate, expert, experimental
	Base        []string `json:"base"`                   // required dice, "K5"
	Tokens      []string `json:"tokens,omitempty"`       // required ingredients
	Reward      GainView `json:"reward"`                 // the reward
	Improve     []string `json:"improve,omitempty"`      // accepted improvements, "B>=4", "SMALT"
	Bonus       GainView `json:"bonus"`                  // what an improvement earns
	Blocked     bool     `json:"blocked"`                // BLOCKR this round
	BlockedBy   int      `json:"blocked_by"`             // who played the BLOCKR, -1 none
	Provisional bool     `json:"provisional"`            // the card's data is PROVISIONAL
	CanBrew     bool     `json:"can_brew"`               // the reader can brew it now from ST
	Use         []string `json:"use,omitempty"`          // with these dice
	Missing     []string `json:"missing,omitempty"`      // what the reader lacks
	ImproveWith []string `json:"improve_with,omitempty"` // improvements the reader holds
}

// GainView is a reward or a bonus.
type GainView struct {
	XP     int    `json:"xp"`     // experience points
	Coins  int    `json:"coins"`  // coins
	Die    string `json:"die"`    // a die colour, ANY, or ""
	Tokens int    `json:"tokens"` // action tokens of the player's choice
}

// DieView is one die as players read it.
type DieView struct {
	Text   string `json:"text"`             // "Y4", "K3+" (PLUS), "B?" (not rolled yet)
	Colour string `json:"colour"`           // Y, K, G or B
	Face   int    `json:"face"`             // the face showing, 0 if not rolled
	Value  int    `json:"value"`            // the face, +1 with a PLUS
	Plus   bool   `json:"plus"`             // a PLUS token applies
	Shield string `json:"shield,omitempty"` // "protected" or "blocked"
	By     int    `json:"by"`               // the seat that played the SHIELD
	Rolled bool   `json:"rolled"`           // rolled this round (unlucky roll)
}

// SpaceView is one board space of one player.
type SpaceView struct {
	Space    string `json:"space"`           // MH1 ... DS3
	Building string `json:"building"`        // MH, HP, SS or DS
	Item     string `json:"item,omitempty"`  // the main item waiting: "SEED" or a die
	Speed    string `json:"speed,omitempty"` // the speed-up die
	Used     bool   `json:"used"`            // used by this player this round
	Done     bool   `json:"done"`            // its effect has resolved
	// Free says whether the player may still put a main item here this
	// round; Why says why not: closed, blockb, used, full.
	Free    bool   `json:"free"`
	Why     string `json:"why,omitempty"`
	Users   []int  `json:"users,omitempty"` // who used the space this round
	Speedup int    `json:"speedup"`         // speed-up threshold, 0 = none
}

// PlayerView is one player's data. Tokens is nil when hidden (DB-6.6);
// AutoStore and TokensNone are the reader's own standing orders.
type PlayerView struct {
	Seat        int         `json:"seat"`                        // the seat
	Name        string      `json:"name"`                        // the player's name
	Rank        int         `json:"rank"`                        // place in the player order
	Priority    bool        `json:"priority"`                    // holds the Season/Priority token
	Coins       int         `json:"coins"`                       // coins
	XP          int         `json:"xp"`                          // experience points so far
	Seeds       int         `json:"seeds"`                       // seeds in ST
	AR          []DieView   `json:"ar"`                          // Active Reserve
	ST          []DieView   `json:"st"`                          // Storage
	MarketDie   string      `json:"market_die,omitempty"`        // the blue die on the Market
	Ingredients []CodeCount `json:"ingredients,omitempty"`       // special ingredients
	Tokens      []CodeCount `json:"tokens,omitempty"`            // action tokens (nil when hidden)
	TokenCount  int         `json:"token_count"`                 // how many action tokens
	Brewed      []string    `json:"brewed,omitempty"`            // recipes brewed
	Board       []SpaceView `json:"board"`                       // the 11 spaces
	BlockedB    []string    `json:"blocked_buildings,omitempty"` // "MH:bob": BLOCKB on this board
	// Blocks are BlockedB by seat: the building and the seat that played
	// the BLOCKB, for the name of who holds it now (issue 24; not in the
	// JSON, whose strings keep the names the engine knows).
	Blocks     []BlockView `json:"-"`
	Passed     bool        `json:"passed"`                // passed in Phase 1
	BoughtM    bool        `json:"bought_m"`              // bought an ingredient
	BoughtBM   bool        `json:"bought_bm"`             // bought an action token
	BuyDone    bool        `json:"buy_done"`              // purchase turn over
	BrewPassed bool        `json:"brew_passed"`           // passed in this brewing phase
	Swapped    bool        `json:"swapped"`               // used SS2 this round
	Unlucky    int         `json:"unlucky"`               // dice that count for the unlucky roll
	Credit     int         `json:"credit"`                // unlucky credit left this phase
	AutoStore  string      `json:"autostore,omitempty"`   // the reader's AUTOSTORE order
	TokensNone string      `json:"tokens_none,omitempty"` // the reader's TOKENS NONE order
}

// CodeCount is a number of tokens of one code.
type CodeCount struct {
	Code string `json:"code"` // the ingredient or token code
	N    int    `json:"n"`    // how many
}

// ScoreView is one seat's final score.
type ScoreView struct {
	Seat  int            `json:"seat"`  // the seat
	Name  string         `json:"name"`  // the player's name
	Rank  int            `json:"rank"`  // the final place, 1 = winner
	Total int            `json:"total"` // the total score
	Parts map[string]int `json:"parts"` // xp, coins, dice_y, dice_k, dice_g, dice_b
}

// BlockView is a building of a board closed by a BLOCKB this round and the
// seat that played it.
type BlockView struct {
	Building string
	Seat     int
}
