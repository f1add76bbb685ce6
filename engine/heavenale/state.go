package heavenale

import (
	"slices"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
)

// Phases of a game.
const (
	phaseSetup = "setup" // start-space picks (HA-3.9)
	phasePlay  = "play"  // the rounds (§4)
	phaseOver  = "over"
)

// Steps within a turn (the decision owed by the active seat).
const (
	subMove  = "move"  // choose a destination (HA-5.1)
	subBuy   = "buy"   // buy tiles on a resource or monk space (HA-5.2, 5.3)
	subShed  = "shed"  // choose the tiles a new shed activates (HA-5.5.4)
	subScore = "score" // put the disc on a scoring spot (HA-5.6)
	subPriv  = "priv"  // privilege card for a completed pair (HA-5.9)
	subHome  = "home"  // start-space choice (HA-5.12)
)

// State is one game of Heaven & Ale in progress. It marshals to JSON with
// the engine Header under "head".
type State struct {
	H engine.Header `json:"head"`
	Core
	// Undo is the position at the start of the current turn (UNDO, §10.3);
	// nil before the turn's first move.
	Undo *Core `json:"undo,omitempty"`

	r *catalog.Rules
}

// Core is the part of the state a turn changes; UNDO restores it.
type Core struct {
	Phase  string `json:"phase"`
	Round  int    `json:"round"`
	Rounds int    `json:"rounds"`
	// Starter is the start player (HA-3.9).
	Starter int `json:"starter"`
	// Lead is the seat that started the current round (on FIRST at its start).
	Lead int `json:"lead"`
	// Cur is the seat owing the decision, Sub what it owes (see sub*).
	Cur int    `json:"cur"`
	Sub string `json:"sub"`
	// Picks are the seats still to pick a start space at setup, in order.
	Picks []int `json:"picks,omitempty"`
	// Spaces holds the tiles on each track space 1..27 (index 0 unused),
	// oldest first; Discs the scoring discs on each space.
	Spaces [][]string `json:"spaces"`
	Discs  []int      `json:"discs"`
	// Home gives the seat on each start space FIRST, BREW, RES, CASH (-1 free).
	Home [4]int `json:"home"`
	// PileI, PileII: the face-down resource piles, top first (hidden).
	PileI  []string `json:"pile1"`
	PileII []string `json:"pile2"`
	// Stacks are the monk stacks not yet dealt, in order, top first (hidden).
	Stacks [][]string `json:"stacks"`
	// Large, Small give the holder of each goal's barrels (-1 in the centre).
	Large []int `json:"large"`
	Small []int `json:"small"`
	// Bought counts the tiles bought on this turn's space; Sheds are the
	// shed sites enclosed and awaiting their activation choice (ascending,
	// HA-5.5.5); Pair is the pair just completed (-1 none).
	Bought int   `json:"bought,omitempty"`
	Sheds  []int `json:"sheds,omitempty"`
	Pair   int   `json:"pair"`
	// AutoDone: the purchases end once the sheds are resolved. No longer
	// set (issue 21: the message that answers the shed choice continues
	// the turn, §10.1); honoured for states stored before.
	AutoDone bool `json:"auto_done,omitempty"`
	// Final is the result of the final scoring (phase over).
	Final *Final `json:"final,omitempty"`

	Players []Player `json:"players"`
}

// Player is one seat's pieces.
type Player struct {
	Ducats  int    `json:"ducats"`
	Brew    int    `json:"brew"`
	Markers [5]int `json:"markers"`
	// Garden holds each garden cell's content: "" empty, a tile code, or a
	// shed "T<type>" on a site.
	Garden []string `json:"garden"`
	// Spots marks the scoring spots X, WO..BA, M1..M4 holding a disc.
	Spots [10]bool `json:"spots"`
	// Cards are the unplaced privilege cards (CASH BREW COLOR LOW BARREL);
	// Placed the card beside each pair ("" none yet, "-" passed).
	Cards  []string  `json:"cards"`
	Placed [5]string `json:"placed"`
	// Pos is the figure's track space (0: on a start space, homePos never
	// stored), Spot its start space when Pos is 0, Back whether it entered
	// the start area this round.
	Pos  int  `json:"pos"`
	Spot int  `json:"spot"`
	Back bool `json:"back,omitempty"`
	// Turns counts the seat's completed turns (queue slots t<Turns+1>).
	Turns int `json:"turns"`
	// Standing orders (§10.2).
	PrefHome []string `json:"pref_home,omitempty"`
	PrefPriv []string `json:"pref_priv,omitempty"`
	EndSell  bool     `json:"end_sell,omitempty"`
	// Compact: draw the seat's own garden in the narrow form (PREF GARDEN).
	Narrow bool `json:"narrow,omitempty"`
}

// Final is the final scoring (HA-7).
type Final struct {
	Players []FinalPlayer `json:"players"`
}

// FinalPlayer is one seat's final scoring, step by step.
type FinalPlayer struct {
	Sold       int      `json:"sold,omitempty"` // cards sold by AUTO ENDSELL
	Rate       int      `json:"rate"`
	VP         int      `json:"vp"`
	Before     [5]int   `json:"before"`
	Exchanged  [5]int   `json:"exchanged"`
	Exchanges  []string `json:"exchanges,omitempty"`
	DucatSteps []int    `json:"ducat_steps,omitempty"` // colour moved per 10 ducats
	After      [5]int   `json:"after"`
	Lowest     int      `json:"lowest"`
	Production int      `json:"production"`
	Large      int      `json:"large"`
	Small      int      `json:"small"`
	Barrels    int      `json:"barrels"`
	CardBonus  int      `json:"card_bonus"`
	First      int      `json:"first"`
	Total      int      `json:"total"`
	Ducats     int      `json:"ducats"`
}

