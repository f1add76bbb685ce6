package heavenale

import (
	"slices"
	"strconv"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
)

// setup performs HA-3.1 to HA-3.9 up to the first start-space pick.
func (s *State) setup() []engine.Event {
	r := s.r
	n := len(s.H.Seats)
	ct := r.Counts[n]
	s.Phase, s.Round, s.Rounds, s.Pair = phaseSetup, 0, ct.Rounds, -1
	// HA-3.2: resource piles by back, shuffled separately.
	mk := func(back string) []string {
		var pile []string
		for c := range catalog.ColourNames {
			for f := 1; f <= 5; f++ {
				for k := 0; k < r.TilesPer[back]; k++ {
					pile = append(pile, catalog.TileCode(c, f))
				}
			}
		}
		s.H.Rand.Shuffle(len(pile), func(i, j int) { pile[i], pile[j] = pile[j], pile[i] })
		return pile
	}
	s.PileI, s.PileII = mk("I"), mk("II")
	if s.PileI == nil {
		s.PileI = []string{}
	}
	if s.PileII == nil {
		s.PileII = []string{}
	}
	// HA-3.4: monk stacks.
	monks := map[string][]string{}
	for _, back := range []string{"I", "II"} {
		var m []string
		for t := 1; t <= 4; t++ {
			for k := 0; k < r.MonksPer[back]; k++ {
				m = append(m, catalog.MonkCode(t))
			}
		}
		s.H.Rand.Shuffle(len(m), func(i, j int) { m[i], m[j] = m[j], m[i] })
		monks[back] = m
	}
	per := len(r.MonkSpaces)
	s.Stacks = make([][]string, 0, len(ct.Stacks))
	for _, back := range ct.Stacks {
		s.Stacks = append(s.Stacks, append([]string(nil), monks[back][:per]...))
		monks[back] = monks[back][per:]
	}
	// HA-3.5, HA-3.6, HA-3.7.
	s.Spaces = make([][]string, catalog.HomePos)
	for i := range s.Spaces {
		s.Spaces[i] = []string{}
	}
	s.Discs = make([]int, catalog.HomePos)
	s.Large, s.Small = make([]int, len(r.Goals)), make([]int, len(r.Goals))
	for g := range r.Goals {
		s.Large[g], s.Small[g] = -1, -1
	}
	// HA-3.8.
	s.Players = make([]Player, n)
	for i := range s.Players {
		s.Players[i] = Player{Ducats: r.C.StartDucats, Brew: r.StartBrew, Markers: r.StartMark,
			Garden: make([]string, len(r.Cells)), Cards: append([]string(nil), catalog.CardNames...), Spot: -1}
	}
	evs := []engine.Event{}
	evs = append(evs, s.deal()...)
	// HA-3.9: start player and start spaces.
	switch v := s.H.Options["start_player"]; v {
	case "", "random":
		s.Starter = s.H.Rand.Choose("first", s.H.Seats)
	default:
		k, _ := strconv.Atoi(v)
		s.Starter = k - 1
	}
	for i := range s.Home {
		s.Home[i] = -1
	}
	s.Home[catalog.HomeFirst] = s.Starter
	s.Lead = s.Starter
	s.Players[s.Starter].Spot = catalog.HomeFirst
	dir := -1 // counterclockwise (AMB-1)
	if s.H.Options["setup_pick_direction"] == "clockwise" {
		dir = 1
	}
	for k := 1; k < n; k++ {
		s.Picks = append(s.Picks, ((s.Starter+dir*k)%n+n)%n)
	}
	evs = append(evs, engine.NewEvent("ha.setup", -1, engine.Public, "starter", s.Starter,
		"picks", slices.Clone(s.Picks), "rounds", s.Rounds))
	s.Cur, s.Sub = s.Picks[0], subHome
	return evs
}

