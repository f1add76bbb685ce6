package fromage

import (
	"slices"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
)

// View is what one seat (or an observer, Seat -1) may see (§10.3). Other
// seats' draft hands, picks and unrevealed tile placements, the deck order
// and other seats' standing orders are never in it.
type View struct {
	Seat        int      `json:"seat"`
	Seats       []string `json:"seats"`
	Mode        string   `json:"mode"`
	Group       string   `json:"group"`
	Phase       string   `json:"phase"`
	Turn        int      `json:"turn"`
	Rot         int      `json:"rot"`
	Solo        bool     `json:"solo"`
	Ruleset     string   `json:"ruleset"`
	Provisional bool     `json:"provisional"`
	// End: the end was triggered (the game ends after this turn); EndBy
	// names who placed a last token; Warn lists players with 3 tokens or
	// fewer left (P-2).
	End   bool     `json:"end"`
	EndBy []string `json:"end_by,omitempty"`
	Warn  []Warn   `json:"warn,omitempty"`
	// EndBySeats are EndBy's seats (-1 the Corporation): a view names a
	// seat in a string or a list by its number too, for the name of who
	// holds it now (issue 24; not in the JSON, which keeps the names the
	// engine knows, the seats' first holders).
	EndBySeats []int `json:"-"`
	// CorpName is the Corporation's name in the owner strings (Faces,
	// Owner, Occupied, Leaders, EndBy): what names no seat.
	CorpName string `json:"-"`
	// Quadrants describes the board: venue, side, resource and who faces
	// each quadrant now.
	Quadrants []QuadrantView `json:"quadrants"`
	// Now is the seat's own current turn (nil for observers and outside turns).
	Now *NowView `json:"now,omitempty"`
	// You is the seat's own full data (nil for observers).
	You *PlayerView `json:"you,omitempty"`
	// Players is everyone's public data with a provisional score.
	Players []PlayerView `json:"players"`
	// Ahead lists the next 3 turns for the seat.
	Ahead []AheadView `json:"ahead,omitempty"`
	// Venues lists every venue's spaces with their occupants.
	Venues []VenueView `json:"venues"`
	// Regions is the City influence table with the Customer tokens.
	Regions []RegionView `json:"regions"`
	// Report is the last turn's commands by seat; Mine the seat's commands
	// so far this turn.
	Report []ReportLine `json:"report,omitempty"`
	Mine   []string     `json:"mine,omitempty"`
	Corp   *CorpView    `json:"corp,omitempty"`
	Draft  *DraftView   `json:"draft,omitempty"`
	// Final is the result once the game is over.
	Final *FinalView `json:"final,omitempty"`
	// Standing is, while the game runs (not solo), every seat's score if
	// the game ended now as the public position gives it (Adjudicate,
	// FR-7.2 to FR-7.10) and the leader: during a sealed turn the position
	// at the start of the turn, with nobody's moves of the turn (FR-6.4),
	// so that every seat's view shows the same numbers and the same leader.
	Standing []StandView `json:"standing,omitempty"`
	// Deck and Discard count the Order cards.
	Deck    int `json:"deck"`
	Discard int `json:"discard"`
	// TurnLines is, by the command of each option of the seat's turn
	// decision, what its menu line says of it (turnlines.go, issue 25;
	// not in the JSON).
	TurnLines map[string]TurnLine `json:"-"`
}

// StandView is one seat's projected score in Standing. Lead marks the
// leader (rank 1, ties shared). On the reader's own row only, Sealed says
// that the reader's own moves of this turn change their score and Mine is
// their score with them (what the reader alone may see, FR-6.4).
type StandView struct {
	Seat   int    `json:"-"` // the seat, for its holder's name now (not in the JSON)
	Name   string `json:"name"`
	Total  int    `json:"total"`
	Lead   bool   `json:"lead,omitempty"`
	Sealed bool   `json:"sealed,omitempty"`
	Mine   int    `json:"mine,omitempty"`
}

