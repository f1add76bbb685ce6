package position

import (
	"fmt"
	"sort"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
)

// Option names (DB-1.5).
const (
	OptSetup   = "recipe_setup"
	OptHidden  = "hidden_action_tokens"
	OptUnlucky = "unlucky_roll"
	OptBlockB  = "block_building_timing"
	OptFirst   = "first_player"
	OptLimit   = "round_limit"
)

// Decision kinds (documented in doc.go; templates key prompts on them).
const (
	KindWindow = "window" // a W0 or W3 window turn: PLAY one token or DONE
	KindPlace  = "place"  // a placement turn: PLACE (1-2 items), PLAY (W1) or PASS
	KindSecond = "second" // the second item of a turn begun with PLACE ... THEN
	KindReroll = "reroll" // the dice of a School reroll (SS1): PICK / REROLL
	KindBuy    = "buy"    // the purchase turn: BUY, PLAY (W2), NOBUY
	KindBrew   = "brew"   // a brewing turn: BREW or PASS
	KindReward = "reward" // a reward choice: GET
)

// Die locations (DB-2.1).
const (
	LocSupply = iota // the general supply
	LocAR            // the owner's Active Reserve
	LocST            // the owner's Storage
	LocBoard         // a slot of the owner's board
	LocMarket        // the Market card (a blue discount die, DB-5.7.4)
)

// The steps of a round (DB-1.4, §4.1).
const (
	StepW0    = "w0"    // opening token window of Phase 1 (DB-5.8.3)
	StepPlace = "place" // Phase 1 placement turns (DB-5.3)
	StepBuy   = "buy"   // Phase 2 purchase turns (DB-5.7)
	StepW3    = "w3"    // opening token window of Phase 3 (DB-5.8.3)
	StepBrew  = "brew"  // Phase 3 brewing turns (DB-5.9)
	StepOver  = "over"  // the game has ended (§7)
)

// Sub-steps inside a placement or brewing turn.
const (
	SubNone   = ""
	SubSecond = "second" // the turn's second item (after PLACE ... THEN)
	SubReroll = "reroll" // choosing the dice of a School reroll (SS1)
	SubReward = "reward" // choosing a die colour or an action token reward
)

// TOKENS NONE scopes (Player.TokensNone).
const (
	TNNone  = 0
	TNRound = 1
	TNGame  = 2
)

// Die is one physical die. Dice are numbered by colour in ruleset order.
type Die struct {
	C    int  `json:"c"`           // colour index (Y, K, G, B)
	F    int  `json:"f"`           // face showing; 0 = not rolled yet
	O    int  `json:"o"`           // owner seat; -1 in the supply
	L    int  `json:"l"`           // location (loc*)
	S    int  `json:"s,omitempty"` // board space, when on the board
	Up   bool `json:"u,omitempty"` // in the space's speed-up slot
	Plus bool `json:"p,omitempty"` // PLUS token this round (DB-5.8.8)
	Sh   int  `json:"h,omitempty"` // SHIELD this round: seat+1 of the player who played it (DB-5.8.9)
	R    bool `json:"r,omitempty"` // rolled this round (DB-5.2.2)
}

// Space is one board space of one player for the current round.
type Space struct {
	Used bool `json:"u,omitempty"` // a main item was put here this round (DB-5.4.2)
	Seed bool `json:"s,omitempty"` // the main item is a seed still waiting
	Done bool `json:"d,omitempty"` // the main item's effect has resolved
}

