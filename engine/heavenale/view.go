package heavenale

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
)

// View is what a seat may see (HA-6.3, HA-6.4): everything but the order of
// the face-down piles and monk stacks (and the monks set aside).
type View struct {
	Game    string   `json:"game"`
	Seat    int      `json:"seat"`
	Seats   []string `json:"seats"`
	Phase   string   `json:"phase"`
	Round   int      `json:"round"`
	Rounds  int      `json:"rounds"`
	Starter int      `json:"starter"`
	Cur     int      `json:"cur"`
	Kind    string   `json:"kind,omitempty"`
	// Order is the turn order of the round (clockwise from FIRST).
	Order  []int       `json:"order"`
	Track  []TrackView `json:"track"`
	Home   [4]int      `json:"home"`
	Pile1  int         `json:"pile1"`
	Pile2  int         `json:"pile2"`
	Stacks int         `json:"stacks"`
	// Left1, Left2: the tiles left in resource piles I and II, sorted,
	// when the organiser enables show_pile_contents (HA-6.3: derivable by
	// counting, since every tile leaving a pile is shown face up). Monk
	// stacks only ever show their count.
	Left1 []string `json:"left1,omitempty"`
	Left2 []string `json:"left2,omitempty"`
	// Narrow asks for the summary laid out in 40 columns, for a phone: the
	// viewer's PREF GARDEN COMPACT (issue 14.3).
	Narrow  bool         `json:"narrow,omitempty"`
	Goals   []GoalView   `json:"goals"`
	Players []PlayerView `json:"players"`
	Final   *Final       `json:"final,omitempty"`
	// Leaders are the seats with the best projected score, LeadVP (issue 22).
	Leaders []int `json:"leaders"`
	LeadVP  int   `json:"lead_vp"`
	// Menu lists the legal answers of the viewing seat's decision (every
	// kind but purchases, whose list is long); Example is its first legal
	// answer (all kinds). Prompts use them for their own layout (a Table
	// prompt leaves its options out only past engine.MaxNumbered, a guard).
	Menu []engine.Option `json:"menu,omitempty"`
	// MenuLen gives, by each group of Menu, len(Menu): what a group's
	// heading reads, by its group, so that it is the same for every
	// option of the group and kept from one mail to the next (issue 25;
	// templates.Tmpl.Keyed). Not in the JSON.
	MenuLen map[string]int `json:"-"`
	// Before lists the seats that move before the viewer's next turn in
	// this round; Contested the spaces the viewer could move to now that
	// one of them could also take (what their moves can still change).
	Before    []int  `json:"before,omitempty"`
	Contested []int  `json:"contested,omitempty"`
	Example   string `json:"example,omitempty"`
	// Version is the ruleset version (shown in the summary footer).
	Version string `json:"version"`
	// Cells is the garden's layout, the same for every seat (§8.3): what a
	// drawing of the gardens needs; each PlayerView's Garden follows its order.
	Cells []CellView `json:"cells"`
}

// TrackView is one track space.
type TrackView struct {
	N       int      `json:"n"`
	Label   string   `json:"label"`
	Kind    string   `json:"kind"`
	Cost    int      `json:"cost,omitempty"`
	Tiles   []string `json:"tiles,omitempty"`
	Discs   int      `json:"discs,omitempty"`
	Figures []int    `json:"figures,omitempty"`
}

// sideNames are the garden sides in the engine's order (sideSun...).
var sideNames = []string{"sun", "shade", "shed"}

// CellView is one garden hex: its id ("S3", "D12", "SH2"), its doubled
// hex coordinates (x across, y down) and its side (sun, shade, shed).
type CellView struct {
	ID   string `json:"id"`
	X    int    `json:"x"`
	Y    int    `json:"y"`
	Side string `json:"side"`
}

// GoalView is one barrel goal and its holders. Goal is its condition as
// its goal card's fact (the templates say it in words: a player never
// types a goal's id, so the summary never shows it, issue 22).
type GoalView struct {
	ID    string      `json:"id"`
	Goal  engine.Fact `json:"goal"`
	Large int         `json:"large"`
	Small int         `json:"small"`
}

// PlayerView is one seat's public board, with what the summary computes.
type PlayerView struct {
	Player
	Name      string `json:"name"`
	Rate      int    `json:"rate"`
	VP        int    `json:"vp"`
	Large     int    `json:"large"`
	Small     int    `json:"small"`
	Projected int    `json:"projected"`
	// Parts is the projected final scoring, step by step (HA-7, issue 22:
	// what each part is worth now).
	Parts      FinalPlayer `json:"parts"`
	NearSheds  []NearShed  `json:"near_sheds,omitempty"`
	Garden     []string    `json:"garden_rows"`
	Compact    []string    `json:"compact_rows"`
	SpotList   []string    `json:"spot_list"`
	PlacedList []string    `json:"placed_list,omitempty"`
}