// Warn is a player close to the end trigger.
type Warn struct {
	Seat   int    `json:"-"` // the seat, for its holder's name now (not in the JSON)
	Name   string `json:"name"`
	Cheese int    `json:"cheese"`
}

// QuadrantView is one board quadrant.
type QuadrantView struct {
	Q        int    `json:"q"`
	Venue    string `json:"venue"`
	Side     string `json:"side"`
	Resource string `json:"resource"`
	Faces    string `json:"faces"` // player name, "" for nobody
	// FacesSeat is the seat of Faces, -1 for nobody (not in the JSON).
	FacesSeat int `json:"-"`
}

// SpaceView is one cheese space.
type SpaceView struct {
	ID      string `json:"id"`
	Name    string `json:"name,omitempty"` // City name
	Type    string `json:"type"`
	Aging   string `json:"aging"`
	Icon    string `json:"icon,omitempty"`
	Crossed bool   `json:"crossed,omitempty"`
	Owner   string `json:"owner,omitempty"` // player name, "Corp", "" empty
	// OwnerSeat is the seat of Owner, -1 for the Corporation or nobody
	// (not in the JSON).
	OwnerSeat int    `json:"-"`
	Group     int    `json:"group"` // shelf (Dairy) or table (Bistro), 1-based; 0 otherwise
	Regions   string `json:"regions,omitempty"`
	// Can: the seat could Produce Cheese here now (worker and Fruit);
	// Order: a pending Order matches; Milk lists the zones that could
	// milk onto it now.
	Can   bool  `json:"can,omitempty"`
	Order bool  `json:"order,omitempty"`
	Milk  []int `json:"milk,omitempty"`
}

// VenueView is a venue with all its spaces.
type VenueView struct {
	Venue  string      `json:"venue"`
	Side   string      `json:"side"`
	Q      int         `json:"q"`
	Spaces []SpaceView `json:"spaces"`
	// Occupied lists the tokens on the venue as "C01 ann" (no words to
	// translate, for compact lines): the Spaces with an Owner, in order
	// (the templates name them from Spaces by OwnerSeat).
	Occupied []string `json:"occupied"`
}

// NowView is the seat's own current turn (§10.3 items 2-3).
type NowView struct {
	Venue    string      `json:"venue"`
	Side     string      `json:"side"`
	Q        int         `json:"q"`
	Resource string      `json:"resource"`
	Open     []SpaceView `json:"open"` // empty, usable spaces of the venue
	Taken    []SpaceView `json:"taken"`
	Occupied []string    `json:"occupied"` // the Taken spaces as "C01 ann"
	CanMake  []string    `json:"can_make"` // ids of the spaces you can make cheese on now
	Matches  []string    `json:"matches"`  // ids of the open spaces matching a pending Order
	ResSpots []ResSpot   `json:"res_spots"`
	Gathered bool        `json:"gathered"`
	Produced bool        `json:"produced"`
	Done     bool        `json:"done"`
	// Context of the venue for the seat: Festival groups, Dairy shelves,
	// Bistro pairings (City: see Regions).
	Groups   []int `json:"groups,omitempty"`
	Shelves  []int `json:"shelves,omitempty"`
	Pairings int   `json:"pairings"`
	// Sub is the sub-decision waiting for an answer, if any.
	Sub string `json:"sub,omitempty"`
}

// ResSpot is a resource space of the current quadrant.
type ResSpot struct {
	N     int    `json:"n"`
	Free  bool   `json:"free"`
	By    string `json:"by,omitempty"`
	Until int    `json:"until,omitempty"`
	// BySeat is the seat of By, -1 when free (not in the JSON).
	BySeat int `json:"-"`
}

