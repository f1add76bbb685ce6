package fromage

import (
	"slices"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
)

// Score categories, in the order of FR-7.2.
var scoreParts = []string{"festival", "city", "dairy", "bistro", "structures", "fruit", "orders", "unused"}

// Breakdown is one seat's final (or provisional) score by category.
type Breakdown struct {
	Festival   int `json:"festival"`
	City       int `json:"city"`
	Dairy      int `json:"dairy"`
	Bistro     int `json:"bistro"`
	Structures int `json:"structures"`
	Fruit      int `json:"fruit"`
	Orders     int `json:"orders"`
	Unused     int `json:"unused"`
	Total      int `json:"total"`
}

func (b Breakdown) parts() []engine.ScorePart {
	v := []int{b.Festival, b.City, b.Dairy, b.Bistro, b.Structures, b.Fruit, b.Orders, b.Unused}
	out := make([]engine.ScorePart, len(v))
	for i := range v {
		out[i] = engine.ScorePart{Name: scoreParts[i], Points: v[i]}
	}
	return out
}

// sum adds the categories (TV-09).
func (b *Breakdown) sum() int {
	b.Total = b.Festival + b.City + b.Dairy + b.Bistro + b.Structures + b.Fruit + b.Orders + b.Unused
	return b.Total
}

// legend reads a scoring legend with a per-step extension beyond its end.
func legend(table []int, beyond, n int) int {
	if n < len(table) {
		return table[n]
	}
	return table[len(table)-1] + (n-len(table)+1)*beyond
}

// festivalGroups returns the sizes of the seat's Festival groups (FR-7.3,
// own tokens plus every Free Sample, split into orthogonally adjacent
// groups; only groups holding an own token count.
func (s *State) festivalGroups(seat int) []int {
	sd := s.side(catalog.VenFestival)
	var cell [7][7]int // 0 none, 1 own token, 2 free sample
	for i := range sd.Spaces {
		if s.Board[catalog.VenFestival][i] == seat {
			cell[sd.Spaces[i].Row][sd.Spaces[i].Col] = 1
		}
	}
	for _, f := range sd.Free {
		cell[f[0]][f[1]] = 2
	}
	var seen [7][7]bool
	var sizes []int
	// Each cell is pushed once (marked seen when pushed): the stack never
	// holds more than the 7x7 grid, so it lives on the stack, not the heap.
	var buf [49][2]int
	for r := 1; r <= 5; r++ {
		for c := 1; c <= 5; c++ {
			if cell[r][c] != 1 || seen[r][c] {
				continue
			}
			size := 0
			stack := append(buf[:0], [2]int{r, c})
			seen[r][c] = true
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				size++
				for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
					y := [2]int{x[0] + d[0], x[1] + d[1]}
					if cell[y[0]][y[1]] != 0 && !seen[y[0]][y[1]] {
						seen[y[0]][y[1]] = true
						stack = append(stack, y)
					}
				}
			}
			sizes = append(sizes, size)
		}
	}
	return sizes
}

func (s *State) festivalScore(seat int) int {
	pts := 0
	for _, n := range s.festivalGroups(seat) {
		pts += legend(s.r.FestivalPP, s.r.FestivalBeyond, n)
	}
	return pts
}

// cityResult returns, per region, the influence of every owner (seats and
// the Corporation at index len(Players)) and the region's winners (FR-7.4,
// A-3, R3).
type regionResult struct {
	Influence []int // by seat, then the Corporation
	Winners   []int // owners with the most influence (>0); the Corporation as corpOwner
	Tie       bool
}

