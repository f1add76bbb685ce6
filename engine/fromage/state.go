package fromage

import (
	"slices"
	"strconv"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
)

// Phases of a game.
const (
	phaseDraft = "draft" // advanced mode: structure-tile draft (FR-5.11.1)
	phaseTiles = "tiles" // advanced mode: tile placement (FR-5.11.2)
	phaseTurn  = "turn"  // the turns (§4)
	phaseOver  = "over"
)

// Owner codes of a cheese space.
const (
	empty     = -1
	corpOwner = 4 // the solo Corporation (FR-5.12.3)
)

// Worker places (FR-5.1, FR-5.10).
const (
	atHome   = ""       // available
	atRes    = "res"    // on a resource space of the Resource tile
	atCheese = "cheese" // on top of a cheese token
	atBarn   = "barn"   // on the column-I ability of the player board
)

// State is one game of Fromage in progress. It marshals to JSON with the
// engine Header under "head".
type State struct {
	H     engine.Header `json:"head"`
	Phase string        `json:"phase"`
	// Turn is the turn number (1-based); Rot the board rotation, (Turn-1) mod 4 (FR-4.1).
	Turn int `json:"turn"`
	Rot  int `json:"rot"`
	// VenueAt and ResAt give the venue and the resource at each board quadrant q0..q3 (FR-3.3, FR-3.4).
	VenueAt [4]int `json:"venue_at"`
	ResAt   [4]int `json:"res_at"`
	// Pos is the board seat position s0..s3 of each engine seat (FR-3.5).
	Pos []int `json:"pos"`
	// Customer gives the Customer token (index into the ruleset) on each City region (FR-3.6).
	Customer []int `json:"customer"`
	// Deck (top first) and Discard hold Order card indexes (FR-3.7).
	Deck    []int `json:"deck"`
	Discard []int `json:"discard"`
	// Board holds the owner of every cheese space, by venue and space index.
	Board   [4][]int `json:"board"`
	Players []Player `json:"players"`
	Corp    *Corp    `json:"corp,omitempty"`
	Draft   *Draft   `json:"draft,omitempty"`
	// End is set when a last cheese token was placed (FR-7.1); EndBy lists
	// who placed it (seats, corpOwner for the Corporation).
	End   bool  `json:"end,omitempty"`
	EndBy []int `json:"end_by,omitempty"`
	// Log holds the canonical commands each seat applied this turn; Last
	// those of the previous turn (the turn report of §10.3).
	Log  [][]string `json:"log"`
	Last [][]string `json:"last,omitempty"`
	// Step counts the rounds of moves within the turn: each seat answers
	// one move per step (see doc.go, "Sealed turns"). Snap is the public
	// position at the start of the turn, shown to the other seats until the
	// turn ends (FR-6.4).
	Step int       `json:"step"`
	Snap *Snapshot `json:"snap,omitempty"`

	r   *catalog.Rules
	lay *layout
}