// PlayerView is one player's public data.
type PlayerView struct {
	Seat        int           `json:"seat"`
	Name        string        `json:"name"`
	Position    int           `json:"position"`
	Board       int           `json:"board"`
	Cheese      int           `json:"cheese"`
	Placed      int           `json:"placed"`
	Storage     int           `json:"storage"`
	Pasture     int           `json:"pasture"`
	Basket      int           `json:"basket"`
	FruitCheese int           `json:"fruit_cheese"`
	Jam         int           `json:"jam"`
	Pending     []CardView    `json:"pending"`
	Completed   []CardView    `json:"completed"`
	Workers     []WorkerView  `json:"workers"`
	Abilities   []AbilityView `json:"abilities"`
	Zones       []ZoneView    `json:"zones"`
	Score       Breakdown     `json:"score"`
	Done        bool          `json:"done"`
	// Built lists the built columns ("I", "III"); ZonesUsed the used zones.
	Built     []string `json:"built"`
	ZonesUsed []int    `json:"zones_used"`
	Free      []string `json:"free"`            // available workers
	Venue     string   `json:"venue,omitempty"` // the venue faced this turn
	// Own only: kept draft tiles and standing orders.
	Kept   []TileView `json:"kept,omitempty"`
	Policy []string   `json:"policy,omitempty"`
}

// CardView is an Order card.
type CardView struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Aging string `json:"aging"`
}

// WorkerView is one worker (FR-5.10.6).
type WorkerView struct {
	Type    string `json:"type"`
	At      string `json:"at"`             // "home", "res", "cheese", "barn"
	Where   string `json:"where"`          // cheese space id
	Res     string `json:"res,omitempty"`  // resource quadrant of a gathering worker
	Spot    int    `json:"spot,omitempty"` // its resource space (1-3)
	Returns int    `json:"returns"`        // turn
	Points  string `json:"points"`         // venue pointed to ("" for barn/home)
	Back    bool   `json:"back,omitempty"` // available now
}

// AbilityView is one structure column of a player board.
type AbilityView struct {
	Column string `json:"column"`
	Name   string `json:"name"`
	Tile   string `json:"tile,omitempty"`
	Cost   int    `json:"cost"`
	Effect string `json:"effect"`
	Res    string `json:"res,omitempty"`
	Venue  string `json:"venue,omitempty"`
	Type   string `json:"type,omitempty"`
	Aging  string `json:"aging,omitempty"`
	Points int    `json:"points,omitempty"`
	N      int    `json:"n,omitempty"`
	Built  bool   `json:"built"`
}

// ZoneView is a milking zone.
type ZoneView struct {
	N      int    `json:"n"`
	Cost   int    `json:"cost"`
	Type   string `json:"type"`
	Aging  string `json:"aging"`
	Used   bool   `json:"used"`
	Cattle int    `json:"cattle"`
}

// TileView is an advanced structure tile: an ability not yet placed.
type TileView = AbilityView

// AheadView is one of the seat's next turns (§10.3 item 6).
type AheadView struct {
	Turn      int      `json:"turn"`
	Venue     string   `json:"venue"`
	Resource  string   `json:"resource"`
	Returning []string `json:"returning,omitempty"`
}

// RegionView is one City region.
type RegionView struct {
	Name      string `json:"name"`
	Customer  string `json:"customer"`
	Win       int    `json:"win"`
	Tie       int    `json:"tie"`
	Influence []int  `json:"influence"` // by seat, then the Corporation in solo
	Leaders   string `json:"leaders,omitempty"`
	// LeaderSeats are the Leaders' seats in order, -1 the Corporation
	// (not in the JSON).
	LeaderSeats []int `json:"-"`
}

// ReportLine is what one seat did in the last turn.
type ReportLine struct {
	Seat int      `json:"-"` // the seat, for its holder's name now (not in the JSON)
	Name string   `json:"name"`
	Cmds []string `json:"cmds"`
}

// CorpView is the solo Corporation (§10.3 item 10).
type CorpView struct {
	Level   int       `json:"level"`
	Rules   []string  `json:"rules"`
	Left    int       `json:"left"`
	Track   int       `json:"track"`
	Next    int       `json:"next"` // value uncovered by its next token
	Cards   int       `json:"cards"`
	Acts    []CorpAV  `json:"acts,omitempty"`
	Score   CorpScore `json:"score"`
	Choice  string    `json:"choice,omitempty"` // card waiting for the player's choice
	Options []string  `json:"options,omitempty"`
}