func (s *State) cityRegions() []regionResult {
	n := len(s.Players)
	sd := s.side(catalog.VenCity)
	out := make([]regionResult, len(s.r.Regions))
	for x := range out {
		out[x].Influence = make([]int, n+1)
	}
	for i := range sd.Spaces {
		o := s.Board[catalog.VenCity][i]
		if o == empty {
			continue
		}
		k := o
		if o == corpOwner {
			k = n
		}
		for _, x := range sd.Spaces[i].Regions {
			out[x].Influence[k]++
		}
	}
	r3 := s.Corp != nil && s.corpLevel().Rules["R3"]
	for x := range out {
		best := 0
		for _, v := range out[x].Influence {
			if v > best {
				best = v
			}
		}
		if best == 0 {
			continue // nobody scores an empty region
		}
		for k, v := range out[x].Influence {
			if v == best {
				o := k
				if k == n {
					o = corpOwner
				}
				out[x].Winners = append(out[x].Winners, o)
			}
		}
		out[x].Tie = len(out[x].Winners) > 1
		if out[x].Tie && r3 && slices.Contains(out[x].Winners, corpOwner) {
			// R3 Market dominance: the Corporation wins every tie it is part of.
			out[x].Winners, out[x].Tie = []int{corpOwner}, false
		}
	}
	return out
}

// customerValue returns a region's Customer token value, win or tie side,
// for the game's group (D-8).
func (s *State) customerValue(region int, tie bool) int {
	c := s.r.Customers[s.Customer[region]]
	if tie {
		return c.Tie[s.lay.group]
	}
	return c.Win[s.lay.group]
}

func (s *State) cityScore(seat int, regions []regionResult) (pts, outright int) {
	for x, rr := range regions {
		if slices.Contains(rr.Winners, seat) {
			pts += s.customerValue(x, rr.Tie)
			if !rr.Tie {
				outright++
			}
		}
	}
	return pts, outright
}

// dairyScore: distinct shelves through the legend, plus the point shelves
// (FR-7.5).
func (s *State) dairyScore(seat int) int {
	sd := s.side(catalog.VenDairy)
	shelves := map[int]bool{}
	pts := 0
	for i := range sd.Spaces {
		if s.Board[catalog.VenDairy][i] != seat {
			continue
		}
		sh := sd.Spaces[i].Shelf
		shelves[sh] = true
		if sd.Shelves[sh].Sign == catalog.SignPoints {
			pts += sd.Shelves[sh].Points
		}
	}
	return pts + legend(s.r.DairyPP, 0, len(shelves))
}

// bistroPairings counts the tables whose two plates hold the seat's tokens.
func (s *State) bistroPairings(seat int) int {
	sd := s.side(catalog.VenBistro)
	own := make([]int, sd.Tables)
	for i := range sd.Spaces {
		if s.Board[catalog.VenBistro][i] == seat {
			own[sd.Spaces[i].Table]++
		}
	}
	n := 0
	for _, k := range own {
		if k == 2 {
			n++
		}
	}
	return n
}

// bistroScore: the row of the pairing count, each own plate by its aging (FR-7.6).
func (s *State) bistroScore(seat int) int {
	row := s.bistroPairings(seat)
	if row >= len(s.r.BistroPP) {
		row = len(s.r.BistroPP) - 1
	}
	sd := s.side(catalog.VenBistro)
	pts := 0
	for i := range sd.Spaces {
		if s.Board[catalog.VenBistro][i] == seat {
			pts += s.r.BistroPP[row][sd.Spaces[i].Aging-1]
		}
	}
	return pts
}

// used counts a player's used resources of a type.
func (s *State) used(p *Player, res int) int {
	switch res {
	case catalog.ResStructure:
		n := 0
		for c := 1; c <= 4; c++ {
			if p.Built[c] {
				n += s.ability(p, c).Cost
			}
		}
		return n
	case catalog.ResCattle:
		n := 0
		for _, z := range p.Zones {
			n += z
		}
		return n
	case catalog.ResFruit:
		return p.FruitCheese + p.Jam
	}
	return len(p.Completed)
}