// Player is one seat's pieces and resources.
type Player struct {
	Board   int       `json:"board"`  // index into Rules.Boards
	Cheese  int       `json:"cheese"` // tokens left in hand
	Workers [3]Worker `json:"workers"`
	Storage int       `json:"storage"` // Structures not built
	Pasture int       `json:"pasture"` // Cattle not milked
	Basket  int       `json:"basket"`  // Fruit not spent
	// FruitCheese and Jam count the Fruit spent on each kind of icon (FR-5.5.2).
	FruitCheese int   `json:"fruit_cheese"`
	Jam         int   `json:"jam"`
	Pending     []int `json:"pending"`   // Order cards face up, not completed
	Completed   []int `json:"completed"` // completed Order cards
	// Built says which ability columns (index 1..4) are built; Tile the
	// advanced tile covering each column (-1: the printed ability).
	Built [5]bool `json:"built"`
	Tile  [5]int  `json:"tile"`
	// Zones counts the Cattle on each milking zone; a used zone has >= 1.
	Zones []int `json:"zones"`
	// Turn flags: finished the turn, gathered, produced, column-III used.
	Done     bool `json:"done,omitempty"`
	Moved    bool `json:"moved,omitempty"` // answered the current step
	Gathered bool `json:"gathered,omitempty"`
	Produced bool `json:"produced,omitempty"`
	Extra    bool `json:"extra,omitempty"`
	// Drew lists the Order cards drawn this turn (public in the turn report).
	Drew []int `json:"drew,omitempty"`
	// Queue is the chain of placement triggers still to resolve; its head,
	// when it needs an answer, is the seat's pending sub-decision.
	Queue []Effect `json:"queue,omitempty"`
	Pol   Policy   `json:"pol"`
	// Draft: the hand being drafted, the kept tiles, and the round flags.
	Hand   []int `json:"hand,omitempty"`
	Kept   []int `json:"kept,omitempty"`
	Picked bool  `json:"picked,omitempty"`
	Ready  bool  `json:"ready,omitempty"`
}

// Worker is one of a player's three workers (Soft, Hard, Blue by index).
type Worker struct {
	At string `json:"at,omitempty"`
	// Q is the quadrant of a resource space or the venue of a cheese space;
	// Spot the resource space number (1..3) or the cheese space index.
	Q    int `json:"q,omitempty"`
	Spot int `json:"spot,omitempty"`
	// Ret is the turn it comes back (FR-5.10.2); Points the quadrant it points to.
	Ret    int `json:"ret,omitempty"`
	Points int `json:"points,omitempty"`
}

// Effect is one step of a placement's trigger chain (FR-5.3.5) or a
// sub-choice of a column-I ability.
type Effect struct {
	// K: "complete" (optional Order completion), "order" (asked
	// completion), "take" (choose N resources, different types when N = 2),
	// "trade" (discard one unused resource for one of any type; Diff: of a
	// different type), "dispatch" (keep one of Cards), "gain" (Res, automatic).
	K     string `json:"k"`
	V     int    `json:"v,omitempty"`
	S     int    `json:"s,omitempty"`
	Keep  bool   `json:"keep,omitempty"`
	N     int    `json:"n,omitempty"`
	Res   int    `json:"res,omitempty"`
	Diff  bool   `json:"diff,omitempty"`
	Src   string `json:"src,omitempty"`
	Cards []int  `json:"cards,omitempty"`
}

// Policy holds a seat's standing orders (P-7, P-8).
type Policy struct {
	OrdersAsk  bool  `json:"orders_ask,omitempty"`  // SET ORDERS ASK
	Dairy      []int `json:"dairy,omitempty"`       // SET DAIRY res [res]
	CorpLowest bool  `json:"corp_lowest,omitempty"` // SET CORP LOWEST
	Picks      []int `json:"picks,omitempty"`       // PICKS ...
}

// Corp is the solo Corporation (FR-5.12).
type Corp struct {
	Level int   `json:"level"`
	Left  int   `json:"left"`  // tokens still on its board
	Cards []int `json:"cards"` // Order cards on its card space
	// Draws is the number of draws still to make this turn; Card the card
	// waiting for the player's choice among Options (space indexes), -1 none.
	Draws   int       `json:"draws"`
	Card    int       `json:"card"`
	Options []int     `json:"options,omitempty"`
	Acts    []CorpAct `json:"acts,omitempty"` // this turn's draws
}

// CorpAct is one Corporation draw of the turn and its outcome.
type CorpAct struct {
	Card  int    `json:"card"`
	Space string `json:"space,omitempty"` // "" when the card went to the card space
	Wide  bool   `json:"wide,omitempty"`  // placed by R2 (any type)
}

// Draft is the advanced-mode tile draft (FR-5.11).
type Draft struct {
	Round int   `json:"round"`
	Deck  []int `json:"deck"` // undealt tiles
	Box   []int `json:"box"`  // tiles out of the game
}

