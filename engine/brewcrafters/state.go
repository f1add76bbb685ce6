package brewcrafters

import (
	"encoding/json"
	"slices"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
)

// Phases of a season (BC-4.1).
const (
	phStart   = "start"   // S0 season start (BC-4.2)
	phMarket  = "market"  // S2 Market Action Phase (BC-5.2)
	phBrewery = "brewery" // S3 Brewery Phase (BC-5.4)
	phEnd     = "end"     // S4 season end (BC-4.3)
	phOver    = "over"
)

const (
	stStart = iota
	stExperimental
	stAnnual
	stBreakthrough
	stGameEnd
)

// Player is one brewery.
type Player struct {
	Money int         `json:"money"`
	Rep   int         `json:"rep"` // Rep tokens taken so far (BC-7.2.4)
	Loans int         `json:"loans"`
	Ing   catalog.Bag `json:"ing"`
	// Shifts employed (BC-5.3.2); Batches brewed (BC-5.1.7); Brewed: the
	// recipes brewed at least once, in order (BC-5.1.8).
	Shifts  int      `json:"shifts"`
	Batches int      `json:"batches"`
	Brewed  []string `json:"brewed"`
	// Tanks, bottling slots and the Brewpub slot hold recipe ids ("" empty).
	Tanks    [2]string            `json:"tanks"`
	Bottles  [2]string            `json:"bottles"`
	Pub      string               `json:"pub"`
	Infusers [catalog.NSlots]bool `json:"infusers"`
	Built    []string             `json:"built"` // building ids installed (not Infusers)
	Plots    []string             `json:"plots"` // Farm plots planted (ingredient codes)
	Research [catalog.NTracks]int `json:"research"`
	Workers  []string             `json:"workers"`
	Partners []string             `json:"partners"`
	Labels   []string             `json:"labels"`   // Gold Labels taken
	Shipping []string             `json:"shipping"` // sold batches (recipe ids)
	// Secrets are the Secret Recipes developed (BC-5.12.5); Revealed the
	// ones brewed at least once; Pot those whose 5 Rep still sit on the card.
	Secrets  []string `json:"secrets"`
	Revealed []string `json:"revealed"`
	Pot      []string `json:"pot"`
	// OpsToken: the building space holding the Operations Experimental Rep
	// BrewToken: the recipe of the Brewing Experimental token.
	OpsToken  string `json:"ops_token"`
	BrewToken string `json:"brew_token"`
	// Collab: the Collaboration portions contributed to the current card.
	Collab []string `json:"collab"`
	// This season: market decisions taken, interns held, interns kept for the
	// Brewery, brewery tokens used, Farm plantings made this Spring.
	Placed    int `json:"placed"`
	Interns   int `json:"interns"`
	InternBrw int `json:"intern_brw"`
	Used      int `json:"used"`
	// Annual: the Annual Winter benefits not yet taken at this S0.
	Annual []string `json:"annual"`
	// Standing preferences (SET, BC-10.2).
	PrefDiscard string `json:"pref_discard"`
	PrefAny     string `json:"pref_any"`
	PrefAdv     string `json:"pref_adv"`
	PrefIntern  string `json:"pref_intern"`
	PrefAnnual  string `json:"pref_annual"`
	PrefPick    string `json:"pref_pick"`
}

// Space is the state of one Market Action space in play.
type Space struct {
	ID    string      `json:"id"`
	Money int         `json:"money"`
	Goods catalog.Bag `json:"goods"`
	Occ   int         `json:"occ"`  // occupying seat, -1 free
	Half  string      `json:"half"` // keyword chosen by the occupant
}

// Sub is an interrupt decision: an overflow discard, an Employment Agency
// hire, a Community Farm leftover pick.
type Sub struct {
	Kind string `json:"kind"`
	Seat int    `json:"seat"`
	// Slot, when set, is the queue slot of the turn the interrupt arose in:
	// an overflow caused by a free action (a harvest) during the seat's own
	// turn is answered by the lines that follow it in the same mail
	// (BC-5.1.2 "at once"), not by lines queued for later.
	Slot string `json:"slot,omitempty"`
}