// CorpAV is one Corporation draw of this turn.
type CorpAV struct {
	Card  string `json:"card"`
	Type  string `json:"type"`
	Aging string `json:"aging"`
	Space string `json:"space,omitempty"`
	Wide  bool   `json:"wide,omitempty"`
}

// DraftView is the advanced-mode draft as the seat may see it.
type DraftView struct {
	Round  int        `json:"round"`
	Rounds int        `json:"rounds"`
	Hand   []TileView `json:"hand,omitempty"`
	Kept   []TileView `json:"kept,omitempty"`
	Placed []TileView `json:"placed,omitempty"` // own tiles placed, before the reveal
	Picked []bool     `json:"picked"`
	// Picking names the seats that have not picked yet this round.
	Picking []string `json:"picking"`
	// PickingSeats are Picking's seats (not in the JSON).
	PickingSeats []int  `json:"-"`
	Ready        []bool `json:"ready"`
}

// FinalView is the end of the game.
type FinalView struct {
	Rank   []int       `json:"rank"`
	Totals []int       `json:"totals"`
	Won    bool        `json:"won"` // solo: beat the Corporation
	Corp   int         `json:"corp"`
	Scores []Breakdown `json:"scores"`
}

// ownerSeat is the seat of an owner, -1 for the Corporation or nobody.
func ownerSeat(o int) int {
	if o < 0 || o == corpOwner {
		return -1
	}
	return o
}

func (s *State) ownerName(o int) string {
	switch {
	case o == empty:
		return ""
	case o == corpOwner:
		return "Corp"
	}
	return s.H.Seats[o]
}

func (s *State) tileView(t int) TileView { return s.abilityView(&s.r.Tiles[t], false) }

func (s *State) abilityView(a *catalog.Ability, built bool) AbilityView {
	av := AbilityView{Column: catalog.ColNames[a.Column], Name: a.Name, Tile: a.ID, Cost: a.Cost, Effect: a.Effect, Points: a.Points, N: a.N, Built: built}
	if a.Res >= 0 {
		av.Res = catalog.ResNames[a.Res]
	}
	if a.Venue >= 0 {
		av.Venue = catalog.VenueNames[a.Venue]
	}
	if a.Type >= 0 {
		av.Type = catalog.TypeNames[a.Type]
	}
	if a.Aging >= 1 {
		av.Aging = catalog.AgingNames[a.Aging]
	}
	return av
}

func (s *State) spaceView(v, i int) SpaceView {
	sp := s.space(v, i)
	sv := SpaceView{ID: sp.ID, Name: sp.Name, Type: catalog.TypeNames[sp.Type], Aging: catalog.AgingNames[sp.Aging], Icon: catalog.IconNames[sp.Icon],
		Crossed: !s.lay.open[v][i], Owner: s.ownerName(s.Board[v][i]), OwnerSeat: ownerSeat(s.Board[v][i])}
	switch v {
	case catalog.VenDairy:
		sv.Group = sp.Shelf + 1
	case catalog.VenBistro:
		sv.Group = sp.Table + 1
	case catalog.VenCity:
		for k, x := range sp.Regions {
			if k > 0 {
				sv.Regions += ","
			}
			sv.Regions += s.r.Regions[x]
		}
	}
	return sv
}

// View returns what the seat may see. During a turn, the other seats'
// moves of the turn are not shown yet (FR-6.4): their data and the tokens
// they placed are those of the start of the turn until the turn report.
func (s *State) View(seat int) any { return s.ViewAdjudicated(seat, s.Adjudicate()) }

// ViewAdjudicated implements engine.AdjudicatedViewer: View(seat), with
// adj the result of Adjudicate for s (the Standing, the public position's
// score for every seat alike).
func (s *State) ViewAdjudicated(seat int, adj *engine.Result) any {
	var v View
	if s.Phase == phaseTurn && s.Snap != nil {
		v = s.masked(seat).view(seat)
	} else {
		v = s.view(seat)
	}
	v.Standing = s.standing(v.You, adj)
	v.TurnLines = s.turnLines(seat, &v)
	return v
}