// Snapshot is the public position at the start of a turn.
type Snapshot struct {
	Players []Player `json:"players"`
	Board   [4][]int `json:"board"`
	Deck    int      `json:"deck"`
	Discard int      `json:"discard"`
}

// Head returns the header.
func (s *State) Head() *engine.Header { return &s.H }

// Clone returns a deep copy.
func (s *State) Clone() engine.State {
	c := *s
	c.H = s.H.Clone()
	c.Pos = slices.Clone(s.Pos)
	c.Customer = slices.Clone(s.Customer)
	c.Deck = slices.Clone(s.Deck)
	c.Discard = slices.Clone(s.Discard)
	for v := range s.Board {
		c.Board[v] = slices.Clone(s.Board[v])
	}
	c.Players = make([]Player, len(s.Players))
	for i := range s.Players {
		c.Players[i] = s.Players[i].clone()
	}
	if s.Corp != nil {
		cp := *s.Corp
		cp.Cards = slices.Clone(s.Corp.Cards)
		cp.Options = slices.Clone(s.Corp.Options)
		if s.Corp.Acts != nil {
			cp.Acts = make([]CorpAct, len(s.Corp.Acts))
			copy(cp.Acts, s.Corp.Acts)
		}
		c.Corp = &cp
	}
	if s.Draft != nil {
		d := *s.Draft
		d.Deck = slices.Clone(s.Draft.Deck)
		d.Box = slices.Clone(s.Draft.Box)
		c.Draft = &d
	}
	if s.Snap != nil {
		sn := *s.Snap
		sn.Players = make([]Player, len(s.Snap.Players))
		for i := range s.Snap.Players {
			sn.Players[i] = s.Snap.Players[i].clone()
		}
		for v := range sn.Board {
			sn.Board[v] = slices.Clone(s.Snap.Board[v])
		}
		c.Snap = &sn
	}
	c.EndBy = slices.Clone(s.EndBy)
	c.Log = cloneLog(s.Log)
	c.Last = cloneLog(s.Last)
	return &c
}

func cloneLog(l [][]string) [][]string {
	if l == nil {
		return nil
	}
	c := make([][]string, len(l))
	for i := range l {
		if l[i] != nil {
			c[i] = make([]string, len(l[i]))
			copy(c[i], l[i])
		}
	}
	return c
}

func (p Player) clone() Player {
	c := p
	c.Pending = slices.Clone(p.Pending)
	c.Completed = slices.Clone(p.Completed)
	c.Zones = slices.Clone(p.Zones)
	c.Drew = slices.Clone(p.Drew)
	if p.Queue != nil {
		c.Queue = make([]Effect, len(p.Queue))
		for i, e := range p.Queue {
			e.Cards = slices.Clone(e.Cards)
			c.Queue[i] = e
		}
	}
	c.Pol.Dairy = slices.Clone(p.Pol.Dairy)
	c.Pol.Picks = slices.Clone(p.Pol.Picks)
	c.Hand = slices.Clone(p.Hand)
	c.Kept = slices.Clone(p.Kept)
	return c
}

// ---- geometry (FR-3.5, FR-4.1, FR-5.10) ----

func mod4(x int) int { return ((x % 4) + 4) % 4 }

// facing returns the quadrant seat faces this turn: f(s,t) = (s - rot) mod 4.
func (s *State) facing(seat int) int { return mod4(s.Pos[seat] - s.Rot) }

// facingAt returns the quadrant seat faces in turn t.
func (s *State) facingAt(seat, t int) int { return mod4(s.Pos[seat] - (t-1)%4) }

// venue returns the seat's current venue.
func (s *State) venue(seat int) int { return s.VenueAt[s.facing(seat)] }

// resource returns the seat's current resource quadrant type.
func (s *State) resource(seat int) int { return s.ResAt[s.facing(seat)] }