// structuresScore: the column-IV ability (printed headquarters or an
// advanced tile, D-15) (FR-5.9.5, FR-7.2 item 5).
func (s *State) structuresScore(seat int, outright int) int {
	p := &s.Players[seat]
	a := s.active(p, 4)
	if a == nil {
		return 0
	}
	own := func(match func(sp *catalog.Space) bool) int {
		n := 0
		for v := range s.Board {
			for i, o := range s.Board[v] {
				if o == seat && match(s.space(v, i)) {
					n++
				}
			}
		}
		return n
	}
	switch a.Effect {
	case "hq":
		return s.used(p, a.Res)
	case "aging_pp":
		return a.Points * own(func(sp *catalog.Space) bool { return sp.Aging == a.Aging })
	case "type_pp":
		return a.Points * own(func(sp *catalog.Space) bool { return sp.Type == a.Type })
	case "town_hall":
		return a.Points * outright
	case "market_pp":
		n := 0
		for v := range s.Board {
			k := 0
			for _, o := range s.Board[v] {
				if o == seat {
					k++
				}
			}
			if k >= a.N {
				n++
			}
		}
		return a.Points * n
	case "pantry":
		return a.Points * p.unused()
	case "tasting":
		n := s.bistroPairings(seat)
		for _, g := range s.festivalGroups(seat) {
			if g >= a.N {
				n++
			}
		}
		return a.Points * n
	}
	return 0
}

// breakdown computes a seat's score as if the game ended now (FR-7.2..FR-7.9).
func (s *State) breakdown(seat int, regions []regionResult) Breakdown {
	p := &s.Players[seat]
	var b Breakdown
	b.Festival = s.festivalScore(seat)
	city, outright := s.cityScore(seat, regions)
	b.City = city
	b.Dairy = s.dairyScore(seat)
	b.Bistro = s.bistroScore(seat)
	b.Structures = s.structuresScore(seat, outright)
	b.Fruit = p.FruitCheese * p.Jam
	b.Orders = legend(s.r.OrdersPP, s.r.OrdersBeyond, len(p.Completed))
	b.Unused = p.unused() / 2
	b.sum()
	return b
}

// CorpScore is the solo Corporation's score (FR-5.12.6).
type CorpScore struct {
	Track     int `json:"track"`
	Customers int `json:"customers"`
	Cards     int `json:"cards"`
	Total     int `json:"total"`
}

func (s *State) corpScore(regions []regionResult) CorpScore {
	var c CorpScore
	c.Track = s.corpTrack()
	for x, rr := range regions {
		if slices.Contains(rr.Winners, corpOwner) {
			c.Customers += s.customerValue(x, rr.Tie)
		}
	}
	c.Cards = s.r.CorpOrderPts * len(s.Corp.Cards)
	c.Total = c.Track + c.Customers + c.Cards
	return c
}

// scoreOf builds a seat's engine score; the tie-break is the number of
// cheese tokens placed (FR-7.10).
func (s *State) scoreOf(seat int, b Breakdown, placed int) engine.Score {
	return engine.Score{Seat: seat, Total: b.Total, Parts: b.parts(), Tiebreak: []int{placed}}
}

// Result returns the final scores once the game is over (FR-7.10): most PP,
// then most cheese tokens placed; still tied = shared win. In solo the
// player wins only with strictly more PP than the Corporation; the
// Corporation's score and the outcome are in Params.
func (s *State) Result() *engine.Result {
	if s.Phase != phaseOver {
		return nil
	}
	return s.scoreNow()
}

// scoreNow scores every seat as if the game ended now (FR-7.2 to FR-7.10).
func (s *State) scoreNow() *engine.Result {
	regions := s.cityRegions()
	scores := make([]engine.Score, len(s.Players))
	for seat := range s.Players {
		scores[seat] = s.scoreOf(seat, s.breakdown(seat, regions), s.placed(seat))
	}
	res := &engine.Result{Scores: scores, Rank: engine.RankScores(scores), Params: map[string]any{"turns": s.Turn}}
	var by []string
	for _, o := range s.EndBy {
		if o == corpOwner {
			by = append(by, "corporation")
		} else {
			by = append(by, s.H.Seats[o])
		}
	}
	res.Params["end_by"] = by
	if s.Corp != nil {
		cs := s.corpScore(regions)
		won := scores[0].Total > cs.Total
		res.Params["corporation"] = cs.Total
		res.Params["corporation_track"] = cs.Track
		res.Params["corporation_customers"] = cs.Customers
		res.Params["corporation_cards"] = cs.Cards
		res.Params["level"] = s.Corp.Level
		res.Params["solo_won"] = won
	}
	return res
}