// standing is the View's Standing: Adjudicate's scores, the public
// position, for every seat alike; you (the reader's own data, nil for an
// observer) adds the reader's own score with their sealed moves; res is
// Adjudicate's.
func (s *State) standing(you *PlayerView, res *engine.Result) []StandView {
	if res == nil {
		return nil
	}
	out := make([]StandView, len(res.Scores))
	for i, sc := range res.Scores {
		out[i] = StandView{Seat: i, Name: s.H.Seats[i], Total: sc.Total, Lead: res.Rank[i] == 1}
		if you != nil && you.Seat == i && you.Score.Total != sc.Total {
			out[i].Sealed, out[i].Mine = true, you.Score.Total
		}
	}
	return out
}

// masked returns a copy of the state where every seat but the viewer is
// back at the start of the turn, for view only: it shares what it does not
// change with s (the rules, the header, the Corporation, the draft, the
// players' data: every other seat's is the snapshot's, read only), so a
// sealed turn's view costs no clone of the state per seat (issue 25;
// TestMaskedViewIsTheClonedView_Issue25); Adjudicate scores it too.
// Nothing may write through it.
func (s *State) masked(seat int) *State {
	c := *s
	c.Players = make([]Player, len(s.Players))
	for i := range s.Players {
		if i == seat {
			c.Players[i] = s.Players[i]
			continue
		}
		c.Players[i] = s.Snap.Players[i]
		c.Players[i].Done = s.Players[i].Done
	}
	for v := range s.Board {
		var b []int // a copy of the venue, made on its first masked space
		for k, o := range s.Board[v] {
			if o != s.Snap.Board[v][k] && o != seat {
				if b == nil {
					b = slices.Clone(s.Board[v])
				}
				b[k] = s.Snap.Board[v][k]
			}
		}
		if b != nil {
			c.Board[v] = b
		}
	}
	c.Deck = make([]int, s.Snap.Deck)
	c.Discard = make([]int, s.Snap.Discard)
	return &c
}