// Player is one seat's holdings and round flags.
type Player struct {
	Coins  int      `json:"coins"`
	XP     int      `json:"xp"`
	Seeds  int      `json:"seeds"`
	Ingr   []int    `json:"ingr"`             // special ingredients by index
	Tok    []int    `json:"tok"`              // owned action tokens by type index
	Brewed []string `json:"brewed,omitempty"` // brewed recipe cards, in order

	Board [catalog.NumSpaces]Space `json:"board"`

	Passed     bool                      `json:"passed,omitempty"`      // passed in Phase 1 (DB-5.3.7)
	Turns      int                       `json:"turns,omitempty"`       // placement turns taken this round
	BoughtM    bool                      `json:"bought_m,omitempty"`    // bought an ingredient this round
	BoughtBM   bool                      `json:"bought_bm,omitempty"`   // bought an action token this round
	BuyDone    bool                      `json:"buy_done,omitempty"`    // purchase turn over (DB-5.7.1)
	Swapped    bool                      `json:"swapped,omitempty"`     // used SS2 this round (DB-5.5.7)
	CreditUsed int                       `json:"credit_used,omitempty"` // unlucky-roll credit spent (DB-5.7.9)
	WinDone    bool                      `json:"win_done,omitempty"`    // said DONE in the current window
	BrewPass   int                       `json:"brew_pass"`             // reveal count at the last brewing pass, -1 if none
	BrewSkip   bool                      `json:"brew_skip,omitempty"`   // skipped (nothing brewable) since the last reveal
	BlockB     [catalog.NumBuildings]int `json:"blockb"`                // BLOCKB on this board: seat+1 of the player, 0 none
	AutoStore  int                       `json:"autostore,omitempty"`   // AUTOSTORE threshold, 0 = off
	AutoStoreB bool                      `json:"autostore_b,omitempty"` // AUTOSTORE includes blue dice
	TokensNone int                       `json:"tokens_none,omitempty"` // TOKENS NONE standing order (tn*)
}

// RewardPending is a brew whose reward choices are still to be made.
type RewardPending struct {
	Card  string   `json:"card"`
	Needs []string `json:"needs"` // "die" or "token", in order
}

// Position is a game of Dice Brewing in progress: every piece and flag of
// the game, the stored JSON of its state (engine/dicebrewing embeds it in
// its State).
type Position struct {
	H engine.Header `json:"head"`

	N        int            `json:"n"`
	Round    int            `json:"round"`
	Summer   bool           `json:"summer"`   // the Season token's side up (DB-5.11)
	Priority int            `json:"priority"` // seat holding the Season/Priority token
	Step     string         `json:"step"`
	Cur      int            `json:"cur"`           // seat to act, -1 none
	From     int            `json:"from"`          // rank from which the next turn is searched
	Sub      string         `json:"sub,omitempty"` // sub-step of the current turn
	Picked   []int          `json:"picked,omitempty"`
	PickThen bool           `json:"pick_then,omitempty"`
	Reward   *RewardPending `json:"reward,omitempty"`

	Dice       []Die                  `json:"dice"`
	SeedSupply int                    `json:"seed_supply"`
	Market     []int                  `json:"market"`  // ingredient stocks by index
	BM         []int                  `json:"bm"`      // action-token stocks by index
	Removed    []int                  `json:"removed"` // used action tokens, removed from the game (DB-5.8.2)
	Display    []string               `json:"display"` // face-up cards by slot; "" = empty slot
	Deck       []string               `json:"deck"`    // face-down deck, top first (hidden, DB-6.3)
	BrewedAll  int                    `json:"brewed_all"`
	BlockedR   []string               `json:"blocked_r,omitempty"` // cards blocked this round (DB-5.8.6)
	BlockRBy   []int                  `json:"blocked_r_by,omitempty"`
	Uses       [catalog.NumSpaces]int `json:"uses"`              // players who used each space this round (DB-5.4.3)
	Reveals    int                    `json:"reveals"`           // cards revealed so far (DB-5.9.7)
	Trigger    bool                   `json:"trigger,omitempty"` // the end trigger was reached (DB-5.9.9)

	P []Player `json:"players"`

	// Rules is the ruleset the game is played with (not stored: the
	// State is decoded with it).
	Rules *catalog.Rules `json:"-"`
}

// Value is the die's value: its face, plus 1 with a PLUS token (vocabulary).
func (d *Die) Value() int {
	if d.Plus {
		return d.F + 1
	}
	return d.F
}

// Blocked reports whether the die is SHIELD-blocked for its owner: an
// opponent shielded it (DB-5.8.9).
func (d *Die) Blocked() bool { return d.Sh != 0 && d.Sh-1 != d.O }

// ProtectedFrom reports whether the die is protected against actor: its
// owner shielded it and actor is somebody else (DB-5.8.9, §9 A-12).
func (d *Die) ProtectedFrom(actor int) bool { return d.Sh != 0 && d.Sh-1 == d.O && actor != d.O }

// Order returns the player order: the priority holder first, then clockwise
// (DB-4.2).
func (s *Position) Order() []int {
	o := make([]int, s.N)
	for i := range o {
		o[i] = (s.Priority + i) % s.N
	}
	return o
}

// Rank returns a seat's place in the player order (0 = priority holder).
func (s *Position) Rank(seat int) int { return (seat - s.Priority + s.N) % s.N }