// Board is what a seat's board in the summary shows, by value: the
// fields of its PlayerView that the templates ha.board and ha.nboard read
// (PlayerView.Board), so that the board's text is kept from one mail to
// the next by these values alone (templates/kept.go; issue 25: keyed by
// the whole PlayerView, the board's key encoded the raw garden, the spots
// and the standing orders, which it never shows).
type Board struct {
	Ducats, Brew, Rate, VP      int
	Markers                     [5]int
	Cards, SpotList, PlacedList []string
	Large, Small, Projected     int
	Parts                       BoardParts
	Garden, Compact             []string
	NearSheds                   []NearShed
}

// BoardParts are the parts of the projected score a board shows.
type BoardParts struct {
	Production, VP, Lowest, Barrels, CardBonus, First int
}

// Board is the seat's board as the summary shows it (a value: lists are
// shared with the view, never written).
func (p PlayerView) Board() Board {
	f := p.Parts
	return Board{Ducats: p.Ducats, Brew: p.Brew, Rate: p.Rate, VP: p.VP, Markers: p.Markers,
		Cards: p.Cards, SpotList: p.SpotList, PlacedList: p.PlacedList,
		Large: p.Large, Small: p.Small, Projected: p.Projected,
		Parts:  BoardParts{Production: f.Production, VP: f.VP, Lowest: f.Lowest, Barrels: f.Barrels, CardBonus: f.CardBonus, First: f.First},
		Garden: p.Garden, Compact: p.Compact, NearSheds: p.NearSheds}
}

// View implements engine.State.
func (s *State) View(seat int) any {
	v := View{Game: catalog.GameName, Seat: seat, Seats: append([]string(nil), s.H.Seats...), Phase: s.Phase,
		Round: s.Round, Rounds: s.Rounds, Starter: s.Starter, Cur: s.Cur, Home: s.Home,
		Pile1: len(s.PileI), Pile2: len(s.PileII), Stacks: len(s.Stacks), Final: s.Final, Version: s.r.Version}
	if seat >= 0 && seat < s.n() {
		v.Narrow = s.Players[seat].Narrow
	}
	if s.H.Options["show_pile_contents"] == "true" {
		v.Left1, v.Left2 = pileContents(s.PileI), pileContents(s.PileII)
	}
	if s.Phase != phaseOver {
		v.Kind = s.kind()
		if seat == s.Cur {
			opts := s.Legal(s.decision())
			if len(opts) > 0 {
				v.Example = opts[0].Cmd
			}
			if v.Kind != kindBuy {
				v.Menu = opts
				v.MenuLen = make(map[string]int, 6)
				for _, o := range opts {
					v.MenuLen[o.Group] = len(opts)
				}
			}
		}
	}
	first := s.Lead
	for k := 0; k < s.n(); k++ {
		v.Order = append(v.Order, (first+k)%s.n())
	}
	if s.Phase == phasePlay && seat >= 0 && seat != s.Cur && !s.Players[seat].Back {
		n := s.n()
		for k := 0; k < n; k++ {
			o := (s.Cur + k) % n
			if o == seat {
				break
			}
			if !s.Players[o].Back {
				v.Before = append(v.Before, o)
			}
		}
		for sp := s.Players[seat].Pos + 1; sp < catalog.HomePos; sp++ {
			if !s.reachable(seat, sp) {
				continue
			}
			for _, o := range v.Before {
				if s.reachable(o, sp) {
					v.Contested = append(v.Contested, sp)
					break
				}
			}
		}
	}
	for n := 1; n < catalog.HomePos; n++ {
		sp := s.r.Track[n]
		tv := TrackView{N: n, Label: sp.Label, Kind: sp.Kind, Cost: sp.Cost, Tiles: slices.Clone(s.Spaces[n]), Discs: s.Discs[n]}
		for i := range s.Players {
			if s.Players[i].Pos == n {
				tv.Figures = append(tv.Figures, i)
			}
		}
		v.Track = append(v.Track, tv)
	}
	for _, c := range s.r.Cells {
		v.Cells = append(v.Cells, CellView{ID: c.ID, X: c.X, Y: c.Y, Side: sideNames[c.Side]})
	}
	for g, gl := range s.r.Goals {
		v.Goals = append(v.Goals, GoalView{ID: gl.ID, Goal: gl.Fact(), Large: s.Large[g], Small: s.Small[g]})
	}
	for i := range s.Players {
		p := s.Players[i]
		// The seat's own copy of its lists (not of the whole state: issue
		// 25, a view cloned the state once per seat).
		own := p.cloneLists()
		own.Garden = slices.Clone(p.Garden)
		pv := PlayerView{Player: own, Name: s.H.Seats[i]}
		if i != seat {
			// Standing orders are private (§10.2).
			pv.PrefHome, pv.PrefPriv, pv.EndSell, pv.Narrow = nil, nil, false, false
		}
		b := s.r.Band(p.Brew)
		pv.Rate, pv.VP = b.Rate, b.VP
		pv.Large, pv.Small = s.barrels(i)
		pv.Parts = s.scoreSeat(i)
		pv.Projected = pv.Parts.Total
		if pv.Projected > v.LeadVP || len(v.Leaders) == 0 {
			v.Leaders, v.LeadVP = nil, pv.Projected
		}
		if pv.Projected == v.LeadVP {
			v.Leaders = append(v.Leaders, i)
		}
		pv.NearSheds = s.nearSheds(i)
		pv.Garden = s.gardenRows(i, p.Narrow && i == seat)
		pv.Compact = s.gardenRows(i, true)
		for k, on := range p.Spots {
			if on {
				pv.SpotList = append(pv.SpotList, catalog.SpotNames[k])
			}
		}
		for k, c := range p.Placed {
			if c != "" {
				pv.PlacedList = append(pv.PlacedList, catalog.SpotNames[s.r.Pairs[k][0]]+"+"+catalog.SpotNames[s.r.Pairs[k][1]]+":"+c)
			}
		}
		v.Players = append(v.Players, pv)
	}
	return v
}