func (s *State) view(seat int) View {
	n := len(s.Players)
	v := View{Seat: seat, Seats: s.H.Seats, Mode: s.H.Variant, Group: s.lay.group, Phase: s.Phase, Turn: s.Turn, Rot: s.Rot,
		Solo: s.Corp != nil, Ruleset: s.r.Version, Provisional: s.r.Provisional, End: s.End, Deck: len(s.Deck), Discard: len(s.Discard),
		CorpName: s.ownerName(corpOwner)}
	if seat < -1 || seat >= n {
		seat = -1
		v.Seat = -1
	}
	for _, o := range s.EndBy {
		v.EndBy = append(v.EndBy, s.ownerName(o))
		v.EndBySeats = append(v.EndBySeats, ownerSeat(o))
	}
	byPos := map[int]int{}
	for i, p := range s.Pos {
		byPos[p] = i
	}
	v.Quadrants = make([]QuadrantView, 0, 4)
	v.Venues = make([]VenueView, 0, 4)
	for q := 0; q < 4; q++ {
		qv := QuadrantView{Q: q, Venue: catalog.VenueNames[s.VenueAt[q]], Side: s.side(s.VenueAt[q]).Name, Resource: catalog.ResNames[s.ResAt[q]], FacesSeat: -1}
		if i, ok := byPos[mod4(q+s.Rot)]; ok {
			qv.Faces, qv.FacesSeat = s.H.Seats[i], i
		}
		v.Quadrants = append(v.Quadrants, qv)
	}
	for q := 0; q < 4; q++ {
		ven := s.VenueAt[q]
		vv := VenueView{Venue: catalog.VenueNames[ven], Side: s.side(ven).Name, Q: q}
		vv.Occupied = []string{}
		vv.Spaces = make([]SpaceView, 0, len(s.side(ven).Spaces))
		for i := range s.side(ven).Spaces {
			sv := s.spaceView(ven, i)
			vv.Spaces = append(vv.Spaces, sv)
			if sv.Owner != "" {
				vv.Occupied = append(vv.Occupied, sv.ID+" "+sv.Owner)
			}
		}
		v.Venues = append(v.Venues, vv)
	}
	regions := s.cityRegions()
	v.Regions = make([]RegionView, 0, len(regions))
	for x, rr := range regions {
		rv := RegionView{Name: s.r.Regions[x], Customer: s.r.Customers[s.Customer[x]].ID, Win: s.customerValue(x, false),
			Tie: s.customerValue(x, true), Influence: rr.Influence}
		if s.Corp == nil {
			rv.Influence = rr.Influence[:n]
		}
		for k, w := range rr.Winners {
			if k > 0 {
				rv.Leaders += ","
			}
			rv.Leaders += s.ownerName(w)
			rv.LeaderSeats = append(rv.LeaderSeats, ownerSeat(w))
		}
		v.Regions = append(v.Regions, rv)
	}
	reveal := s.Phase == phaseTurn || s.Phase == phaseOver
	v.Players = make([]PlayerView, 0, len(s.Players))
	for i := range s.Players {
		pv := s.playerView(i, regions, reveal || i == seat)
		if s.Players[i].Cheese <= 3 && s.Phase != phaseOver {
			v.Warn = append(v.Warn, Warn{Seat: i, Name: s.H.Seats[i], Cheese: s.Players[i].Cheese})
		}
		v.Players = append(v.Players, pv)
	}
	if seat >= 0 {
		you := v.Players[seat]
		p := &s.Players[seat]
		for _, t := range catalog.SortedCopy(p.Kept) {
			you.Kept = append(you.Kept, s.tileView(t))
		}
		you.Policy = s.policyWords(p)
		v.You = &you
		if s.Phase == phaseTurn {
			v.Now = s.nowView(seat)
			v.Mine = s.Log[seat]
		}
		for k := 1; k <= 3 && s.Phase != phaseOver; k++ {
			t := s.Turn + k
			f := s.facingAt(seat, t)
			av := AheadView{Turn: t, Venue: catalog.VenueNames[s.VenueAt[f]], Resource: catalog.ResNames[s.ResAt[f]]}
			for w, wk := range p.Workers {
				if wk.At != atHome && wk.Ret == t {
					av.Returning = append(av.Returning, catalog.TypeNames[w])
				}
			}
			v.Ahead = append(v.Ahead, av)
		}
	}
	for i, cmds := range s.Last {
		if i < n {
			v.Report = append(v.Report, ReportLine{Seat: i, Name: s.H.Seats[i], Cmds: cmds})
		}
	}
	if s.Corp != nil {
		c := s.Corp
		tr := s.corpLevel().Track
		cv := CorpView{Level: c.Level, Rules: s.corpRules(), Left: c.Left, Track: s.corpTrack(), Cards: len(c.Cards), Score: s.corpScore(regions)}
		if placed := len(tr) - c.Left; placed < len(tr) {
			cv.Next = tr[placed]
		}
		for _, a := range c.Acts {
			cd := &s.r.Cards[a.Card]
			cv.Acts = append(cv.Acts, CorpAV{Card: s.cardLabel(a.Card), Type: catalog.TypeNames[cd.Type], Aging: catalog.AgingNames[cd.Aging], Space: a.Space, Wide: a.Wide})
		}
		if c.Card >= 0 {
			cv.Choice = s.cardLabel(c.Card)
			cv.Options = s.spaceIDs(s.venue(0), c.Options)
		}
		v.Corp = &cv
	}
	if s.Draft != nil && (s.Phase == phaseDraft || s.Phase == phaseTiles) {
		dv := &DraftView{Round: s.Draft.Round, Rounds: s.r.DraftHand}
		for i := range s.Players {
			dv.Picked = append(dv.Picked, s.Players[i].Picked)
			if !s.Players[i].Picked && s.Phase == phaseDraft {
				dv.Picking = append(dv.Picking, s.H.Seats[i])
				dv.PickingSeats = append(dv.PickingSeats, i)
			}
			dv.Ready = append(dv.Ready, s.Players[i].Ready)
		}
		if seat >= 0 {
			p := &s.Players[seat]
			for _, t := range catalog.SortedCopy(p.Hand) {
				dv.Hand = append(dv.Hand, s.tileView(t))
			}
			for _, t := range catalog.SortedCopy(p.Kept) {
				dv.Kept = append(dv.Kept, s.tileView(t))
			}
			for c := 1; c <= 4; c++ {
				if t := p.Tile[c]; t >= 0 {
					dv.Placed = append(dv.Placed, s.tileView(t))
				}
			}
		}
		v.Draft = dv
	}
	if res := s.Result(); res != nil {
		fv := &FinalView{Rank: res.Rank}
		for i := range res.Scores {
			fv.Totals = append(fv.Totals, res.Scores[i].Total)
			fv.Scores = append(fv.Scores, v.Players[i].Score)
		}
		if s.Corp != nil {
			fv.Corp, _ = res.Params["corporation"].(int)
			fv.Won, _ = res.Params["solo_won"].(bool)
		}
		v.Final = fv
	}
	return v
}