// State is one game of Brew Crafters.
type State struct {
	H      engine.Header `json:"head"`
	N      int           `json:"n"`
	Season int           `json:"season"` // 0..11 (BC-1.3)
	Phase  string        `json:"phase"`
	Round  int           `json:"round"`
	Turn   int           `json:"turn"` // index into Order
	Cur    int           `json:"cur"`  // seat owing the main decision, -1 none
	EndStp int           `json:"end_step"`
	Start  int           `json:"start"` // holder of the Start Player token
	Order  []int         `json:"order"` // the turn order of the current phase
	Subs   []Sub         `json:"subs"`
	Spaces []Space       `json:"spaces"`
	// Decks and supplies.
	Workers  []string       `json:"workers"`  // face-up Skilled Workers still available
	Unused   []string       `json:"unused"`   // the unused worker deck
	Agency   []string       `json:"agency"`   // the current Employment Agency draw
	Partners []string       `json:"partners"` // Partnership cards still available
	Recipes  []string       `json:"recipes"`  // recipes in play
	Labels   []string       `json:"labels"`   // Gold Labels still on their cards
	Box      []string       `json:"box"`      // advanced recipes in the box
	Collab   []int          `json:"collab"`   // owner of each portion, -1 free
	CF       []int          `json:"cf"`       // Community Farm: owner per portion, -1 free
	CFTok    []int          `json:"cf_tok"`   // portion index per token, in token order
	CFLeft   catalog.Bag    `json:"cf_left"`  // leftovers to pick
	CFPick   int            `json:"cf_pick"`  // token whose pick is next
	Interns  int            `json:"interns"`  // Intern supply
	InternAt [][]int        `json:"intern_at"`
	P        []Player       `json:"players"`
	Res      *engine.Result `json:"result"`

	r  *catalog.Rules
	ev []engine.Event
	kw map[string]int // keyword counts of the spaces in play (cache)
}

// Head implements engine.State.
func (s *State) Head() *engine.Header { return &s.H }

// Clone implements engine.State: a deep copy that keeps nil and empty
// slices apart, so that it marshals exactly like the original.
func (s *State) Clone() engine.State {
	c := *s
	c.H = s.H.Clone()
	// One backing array for every string list of the state and its
	// players, and one for the int lists: each list is carved with its
	// capacity equal to its length, so an append moves it out and no two
	// lists share a cell (BenchmarkSelfPlayMailGame: the clones before every
	// Apply and every alternative were most of the allocations).
	ns, ni := len(s.Workers)+len(s.Unused)+len(s.Agency)+len(s.Partners)+len(s.Recipes)+len(s.Labels)+len(s.Box),
		len(s.Order)+len(s.Collab)+len(s.CF)+len(s.CFTok)
	for i := range s.P {
		ns += s.P[i].strings()
	}
	for _, x := range s.InternAt {
		ni += len(x)
	}
	a := arena{strs: make([]string, 0, ns), ints: make([]int, 0, ni)}
	c.Order = a.intList(s.Order)
	c.Subs = append(s.Subs[:0:0], s.Subs...)
	if s.Subs == nil {
		c.Subs = nil
	}
	c.Spaces = append(s.Spaces[:0:0], s.Spaces...)
	if s.Spaces == nil {
		c.Spaces = nil
	}
	c.Workers = a.list(s.Workers)
	c.Unused = a.list(s.Unused)
	c.Agency = a.list(s.Agency)
	c.Partners = a.list(s.Partners)
	c.Recipes = a.list(s.Recipes)
	c.Labels = a.list(s.Labels)
	c.Box = a.list(s.Box)
	c.Collab = a.intList(s.Collab)
	c.CF = a.intList(s.CF)
	c.CFTok = a.intList(s.CFTok)
	if s.InternAt != nil {
		c.InternAt = make([][]int, len(s.InternAt))
		for i, x := range s.InternAt {
			c.InternAt[i] = a.intList(x)
		}
	}
	c.P = make([]Player, len(s.P))
	for i := range s.P {
		c.P[i] = s.P[i].clone(&a)
	}
	if s.Res != nil {
		b, _ := json.Marshal(s.Res)
		c.Res = &engine.Result{}
		_ = json.Unmarshal(b, c.Res)
	}
	c.ev = nil
	return &c
}

// arena hands out copies of lists carved from one backing array each.
type arena struct {
	strs []string
	ints []int
}

// carve copies x (nil stays nil) into pool's backing array, with its
// capacity equal to its length.
func carve[T any](pool *[]T, x []T) []T {
	if x == nil {
		return nil
	}
	n := len(*pool)
	*pool = append(*pool, x...)
	return (*pool)[n : n+len(x) : n+len(x)]
}

// list and intList copy a list of the state (Clone's arena).
func (a *arena) list(x []string) []string { return carve(&a.strs, x) }
func (a *arena) intList(x []int) []int    { return carve(&a.ints, x) }

// strings counts the strings of the player's lists (Clone's arena).
func (p *Player) strings() int {
	return len(p.Brewed) + len(p.Built) + len(p.Plots) + len(p.Workers) + len(p.Partners) + len(p.Labels) +
		len(p.Shipping) + len(p.Secrets) + len(p.Revealed) + len(p.Pot) + len(p.Collab) + len(p.Annual)
}

func (p Player) clone(a *arena) Player {
	c := p
	c.Brewed = a.list(p.Brewed)
	c.Built = a.list(p.Built)
	c.Plots = a.list(p.Plots)
	c.Workers = a.list(p.Workers)
	c.Partners = a.list(p.Partners)
	c.Labels = a.list(p.Labels)
	c.Shipping = a.list(p.Shipping)
	c.Secrets = a.list(p.Secrets)
	c.Revealed = a.list(p.Revealed)
	c.Pot = a.list(p.Pot)
	c.Collab = a.list(p.Collab)
	c.Annual = a.list(p.Annual)
	return c
}

