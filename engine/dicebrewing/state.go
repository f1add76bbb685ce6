package dicebrewing

import (
	"fmt"
	"sort"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
)

// schema is the version of the state layout below.
const schema = 1

// Die locations (DB-2.1).
const (
	locSupply = iota // the general supply
	locAR            // the owner's Active Reserve
	locST            // the owner's Storage
	locBoard         // a slot of the owner's board
	locMarket        // the Market card (a blue discount die, DB-5.7.4)
)

// The steps of a round (DB-1.4, §4.1).
const (
	stepW0    = "w0"    // opening token window of Phase 1 (DB-5.8.3)
	stepPlace = "place" // Phase 1 placement turns (DB-5.3)
	stepBuy   = "buy"   // Phase 2 purchase turns (DB-5.7)
	stepW3    = "w3"    // opening token window of Phase 3 (DB-5.8.3)
	stepBrew  = "brew"  // Phase 3 brewing turns (DB-5.9)
	stepOver  = "over"  // the game has ended (§7)
)

// Sub-steps inside a placement or brewing turn.
const (
	subNone   = ""
	subSecond = "second" // the turn's second item (after PLACE ... THEN)
	subReroll = "reroll" // choosing the dice of a School reroll (SS1)
	subReward = "reward" // choosing a die colour or an action token reward
)

// TOKENS NONE scopes.
const (
	tnNone  = 0
	tnRound = 1
	tnGame  = 2
)