// order returns the canonical resolution order of this turn (FR-3.12):
// clockwise from the seat facing the Structures quadrant, or from the next
// occupied seat clockwise when nobody faces it.
func (s *State) order() []int {
	q := 0
	for i, r := range s.ResAt {
		if r == catalog.ResStructure {
			q = i
		}
	}
	start := mod4(q + s.Rot)
	bySeatPos := map[int]int{}
	for seat, p := range s.Pos {
		bySeatPos[p] = seat
	}
	out := make([]int, 0, len(s.Pos))
	for k := 0; k < 4; k++ {
		if seat, ok := bySeatPos[mod4(start+k)]; ok {
			out = append(out, seat)
		}
	}
	return out
}

// rank returns the seat's position in the canonical resolution order.
func (s *State) rank(seat int) int {
	for i, x := range s.order() {
		if x == seat {
			return i
		}
	}
	return seat
}

// ---- abilities (FR-5.9, FR-5.11.3) ----

// ability returns the ability of a player's column: the covering tile, or
// the printed one.
func (s *State) ability(p *Player, col int) *catalog.Ability {
	if t := p.Tile[col]; t >= 0 {
		return &s.r.Tiles[t]
	}
	return &s.r.Boards[p.Board].Abilities[col]
}

// active returns the built ability of a column, or nil.
func (s *State) active(p *Player, col int) *catalog.Ability {
	if !p.Built[col] {
		return nil
	}
	return s.ability(p, col)
}

// hasEffect returns the built ability of column col with that effect, or nil.
func (s *State) hasEffect(p *Player, col int, effect string) *catalog.Ability {
	if a := s.active(p, col); a != nil && a.Effect == effect {
		return a
	}
	return nil
}

// zoneCost is a milking zone's Cattle cost for the player (ST22 Milk House
// lowers it, minimum 1).
func (s *State) zoneCost(p *Player, z int) int {
	c := s.r.Boards[p.Board].Zones[z].Cost
	if a := s.hasEffect(p, 3, "milkhouse"); a != nil {
		c -= a.N
		if c < 1 {
			c = 1
		}
	}
	return c
}

// delay returns the return delay of a worker placed on a cheese space of
// aging a (FR-5.3.3, ST23 Aging Cellar).
func (s *State) delay(p *Player, a int) int {
	d := s.r.Delay[a]
	if c := s.hasEffect(p, 3, "cellar"); c != nil && a == 3 && c.N < d {
		d = c.N
	}
	return d
}

// ---- spaces ----

func (s *State) side(v int) *catalog.Side { return s.lay.sides[v] }

func (s *State) space(v, i int) *catalog.Space { return &s.lay.sides[v].Spaces[i] }

// spaceFree reports whether a cheese space can receive a token: empty and
// not crossed (FR-2.6, FR-5.3.1).
func (s *State) spaceFree(v, i int) bool { return s.Board[v][i] == empty && s.lay.open[v][i] }

// resBlocked returns the seat whose worker holds resource space n of
// quadrant q, or -1 (FR-5.2.5).
func (s *State) resBlocked(q, n int) (int, int) {
	for seat := range s.Players {
		for w := range s.Players[seat].Workers {
			wk := &s.Players[seat].Workers[w]
			if wk.At == atRes && wk.Q == q && wk.Spot == n {
				return seat, wk.Ret
			}
		}
	}
	return -1, 0
}

// cardLabel returns an Order card's id.
func (s *State) cardLabel(c int) string { return s.r.CardIDs[c] }

// unused counts a player's unused resources (FR-7.9, A-4).
func (p *Player) unused() int { return p.Storage + p.Pasture + p.Basket + len(p.Pending) }

// placed counts the player's tokens on the board.
func (s *State) placed(seat int) int { return s.r.Cheese - s.Players[seat].Cheese }

func (s *State) turnSlot(t int) string { return "T" + strconv.Itoa(t) }