func (s *State) playerView(i int, regions []regionResult, tiles bool) PlayerView {
	p := &s.Players[i]
	pv := PlayerView{Seat: i, Name: s.H.Seats[i], Position: s.Pos[i], Board: s.r.Boards[p.Board].ID, Cheese: p.Cheese,
		Placed: s.placed(i), Storage: p.Storage, Pasture: p.Pasture, Basket: p.Basket, FruitCheese: p.FruitCheese, Jam: p.Jam,
		Done: p.Done, Score: s.breakdown(i, regions), Pending: make([]CardView, 0, len(p.Pending)), Completed: make([]CardView, 0, len(p.Completed)),
		Workers: make([]WorkerView, 0, len(p.Workers)), Abilities: make([]AbilityView, 0, 4), Zones: make([]ZoneView, 0, len(s.r.Boards[p.Board].Zones))}
	if s.Phase == phaseTurn {
		pv.Venue = catalog.VenueNames[s.venue(i)]
	}
	for _, c := range p.Pending {
		pv.Pending = append(pv.Pending, s.cardView(c))
	}
	for _, c := range p.Completed {
		pv.Completed = append(pv.Completed, s.cardView(c))
	}
	for w, wk := range p.Workers {
		wv := WorkerView{Type: catalog.TypeNames[w], At: wk.At, Returns: wk.Ret}
		switch wk.At {
		case atHome:
			wv.At, wv.Back = "home", true
			pv.Free = append(pv.Free, catalog.TypeNames[w])
		case atRes:
			wv.Res, wv.Spot = catalog.ResNames[s.ResAt[wk.Q]], wk.Spot
			wv.Points = catalog.VenueNames[s.VenueAt[wk.Points]]
		case atCheese:
			wv.Where = s.space(wk.Q, wk.Spot).ID
			wv.Points = catalog.VenueNames[s.VenueAt[wk.Points]]
		case atBarn:
			wv.Where = "I"
		}
		pv.Workers = append(pv.Workers, wv)
	}
	for c := 1; c <= 4; c++ {
		a := &s.r.Boards[p.Board].Abilities[c]
		if tiles && p.Tile[c] >= 0 {
			a = &s.r.Tiles[p.Tile[c]]
		}
		pv.Abilities = append(pv.Abilities, s.abilityView(a, p.Built[c]))
		if p.Built[c] {
			pv.Built = append(pv.Built, catalog.ColNames[c])
		}
	}
	for z, zn := range s.r.Boards[p.Board].Zones {
		if p.Zones[z] > 0 {
			pv.ZonesUsed = append(pv.ZonesUsed, z+1)
		}
		pv.Zones = append(pv.Zones, ZoneView{N: z + 1, Cost: s.zoneCost(p, z), Type: typeWord(zn.Type), Aging: agingWord(zn.Aging),
			Used: p.Zones[z] > 0, Cattle: p.Zones[z]})
	}
	return pv
}