// deal puts the next monk stack and one resource tile per resource space on
// the track (HA-3.5, HA-3.2, HA-4.4.1, HA-4.4.2, HA-6.2).
func (s *State) deal() []engine.Event {
	r := s.r
	var dealt []string
	if len(s.Stacks) > 0 {
		st := s.Stacks[0]
		s.Stacks = s.Stacks[1:]
		for i, n := range r.MonkSpaces {
			if i < len(st) {
				s.Spaces[n] = append(s.Spaces[n], st[i])
				dealt = append(dealt, strconv.Itoa(n)+":"+st[i])
			}
		}
	}
	for _, n := range r.ResSpaces {
		var t string
		switch {
		case len(s.PileI) > 0:
			t, s.PileI = takeTile(&s.H.Rand, s.PileI)
		case len(s.PileII) > 0:
			t, s.PileII = takeTile(&s.H.Rand, s.PileII)
		default:
			continue
		}
		s.Spaces[n] = append(s.Spaces[n], t)
		dealt = append(dealt, strconv.Itoa(n)+":"+t)
	}
	// HA-3.6, HA-4.4.3: top every disc space up to exactly 1.
	for _, n := range r.DiscSpaces {
		if s.Discs[n] < 1 {
			s.Discs[n] = 1
		}
	}
	return []engine.Event{engine.NewEvent("ha.deal", -1, engine.Public, "round", s.Round+1, "tiles", dealt,
		"pile1", len(s.PileI), "pile2", len(s.PileII), "stacks", len(s.Stacks))}
}

// takeTile draws the top tile of a pile; a script ("!tile HO5") may name the
// tile drawn instead (it must be in the pile).
func takeTile(rnd *engine.Rand, pile []string) (string, []string) {
	i := rnd.Take("tile", pile, 0)
	t := pile[i]
	out := make([]string, 0, len(pile)-1)
	out = append(out, pile[:i]...)
	return t, append(out, pile[i+1:]...)
}

// startRound begins round r (HA-4.1.2, HA-4.2.1).
func (s *State) startRound() {
	s.Round++
	for i := range s.Players {
		s.Players[i].Back = false
		s.Players[i].Pos = 0
	}
	s.Cur, s.Sub = s.Home[catalog.HomeFirst], subMove
	s.Lead = s.Cur
}

// endTurn closes the active seat's turn and passes to the next (HA-4.2,
// HA-4.3).
func (s *State) endTurn() []engine.Event {
	p := &s.Players[s.Cur]
	p.Turns++
	s.Undo, s.Bought, s.Sheds, s.Pair, s.AutoDone = nil, 0, nil, -1, false
	n := s.n()
	for k := 1; k <= n; k++ {
		nx := (s.Cur + k) % n
		if !s.Players[nx].Back {
			s.Cur, s.Sub = nx, subMove
			return nil
		}
	}
	return s.endRound()
}

// endRound ends a round: the game, or the preparation of the next (HA-4.3, HA-4.4).
func (s *State) endRound() []engine.Event {
	evs := []engine.Event{engine.NewEvent("ha.round_end", -1, engine.Public, "round", s.Round)}
	if s.Round >= s.Rounds {
		return append(evs, s.finish()...)
	}
	evs = append(evs, s.deal()...)
	// HA-4.4.4: the last round's extra discs.
	if s.Round+1 == s.Rounds {
		for _, d := range s.r.Counts[s.n()].FinalDiscs {
			s.Discs[d]++
		}
	}
	s.startRound()
	return append(evs, engine.NewEvent("ha.round", -1, engine.Public, "round", s.Round, "first", s.Cur))
}

// ---- what a seat can do ----

// price returns the price of a tile bought on space n for a side (HA-5.2.2, HA-5.3.2).
func (s *State) price(n int, tile string, side int) int {
	base := catalog.TileFert(tile)
	if s.r.Track[n].KindIdx == catalog.KindMonk {
		base = s.r.Track[n].Cost
	}
	if side == catalog.SideSun {
		return 2 * base
	}
	return base
}

// emptyOn returns the seat's empty cells of a side.
func (s *State) emptyOn(seat, side int) []int {
	cells := s.r.SunCells
	if side == catalog.SideShade {
		cells = s.r.ShadeCells
	}
	var out []int
	for _, c := range cells {
		if s.Players[seat].Garden[c] == "" {
			out = append(out, c)
		}
	}
	return out
}

func (s *State) hasEmpty(seat, side int) bool {
	cells := s.r.SunCells
	if side == catalog.SideShade {
		cells = s.r.ShadeCells
	}
	for _, c := range cells {
		if s.Players[seat].Garden[c] == "" {
			return true
		}
	}
	return false
}

// canBuy reports whether the seat can place a tile of space n paying at
// most budget ducats (HA-5.1.4).
func (s *State) canBuy(seat, n, budget int) bool {
	sun, shade := s.hasEmpty(seat, catalog.SideSun), s.hasEmpty(seat, catalog.SideShade)
	for _, t := range s.Spaces[n] {
		if (shade && s.price(n, t, catalog.SideShade) <= budget) || (sun && s.price(n, t, catalog.SideSun) <= budget) {
			return true
		}
	}
	return false
}