// die is one physical die. Dice are numbered by colour in ruleset order.
type die struct {
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

// value is the die's value: its face, plus 1 with a PLUS token (vocabulary).
func (d *die) value() int {
	if d.Plus {
		return d.F + 1
	}
	return d.F
}

// blockedFor reports whether the die is SHIELD-blocked for its owner: an
// opponent shielded it (DB-5.8.9).
func (d *die) blocked() bool { return d.Sh != 0 && d.Sh-1 != d.O }

// protectedFrom reports whether the die is protected against actor: its
// owner shielded it and actor is somebody else (DB-5.8.9, §9 A-12).
func (d *die) protectedFrom(actor int) bool { return d.Sh != 0 && d.Sh-1 == d.O && actor != d.O }

// space is one board space of one player for the current round.
type space struct {
	Used bool `json:"u,omitempty"` // a main item was put here this round (DB-5.4.2)
	Seed bool `json:"s,omitempty"` // the main item is a seed still waiting
	Done bool `json:"d,omitempty"` // the main item's effect has resolved
}

// player is one seat's holdings and round flags.
type player struct {
	Coins  int      `json:"coins"`
	XP     int      `json:"xp"`
	Seeds  int      `json:"seeds"`
	Ingr   []int    `json:"ingr"`             // special ingredients by index
	Tok    []int    `json:"tok"`              // owned action tokens by type index
	Brewed []string `json:"brewed,omitempty"` // brewed recipe cards, in order

	Board [catalog.NumSpaces]space `json:"board"`

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

// rewardPending is a brew whose reward choices are still to be made.
type rewardPending struct {
	Card  string   `json:"card"`
	Needs []string `json:"needs"` // "die" or "token", in order
}

// state is a game of Dice Brewing in progress.
type state struct {
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
	Reward   *rewardPending `json:"reward,omitempty"`

	Dice       []die                  `json:"dice"`
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

	P []player `json:"players"`

	rules *catalog.Rules
	ev    []engine.Event
}

// Head implements engine.State.
func (s *state) Head() *engine.Header { return &s.H }

// Clone implements engine.State.
func (s *state) Clone() engine.State { return s.clone() }

func (s *state) clone() *state {
	c := *s
	c.H = s.H.Clone()
	c.Picked = cloneInts(s.Picked)
	if s.Reward != nil {
		r := *s.Reward
		r.Needs = append([]string(nil), s.Reward.Needs...)
		c.Reward = &r
	}
	c.Dice = append([]die(nil), s.Dice...)
	c.Market = cloneInts(s.Market)
	c.BM = cloneInts(s.BM)
	c.Removed = cloneInts(s.Removed)
	c.Display = cloneStrings(s.Display)
	c.Deck = cloneStrings(s.Deck)
	c.BlockedR = cloneStrings(s.BlockedR)
	c.BlockRBy = cloneInts(s.BlockRBy)
	c.P = make([]player, len(s.P))
	for i := range s.P {
		p := s.P[i]
		p.Ingr = cloneInts(p.Ingr)
		p.Tok = cloneInts(p.Tok)
		p.Brewed = cloneStrings(p.Brewed)
		c.P[i] = p
	}
	c.ev = nil
	return &c
}

func cloneInts(x []int) []int {
	if x == nil {
		return nil
	}
	return append([]int(nil), x...)
}

func cloneStrings(x []string) []string {
	if x == nil {
		return nil
	}
	return append([]string(nil), x...)
}

// emit records an event of the move being applied.
func (s *state) emit(e engine.Event) { s.ev = append(s.ev, e) }

// pub records a public event.
func (s *state) pub(typ string, seat int, kv ...any) {
	s.emit(engine.NewEvent(typ, seat, engine.Public, kv...))
}

// order returns the player order: the priority holder first, then clockwise
// (DB-4.2).
func (s *state) order() []int {
	o := make([]int, s.N)
	for i := range o {
		o[i] = (s.Priority + i) % s.N
	}
	return o
}

// rank returns a seat's place in the player order (0 = priority holder).
func (s *state) rank(seat int) int { return (seat - s.Priority + s.N) % s.N }

// seatAt returns the seat at a rank of the player order.
func (s *state) seatAt(rank int) int { return (s.Priority + rank%s.N + s.N) % s.N }

// capacity is the number of players who may use one space per round
// (DB-5.4.3).
func (s *state) capacity() int { return s.rules.Players[s.N].Capacity }

// target is the end trigger T (DB-1.3).
func (s *state) target() int { return s.rules.Players[s.N].Target }

// buildingOpen reports whether a building is usable this round (DB-4.3).
func (s *state) buildingOpen(b int) bool { return s.Round >= s.rules.OpenBuilding[b] }

func (s *state) marketOpen() bool      { return s.Round >= s.rules.OpenMarket }
func (s *state) blackMarketOpen() bool { return s.Round >= s.rules.OpenBlackMarket }

// supplyCount returns the number of dice of a colour in the supply.
func (s *state) supplyCount(c int) int {
	n := 0
	for i := range s.Dice {
		if s.Dice[i].L == locSupply && s.Dice[i].C == c {
			n++
		}
	}
	return n
}

// supplyDie returns a die of colour c in the supply, or -1.
func (s *state) supplyDie(c int) int {
	for i := range s.Dice {
		if s.Dice[i].L == locSupply && s.Dice[i].C == c {
			return i
		}
	}
	return -1
}

// toSupply returns a die to the supply, clearing its marks.
func (s *state) toSupply(id int) {
	s.Dice[id] = die{C: s.Dice[id].C, O: -1, L: locSupply}
}

// boardDie returns the die of seat in a space's main (up=false) or speed-up
// slot, or -1.
func (s *state) boardDie(seat, sp int, up bool) int {
	for i := range s.Dice {
		d := &s.Dice[i]
		if d.O == seat && d.L == locBoard && d.S == sp && d.Up == up {
			return i
		}
	}
	return -1
}

// marketDie returns the seat's blue discount die on the Market, or -1.
func (s *state) marketDie(seat int) int {
	for i := range s.Dice {
		if s.Dice[i].O == seat && s.Dice[i].L == locMarket {
			return i
		}
	}
	return -1
}

// roll rolls a die (kind "dice") and marks it rolled this round while
// rolls can still earn unlucky-roll credit (Phases 1 and 2, DB-5.2.2).
func (s *state) roll(id int) int {
	v := s.H.Rand.Roll("dice", s.rules.Faces)
	d := &s.Dice[id]
	d.F = v
	if s.Step == stepW0 || s.Step == stepPlace || s.Step == stepBuy {
		d.R = true
	}
	return v
}

// dieText is the short text of a die as players read it: colour, face, and
// "+" when a PLUS token applies ("Y4", "K3+", "B?" before the first roll).
func dieText(d *die) string {
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

// diceTexts returns the texts of dice, sorted for display.
func (s *state) diceTexts(ids []int) []string {
	ids = append([]int(nil), ids...)
	s.sortDice(ids)
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = dieText(&s.Dice[id])
	}
	return out
}

// sortDice sorts die ids by colour, then value (high first), then id.
func (s *state) sortDice(ids []int) {
	sort.Slice(ids, func(a, b int) bool {
		da, db := &s.Dice[ids[a]], &s.Dice[ids[b]]
		if da.C != db.C {
			return da.C < db.C
		}
		if da.value() != db.value() {
			return da.value() > db.value()
		}
		return ids[a] < ids[b]
	})
}

// diceAt returns the ids of a seat's dice at a location.
func (s *state) diceAt(seat, loc int) []int {
	var out []int
	for i := range s.Dice {
		if s.Dice[i].O == seat && s.Dice[i].L == loc {
			out = append(out, i)
		}
	}
	return out
}

// card returns the recipe with an id.
func (s *state) card(id string) *catalog.Recipe { return s.rules.RecipeIndex[id] }

// inDisplay returns the display slot of a card, or -1.
func (s *state) inDisplay(id string) int {
	for i, c := range s.Display {
		if c == id {
			return i
		}
	}
	return -1
}

// recipeBlocked reports whether a card is BLOCKR-blocked this round.
func (s *state) recipeBlocked(id string) bool {
	for _, c := range s.BlockedR {
		if c == id {
			return true
		}
	}
	return false
}

// tokensHeld returns the number of action tokens a seat owns.
func (s *state) tokensHeld(seat int) int {
	n := 0
	for _, t := range s.P[seat].Tok {
		n += t
	}
	return n
}

// hiddenTokens reports whether owned action tokens are face down (DB-6.6).
func (s *state) hiddenTokens() bool { return s.H.Options[optHidden] == "true" }

// name returns a seat's name.
func (s *state) name(seat int) string { return s.H.Seats[seat] }