// SeatAt returns the seat at a rank of the player order.
func (s *Position) SeatAt(rank int) int { return (s.Priority + rank%s.N + s.N) % s.N }

// Capacity is the number of players who may use one space per round
// (DB-5.4.3).
func (s *Position) Capacity() int { return s.Rules.Players[s.N].Capacity }

// Target is the end trigger T (DB-1.3).
func (s *Position) Target() int { return s.Rules.Players[s.N].Target }

// BuildingOpen reports whether a building is usable this round (DB-4.3).
func (s *Position) BuildingOpen(b int) bool { return s.Round >= s.Rules.OpenBuilding[b] }

func (s *Position) MarketOpen() bool { return s.Round >= s.Rules.OpenMarket }

func (s *Position) BlackMarketOpen() bool { return s.Round >= s.Rules.OpenBlackMarket }

// SupplyCount returns the number of dice of a colour in the supply.
func (s *Position) SupplyCount(c int) int {
	n := 0
	for i := range s.Dice {
		if s.Dice[i].L == LocSupply && s.Dice[i].C == c {
			n++
		}
	}
	return n
}

// SupplyDie returns a die of colour c in the supply, or -1.
func (s *Position) SupplyDie(c int) int {
	for i := range s.Dice {
		if s.Dice[i].L == LocSupply && s.Dice[i].C == c {
			return i
		}
	}
	return -1
}

// BoardDie returns the die of seat in a space's main (up=false) or speed-up
// slot, or -1.
func (s *Position) BoardDie(seat, sp int, up bool) int {
	for i := range s.Dice {
		d := &s.Dice[i]
		if d.O == seat && d.L == LocBoard && d.S == sp && d.Up == up {
			return i
		}
	}
	return -1
}

// MarketDie returns the seat's blue discount die on the Market, or -1.
func (s *Position) MarketDie(seat int) int {
	for i := range s.Dice {
		if s.Dice[i].O == seat && s.Dice[i].L == LocMarket {
			return i
		}
	}
	return -1
}

// DieText is the short text of a die as players read it: colour, face, and
// "+" when a PLUS token applies ("Y4", "K3+", "B?" before the first roll).
func DieText(d *Die) string {
	f := "?"
	if d.F > 0 {
		f = fmt.Sprint(d.F)
	}
	t := catalog.ColourLetters[d.C] + f
	if d.Plus {
		t += "+"
	}
	return t
}

// DiceTexts returns the texts of dice, sorted for display.
func (s *Position) DiceTexts(ids []int) []string {
	ids = append([]int(nil), ids...)
	s.SortDice(ids)
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = DieText(&s.Dice[id])
	}
	return out
}

// SortDice sorts die ids by colour, then value (high first), then id.
func (s *Position) SortDice(ids []int) {
	sort.Slice(ids, func(a, b int) bool {
		da, db := &s.Dice[ids[a]], &s.Dice[ids[b]]
		if da.C != db.C {
			return da.C < db.C
		}
		if da.Value() != db.Value() {
			return da.Value() > db.Value()
		}
		return ids[a] < ids[b]
	})
}

// DiceAt returns the ids of a seat's dice at a location.
func (s *Position) DiceAt(seat, loc int) []int {
	var out []int
	for i := range s.Dice {
		if s.Dice[i].O == seat && s.Dice[i].L == loc {
			out = append(out, i)
		}
	}
	return out
}

// Card returns the recipe with an id.
func (s *Position) Card(id string) *catalog.Recipe { return s.Rules.RecipeIndex[id] }

// InDisplay returns the display slot of a card, or -1.
func (s *Position) InDisplay(id string) int {
	for i, c := range s.Display {
		if c == id {
			return i
		}
	}
	return -1
}

// RecipeBlocked reports whether a card is BLOCKR-blocked this round.
func (s *Position) RecipeBlocked(id string) bool {
	for _, c := range s.BlockedR {
		if c == id {
			return true
		}
	}
	return false
}

// TokensHeld returns the number of action tokens a seat owns.
func (s *Position) TokensHeld(seat int) int {
	n := 0
	for _, t := range s.P[seat].Tok {
		n += t
	}
	return n
}

// HiddenTokens reports whether owned action tokens are face down (DB-6.6).
func (s *Position) HiddenTokens() bool { return s.H.Options[OptHidden] == "true" }

// Name returns a seat's name.
func (s *Position) Name(seat int) string { return s.H.Seats[seat] }