// NearShed is an empty shed site one tile from enclosure: the missing spot
// and the fertility sum so far (§10.4).
type NearShed struct {
	Site string `json:"site"`
	Spot string `json:"spot"`
	Sum  int    `json:"sum"`
}

// nearSheds lists the empty shed sites one tile from enclosure.
func (s *State) nearSheds(seat int) []NearShed {
	p := &s.Players[seat]
	var out []NearShed
	for k, site := range s.r.ShedSites {
		if p.Garden[site] != "" {
			continue
		}
		missing, sum := -1, 0
		empty := 0
		for _, j := range s.r.Cells[site].Nb {
			if p.Garden[j] == "" {
				empty++
				missing = j
			} else {
				sum += catalog.TileFert(p.Garden[j])
			}
		}
		if empty == 1 {
			out = append(out, NearShed{Site: s.r.SiteName[k], Spot: s.r.Cells[missing].ID, Sum: sum})
		}
	}
	return out
}

// gardenRows draws a seat's garden in fixed-width text (§8.3 layout, §10.4):
// each hex is 3 characters on a 3-column grid per x unit; sunny spots left,
// shady right; an empty spot shows its name in lower case ("s3", "d12"),
// a tile its code ("HO5", "M2"), an open shed site "(sh2)", a shed "[T2]".
// compact draws each hex in 3 characters on a 2-column grid (phones, at
// most 40 columns): "s3", "HO5", "sh2", "T2".
func (s *State) gardenRows(seat int, compact bool) []string {
	p := &s.Players[seat]
	minX, maxX, maxY := 0, 0, 0
	for _, c := range s.r.Cells {
		if c.X < minX {
			minX = c.X
		}
		if c.X > maxX {
			maxX = c.X
		}
		if c.Y > maxY {
			maxY = c.Y
		}
	}
	w := 4 // columns per x unit
	cw := 7
	if compact {
		w, cw = 2, 3
	}
	rows := make([][]byte, maxY+1)
	width := (maxX-minX)*w + cw
	for y := range rows {
		rows[y] = []byte(spaces(width))
	}
	for i, c := range s.r.Cells {
		t := p.Garden[i]
		var txt string
		id := strings.ToLower(c.ID)
		switch {
		case c.Side == catalog.SideShed && t == "":
			txt = " (" + id + ")"
			if compact {
				txt = id
			}
		case c.Side == catalog.SideShed:
			txt = " [" + t + "]"
			if compact {
				txt = t
			}
		case t == "":
			txt = " " + id
			if compact {
				txt = id
			}
		default:
			txt = " " + t
			if compact {
				txt = t
			}
		}
		for len(txt) < cw {
			txt += " "
		}
		col := (c.X - minX) * w
		copy(rows[c.Y][col:], txt[:cw])
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = trimRight(string(r))
	}
	return out
}

func spaces(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = ' '
	}
	return string(b)
}

func trimRight(x string) string {
	i := len(x)
	for i > 0 && x[i-1] == ' ' {
		i--
	}
	return x[:i]
}

// pileContents lists the tiles of a resource pile in a fixed order (by
// colour as the rules list them, then value), with a count for repeats:
// "HO2x3". The pile's order stays hidden (HA-6.3).
func pileContents(pile []string) []string {
	if len(pile) == 0 {
		return nil
	}
	count := map[string]int{}
	for _, t := range pile {
		count[t]++
	}
	keys := make([]string, 0, len(count))
	for t := range count {
		keys = append(keys, t)
	}
	rank := func(t string) (int, int) {
		for i, c := range catalog.ColourNames {
			if strings.HasPrefix(t, c) {
				n, _ := strconv.Atoi(t[len(c):])
				return i, n
			}
		}
		return len(catalog.ColourNames), 0
	}
	sort.Slice(keys, func(i, j int) bool {
		ci, ni := rank(keys[i])
		cj, nj := rank(keys[j])
		if ci != cj {
			return ci < cj
		}
		return ni < nj
	})
	out := make([]string, len(keys))
	for i, t := range keys {
		out[i] = t
		if n := count[t]; n > 1 {
			out[i] = t + "x" + strconv.Itoa(n)
		}
	}
	return out
}