// spotOption is a usable scoring spot; N is the nominated number for X.
type spotOption struct{ Spot, N int }

// usable lists the scoring spots a disc of the given kind can go on
// (HA-5.6.1, HA-5.6.2, AMB-4).
func (s *State) usable(seat, disc int) []spotOption {
	p := &s.Players[seat]
	var fert [6]bool
	var colour [5]bool
	var monk [5]bool
	anyRes := false
	for i, t := range p.Garden {
		if s.r.Cells[i].Side == catalog.SideShed {
			continue
		}
		if c := catalog.TileColour(t); c >= 0 {
			colour[c], fert[catalog.TileFert(t)], anyRes = true, true, true
		} else if m := catalog.MonkType(t); m > 0 {
			monk[m] = true
		}
	}
	var out []spotOption
	if (disc == catalog.DiscA || disc == catalog.DiscABC) && !p.Spots[catalog.SpotX] {
		for f := 1; f <= 5; f++ {
			if fert[f] || (s.H.Options["allow_x_without_matching_tile"] == "true" && anyRes) {
				out = append(out, spotOption{catalog.SpotX, f})
			}
		}
	}
	if disc == catalog.DiscC || disc == catalog.DiscABC {
		for c := 0; c < 5; c++ {
			if colour[c] && !p.Spots[catalog.SpotColor+c] {
				out = append(out, spotOption{catalog.SpotColor + c, 0})
			}
		}
	}
	if disc == catalog.DiscB || disc == catalog.DiscABC {
		for t := 1; t <= 4; t++ {
			if monk[t] && !p.Spots[catalog.SpotMonk+t-1] {
				out = append(out, spotOption{catalog.SpotMonk + t - 1, 0})
			}
		}
	}
	return out
}

// goalMet reports whether the seat meets barrel goal g now (§8.9).
func (s *State) goalMet(seat, g int) bool {
	p := &s.Players[seat]
	gl := s.r.Goals[g]
	switch gl.Kind {
	case "brewmaster":
		return p.Brew >= gl.N
	case "all_markers":
		return p.lowest() >= gl.N
	case "marker_at":
		for _, m := range p.Markers {
			if m >= gl.N {
				return true
			}
		}
		return false
	case "fertility":
		k := 0
		for _, t := range p.Garden {
			if catalog.TileColour(t) >= 0 && catalog.TileFert(t) == gl.F {
				k++
			}
		}
		return k >= gl.N
	case "monk_spots":
		return p.Spots[6] && p.Spots[7] && p.Spots[8] && p.Spots[9]
	case "colour_spots":
		return p.Spots[1] && p.Spots[2] && p.Spots[3] && p.Spots[4] && p.Spots[5]
	case "same_shed", "shed_types":
		var by [5]int
		for _, site := range s.r.ShedSites {
			if t := catalog.ShedType(p.Garden[site]); t >= 0 {
				by[t]++
			}
		}
		best, kinds := 0, 0
		for _, k := range by {
			if k > best {
				best = k
			}
			if k > 0 {
				kinds++
			}
		}
		if gl.Kind == "same_shed" {
			return best >= gl.N
		}
		return kinds >= gl.N
	case "sunny_full":
		return !s.hasEmpty(seat, catalog.SideSun)
	case "shady_full":
		return !s.hasEmpty(seat, catalog.SideShade)
	case "cards_placed":
		return p.placedCards() >= gl.N
	}
	return false
}

// claimable lists the goals whose barrel the seat would take (HA-5.11.2).
func (s *State) claimable(seat int) []int {
	var out []int
	for g := range s.r.Goals {
		if s.Large[g] == seat || s.Small[g] == seat {
			continue
		}
		if s.Large[g] >= 0 && s.Small[g] >= 0 {
			continue
		}
		if s.goalMet(seat, g) {
			out = append(out, g)
		}
	}
	return out
}