func (s *State) year() int { return s.Season/4 + 1 }

// last is the index of the last season (BC-1.3: Year 3 Winter = 11).
func (s *State) last() int           { return 4*s.r.Economy.Years - 1 }
func (s *State) seasonOf() int       { return s.Season % 4 }
func (s *State) opt(k string) string { return s.H.Options[k] }
func (s *State) on(c string) bool    { return s.opt("complex_"+c) == "on" }

func (s *State) emit(typ string, seat int, kv ...any) {
	s.ev = append(s.ev, engine.NewEvent("bc."+typ, seat, engine.Public, kv...))
}

func (p *Player) has(b string) bool { return slices.Contains(p.Built, b) }

// workers returns the player's Skilled Workers' data.
func (s *State) ws(p *Player) []*catalog.Worker {
	out := make([]*catalog.Worker, 0, len(p.Workers))
	for _, id := range p.Workers {
		out = append(out, s.r.Workers[id])
	}
	return out
}

// capacity is the player's storage capacity (BC-5.1.3, A-30).
func (s *State) capacity(p *Player) int {
	c := s.r.Economy.Storage
	if p.has("STOREHOUSE") {
		c += s.r.Buildings["STOREHOUSE"].Storage
	}
	for _, w := range s.ws(p) {
		c += w.Storage
		if p.has("BREWPUB") {
			c += w.PubStorage
		}
	}
	return c
}

// opCost is the player's operating cost (BC-5.11.1).
func (s *State) opCost(p *Player) int {
	e := &s.r.Economy
	c := e.PrintedCost
	for _, b := range p.Built {
		if b == "DOUBLE_BATCH" {
			c -= e.SingleCost
		}
		c += s.r.Buildings[b].OpCost
	}
	for i := 0; i < p.Shifts; i++ {
		c += e.ShiftCost[i]
	}
	disc := 0
	for _, w := range s.ws(p) {
		c += w.OpCost
		disc += w.OpDiscount
	}
	for t := 0; t < catalog.NTracks; t++ {
		if p.Research[t] >= stAnnual {
			disc += s.lab(t).Annual.OpDiscount
		}
	}
	c -= disc
	if c < 0 {
		c = 0
	}
	return c
}

// shiftNeed is the batches needed for shift k (0-based) (BC-5.3.2).
func (s *State) shiftNeed(p *Player, k int) int {
	need := s.r.Economy.ShiftNeed[k]
	for _, w := range s.ws(p) {
		if len(w.ShiftNeed) > 0 && w.ShiftNeed[k] < need {
			need = w.ShiftNeed[k]
		}
	}
	return need
}

// order returns the seats in turn order from the start player (BC-4.4).
func (s *State) turnOrder() []int {
	o := make([]int, s.N)
	for i := range o {
		o[i] = (s.Start + i) % s.N
	}
	return o
}

func (s *State) rank(seat int) int {
	for i, x := range s.Order {
		if x == seat {
			return i
		}
	}
	return 0
}

// lab returns the research row of a track on the game's lab side (§8.10).
func (s *State) lab(t int) *catalog.ResearchRow { return s.r.ResearchRows[s.opt("research_side")][t] }

// effectGains chooses the ingredients of an effect: Advanced first, then
// Basic, from the command's choices, else the preferences (BC-5.10.2).
func (s *State) effectGains(p *Player, e catalog.Effect, plusB, plusA *[]string) catalog.Bag {
	var g catalog.Bag
	for k := 0; k < e.Adv; k++ {
		codes := catalog.AdvCodes
		if e.AdvDistinct {
			codes = nil
			for _, c := range catalog.AdvCodes {
				if g[catalog.IngIndex(c)] == 0 {
					codes = append(codes, c)
				}
			}
		}
		g[s.pickOf(p, codes, plusA)]++
	}
	for k := 0; k < e.Basic; k++ {
		g[s.pickOf(p, catalog.BasicCodes, plusB)]++
	}
	return g
}

// choiceCombos lists the ingredient choices of an effect (Advanced codes
// first, then Basic ones).
func choiceCombos(e catalog.Effect) [][]string {
	var advs [][]string
	if e.AdvDistinct {
		var rec func(from int, cur []string)
		rec = func(from int, cur []string) {
			if len(cur) == e.Adv {
				advs = append(advs, append([]string(nil), cur...))
				return
			}
			for i := from; i < len(catalog.AdvCodes); i++ {
				rec(i+1, append(cur, catalog.AdvCodes[i]))
			}
		}
		rec(0, nil)
	} else {
		advs = multisets(catalog.AdvCodes, e.Adv)
	}
	var out [][]string
	for _, a := range advs {
		for _, b := range multisets(catalog.BasicCodes, e.Basic) {
			out = append(out, append(append([]string(nil), a...), b...))
		}
	}
	return out
}

// annualAsks reports whether an Annual benefit needs the player (a choice
// or a free action); the others are given automatically.
func annualAsks(e catalog.Effect) bool { return e.Basic > 0 || e.Adv > 0 || e.Free != "" }