func (s *State) cardView(c int) CardView {
	cd := &s.r.Cards[c]
	return CardView{ID: s.cardLabel(c), Type: catalog.TypeNames[cd.Type], Aging: catalog.AgingNames[cd.Aging]}
}

func (s *State) policyWords(p *Player) []string {
	out := []string{"ORDERS AUTO"}
	if p.Pol.OrdersAsk {
		out[0] = "ORDERS ASK"
	}
	if len(p.Pol.Dairy) > 0 {
		out = append(out, "DAIRY "+joinWords(resList(p.Pol.Dairy)))
	} else {
		out = append(out, "DAIRY ASK")
	}
	if s.Corp != nil {
		if p.Pol.CorpLowest {
			out = append(out, "CORP LOWEST")
		} else {
			out = append(out, "CORP ASK")
		}
	}
	if len(p.Pol.Picks) > 0 {
		out = append(out, "PICKS "+joinWords(s.tileIDList(p.Pol.Picks)))
	}
	return out
}

func joinWords(ws []string) string {
	out := ""
	for i, w := range ws {
		if i > 0 {
			out += " "
		}
		out += w
	}
	return out
}

// nowView is the seat's current venue and resource quadrant (§10.3 items 2-3).
func (s *State) nowView(seat int) *NowView {
	p := &s.Players[seat]
	f := s.facing(seat)
	ven := s.VenueAt[f]
	nv := &NowView{Venue: catalog.VenueNames[ven], Side: s.side(ven).Name, Q: f, Resource: catalog.ResNames[s.ResAt[f]],
		Gathered: p.Gathered, Produced: p.Produced, Done: p.Done, Open: []SpaceView{}, Taken: []SpaceView{}, Occupied: []string{},
		CanMake: []string{}, Matches: []string{}}
	zones := s.r.Boards[p.Board].Zones
	for i := range s.side(ven).Spaces {
		sv := s.spaceView(ven, i)
		if !s.spaceFree(ven, i) {
			if !sv.Crossed {
				nv.Taken = append(nv.Taken, sv)
				nv.Occupied = append(nv.Occupied, sv.ID+" "+sv.Owner)
			}
			continue
		}
		sp := s.space(ven, i)
		fruitOK := sp.Icon == catalog.IconNone || p.Basket >= 1
		sv.Can = !p.Produced && p.Cheese > 0 && p.Workers[sp.Type].At == atHome && fruitOK
		sv.Order = s.matchingOrder(p, sp) >= 0
		for z := range zones {
			if p.Zones[z] == 0 && p.Pasture >= s.zoneCost(p, z) && zoneFits(zones[z], sp) && fruitOK && p.Cheese > 0 {
				sv.Milk = append(sv.Milk, z+1)
			}
		}
		nv.Open = append(nv.Open, sv)
		if sv.Can {
			nv.CanMake = append(nv.CanMake, sv.ID)
		}
		if sv.Order {
			nv.Matches = append(nv.Matches, sv.ID)
		}
	}
	for n := 1; n <= 3; n++ {
		by, until := s.resBlocked(f, n)
		rs := ResSpot{N: n, Free: by < 0, BySeat: -1}
		if by >= 0 {
			rs.By, rs.BySeat, rs.Until = s.H.Seats[by], by, until
		}
		nv.ResSpots = append(nv.ResSpots, rs)
	}
	switch ven {
	case catalog.VenFestival:
		nv.Groups = s.festivalGroups(seat)
	case catalog.VenDairy:
		seen := map[int]bool{}
		for i, o := range s.Board[catalog.VenDairy] {
			if o == seat && !seen[s.space(catalog.VenDairy, i).Shelf] {
				seen[s.space(catalog.VenDairy, i).Shelf] = true
				nv.Shelves = append(nv.Shelves, s.space(catalog.VenDairy, i).Shelf+1)
			}
		}
		nv.Shelves = catalog.SortedCopy(nv.Shelves)
	case catalog.VenBistro:
		nv.Pairings = s.bistroPairings(seat)
	}
	if len(p.Queue) > 0 {
		nv.Sub = p.Queue[0].K
	}
	return nv
}