// reachable reports whether the seat may move to space n (HA-5.1.4).
func (s *State) reachable(seat, n int) bool {
	p := &s.Players[seat]
	if n == catalog.HomePos {
		return true
	}
	if n < 1 || n >= catalog.HomePos || (p.Pos != 0 && n <= p.Pos) {
		return false
	}
	switch s.r.Track[n].KindIdx {
	case catalog.KindResource, catalog.KindMonk:
		return s.canBuy(seat, n, p.Ducats+s.sellable(seat))
	case catalog.KindDisc:
		return s.Discs[n] > 0 && len(s.usable(seat, s.r.Track[n].DiscIdx)) > 0
	case catalog.KindBarrel:
		return len(s.claimable(seat)) > 0
	}
	return false
}

// whyNot explains why space n is not reachable (for the error).
func (s *State) whyNot(seat, n int) *engine.RuleError {
	p := &s.Players[seat]
	if n < 1 || n > catalog.HomePos {
		return engine.Reject("HA-5.1.1", "no_space", "space", n)
	}
	if p.Pos != 0 && n == p.Pos {
		return engine.Reject("HA-5.1.2", "must_move", "space", n)
	}
	if p.Pos != 0 && n < p.Pos {
		return engine.Reject("HA-5.1.2", "backwards", "space", n, "from", p.Pos)
	}
	sp := s.r.Track[n]
	switch sp.KindIdx {
	case catalog.KindResource, catalog.KindMonk:
		if len(s.Spaces[n]) == 0 {
			return engine.Reject("HA-5.1.4", "space_empty", "space", n)
		}
		return engine.Reject("HA-5.1.4", "cannot_buy", "space", n)
	case catalog.KindDisc:
		if s.Discs[n] == 0 {
			return engine.Reject("HA-5.1.4", "no_disc", "space", n)
		}
		return engine.Reject("HA-5.6.2", "no_usable_spot", "space", n)
	default:
		return engine.Reject("HA-5.11.2", "no_barrel", "space", n)
	}
}

// freeHomes lists the start spaces the seat may take now (HA-5.12.1,
// HA-5.12.3, AMB-7).
func (s *State) freeHomes(seat int) []int {
	if s.Phase == phasePlay && s.Home[catalog.HomeFirst] < 0 {
		others := true
		for i := range s.Players {
			if i != seat && !s.Players[i].Back {
				others = false
			}
		}
		if others {
			return []int{catalog.HomeFirst}
		}
	}
	var out []int
	for h := range s.Home {
		if s.Home[h] < 0 || s.Home[h] == seat {
			out = append(out, h)
		}
	}
	return out
}

// ---- effects ----

// activate gives the reward of the tile on a cell (HA-5.7) and returns a
// word for the event ("S3:WA5" ...).
func (s *State) activate(seat, cell int) string {
	p := &s.Players[seat]
	t := p.Garden[cell]
	id := s.r.Cells[cell].ID + ":" + t
	if c := catalog.TileColour(t); c >= 0 {
		if s.r.Cells[cell].Side == catalog.SideSun {
			s.moveMarker(seat, c, catalog.TileFert(t))
		} else {
			p.Ducats += catalog.TileFert(t)
		}
	} else if catalog.MonkType(t) > 0 {
		s.moveBrew(seat, 1)
	}
	return id
}

// place puts a tile on a cell and resolves the sheds it encloses
// (HA-5.4, HA-5.5); sheds of types 1-4 wait for a choice.
func (s *State) place(seat, cell int, tile string) []engine.Event {
	p := &s.Players[seat]
	p.Garden[cell] = tile
	var evs []engine.Event
	for _, k := range s.r.Touch[cell] {
		site := s.r.ShedSites[k]
		if p.Garden[site] != "" {
			continue
		}
		sum, full := 0, true
		for _, j := range s.r.Cells[site].Nb {
			if p.Garden[j] == "" {
				full = false
				break
			}
			sum += catalog.TileFert(p.Garden[j])
		}
		if !full {
			continue
		}
		row := s.r.ShedRow(sum)
		s.moveBrew(seat, row.Brewmaster)
		p.Garden[site] = "T" + strconv.Itoa(row.Type)
		evs = append(evs, engine.NewEvent("ha.shed", seat, engine.Public, "site", s.r.SiteName[k], "sum", sum,
			"steps", row.Brewmaster, "type", row.Type, "brew", p.Brew))
		if row.Type > 0 {
			s.Sheds = append(s.Sheds, k)
		}
	}
	return evs
}

// Pending implements engine.State.
func (s *State) Pending() []engine.Decision {
	if s.Phase == phaseOver || s.Cur < 0 {
		return nil
	}
	return []engine.Decision{s.decision()}
}