// Head implements engine.State.
func (s *State) Head() *engine.Header { return &s.H }

// Clone implements engine.State.
func (s *State) Clone() engine.State {
	c := &State{H: s.H.Clone(), Core: s.Core.clone(), r: s.r}
	if s.Undo != nil {
		u := s.Undo.clone()
		c.Undo = &u
	}
	return c
}

func (c *Core) clone() Core {
	d := *c
	d.Picks = slices.Clone(c.Picks)
	// One backing array for every space (capacities capped, so an append
	// reallocates instead of overwriting the next space).
	total := 0
	for _, sp := range c.Spaces {
		total += len(sp)
	}
	buf := make([]string, total)
	d.Spaces = make([][]string, len(c.Spaces))
	off := 0
	for i, sp := range c.Spaces {
		if sp == nil {
			continue
		}
		n := copy(buf[off:], sp)
		d.Spaces[i] = buf[off : off+n : off+n]
		off += n
	}
	d.Discs = slices.Clone(c.Discs)
	d.PileI = slices.Clone(c.PileI)
	d.PileII = slices.Clone(c.PileII)
	if c.Stacks != nil {
		d.Stacks = make([][]string, len(c.Stacks))
		for i, st := range c.Stacks {
			d.Stacks[i] = slices.Clone(st)
		}
	}
	d.Large = slices.Clone(c.Large)
	d.Small = slices.Clone(c.Small)
	d.Sheds = slices.Clone(c.Sheds)
	if c.Final != nil {
		f := Final{Players: make([]FinalPlayer, len(c.Final.Players))}
		for i, p := range c.Final.Players {
			p.Exchanges = slices.Clone(p.Exchanges)
			p.DucatSteps = slices.Clone(p.DucatSteps)
			f.Players[i] = p
		}
		d.Final = &f
	}
	d.Players = make([]Player, len(c.Players))
	gl := 0
	for _, p := range c.Players {
		gl += len(p.Garden)
	}
	gbuf := make([]string, gl)
	goff := 0
	for i, p := range c.Players {
		if p.Garden != nil {
			n := copy(gbuf[goff:], p.Garden)
			p.Garden = gbuf[goff : goff+n : goff+n]
			goff += n
		}
		d.Players[i] = p.cloneLists()
	}
	return d
}

// cloneLists is p with its own copies of the lists a move changes, but
// for the garden (Core.clone lays every garden in one array).
func (p Player) cloneLists() Player {
	p.Cards = slices.Clone(p.Cards)
	p.PrefHome = slices.Clone(p.PrefHome)
	p.PrefPriv = slices.Clone(p.PrefPriv)
	return p
}

// n returns the number of players.
func (s *State) n() int { return len(s.Players) }

// clampMarker moves marker c of seat by k steps forward; steps beyond the
// top give 1 ducat each (HA-5.8.2). It returns the ducats gained.
func (s *State) moveMarker(seat, c, k int) int {
	p := &s.Players[seat]
	p.Markers[c] += k
	if p.Markers[c] > s.r.Max {
		over := p.Markers[c] - s.r.Max
		p.Markers[c] = s.r.Max
		p.Ducats += over
		return over
	}
	return 0
}

// moveBrew moves the brewmaster k steps forward; steps beyond the top are
// lost (HA-5.8.3, AMB-6).
func (s *State) moveBrew(seat, k int) {
	p := &s.Players[seat]
	p.Brew += k
	if p.Brew > s.r.Max {
		p.Brew = s.r.Max
	}
}

// sellable is the cash a seat could raise by emergency sales (HA-5.10, AMB-2).
func (s *State) sellable(seat int) int {
	return len(s.Players[seat].Cards) * s.r.C.SaleDucats
}

// hasCard reports whether the seat still holds an unplaced card.
func (p *Player) hasCard(c string) bool { return slices.Index(p.Cards, c) >= 0 }

func (p *Player) dropCard(c string) {
	i := slices.Index(p.Cards, c)
	if i >= 0 {
		p.Cards = append(p.Cards[:i:i], p.Cards[i+1:]...)
	}
}

// placedCards counts the cards placed beside pairs (G12).
func (p *Player) placedCards() int {
	k := 0
	for _, c := range p.Placed {
		if c != "" && c != "-" {
			k++
		}
	}
	return k
}

// discCount counts the discs on the seat's scoring spots (LOW card).
func (p *Player) discCount() int {
	k := 0
	for _, b := range p.Spots {
		if b {
			k++
		}
	}
	return k
}

// lowest returns the position of the least advanced marker.
func (p *Player) lowest() int {
	m := p.Markers[0]
	for _, v := range p.Markers[1:] {
		if v < m {
			m = v
		}
	}
	return m
}

// barrels counts the seat's large and small barrels.
func (s *State) barrels(seat int) (large, small int) {
	for g := range s.Large {
		if s.Large[g] == seat {
			large++
		}
		if s.Small[g] == seat {
			small++
		}
	}
	return
}

// marks copies a marker array into a slice (events must not alias the state).
func marks(m [5]int) []int { return append([]int(nil), m[:]...) }
