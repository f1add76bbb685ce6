package fromage

import (
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
	"github.com/pbem-referee/referee/engine/fromage/notation"
)

// Decision kinds.
const (
	kindTurn     = "turn"     // T3 actions (FR-5.2..FR-5.9), answered by GATHER, MAKE, MILK, BUILD, BARN, DONE
	kindOrder    = "order"    // complete a matching Order? (FR-5.8.3, SET ORDERS ASK)
	kindTake     = "take"     // choose resources (Dairy Silver/Gold shelf, Gold Foil)
	kindTrade    = "trade"    // Dairy Bronze shelf or Trading Post trade
	kindDispatch = "dispatch" // Dispatcher's Desk: keep one of the drawn Orders
	kindCorp     = "corp"     // solo: the Corporation's space (FR-5.12.2)
	kindDraft    = "draft"    // advanced: draft pick (FR-5.11.1)
	kindTiles    = "tiles"    // advanced: tile placement (FR-5.11.2)
)

// verbKinds lists, per command, the decision kinds it answers.
var verbKinds = map[string]string{
	"GATHER": kindTurn, "MAKE": kindTurn, "MILK": kindTurn, "BUILD": kindTurn, "BARN": kindTurn, "DONE": kindTurn,
	"COMPLETE": kindOrder, "KEEP": kindOrder, "TAKE": kindTake, "TRADE": kindTrade, "NOTRADE": kindTrade,
	"CHOOSE": kindDispatch, "CORP": kindCorp, "PICK": kindDraft, "PLACE": kindTiles, "READY": kindTiles,
}

// kindOf returns the kind of the decision the seat may answer now, or ""
// when it has nothing to answer. A seat that already answered the current
// step (Moved) may still play (a direct Apply); it just owes nothing until
// the step ends (see owes).
func (s *State) kindOf(seat int) string {
	p := &s.Players[seat]
	switch s.Phase {
	case phaseDraft:
		if !p.Picked {
			return kindDraft
		}
	case phaseTiles:
		if !p.Ready {
			return kindTiles
		}
	case phaseTurn:
		if s.Corp != nil && s.Corp.Card >= 0 {
			if seat == 0 {
				return kindCorp
			}
			return ""
		}
		if p.Done {
			return ""
		}
		if len(p.Queue) > 0 {
			return p.Queue[0].K
		}
		return kindTurn
	}
	return ""
}

// Pending lists the decisions owed now.
func (s *State) Pending() []engine.Decision {
	var out []engine.Decision
	for seat := range s.Players {
		if d, ok := s.decision(seat); ok {
			out = append(out, d)
		}
	}
	return out
}

// owes returns the kind of the decision the seat owes now: during the
// turn and the tile placement, one move per step.
func (s *State) owes(seat int) string {
	if s.Players[seat].Moved && (s.Phase == phaseTurn || s.Phase == phaseTiles) {
		return ""
	}
	return s.kindOf(seat)
}

// decision builds the seat's pending decision.
func (s *State) decision(seat int) (engine.Decision, bool) {
	kind := s.owes(seat)
	if kind == "" {
		return engine.Decision{}, false
	}
	d := engine.Decision{Seat: seat, Mode: engine.Simultaneous, Kind: kind}
	switch kind {
	case kindDraft:
		slot := "draft" + strconv.Itoa(s.Draft.Round)
		d.Rank, d.Slot, d.Group = seat, slot, slot
		d.Default = "PICK " + s.r.TileIDs[catalog.SortedCopy(s.Players[seat].Hand)[0]]
		d.Params = map[string]any{"round": s.Draft.Round, "rounds": s.r.DraftHand, "hand": s.tileIDList(s.Players[seat].Hand)}
		return d, true
	case kindTiles:
		d.Rank, d.Slot, d.Group = seat, "tiles", "tiles."+strconv.Itoa(s.Step)
		d.Pass, d.Default = "READY", "READY"
		d.Params = map[string]any{"kept": s.tileIDList(s.Players[seat].Kept)}
		return d, true
	case kindCorp:
		d.Mode = engine.Sequential
		d.Slot = s.turnSlot(s.Turn) + ".corp"
		d.Default = "CORP " + s.space(s.venue(0), s.Corp.Options[0]).ID
		d.Params = map[string]any{"turn": s.Turn, "card": s.cardLabel(s.Corp.Card), "venue": catalog.VenueNames[s.venue(0)],
			"spaces": s.spaceIDs(s.venue(0), s.Corp.Options)}
		return d, true
	}
	slot := s.turnSlot(s.Turn)
	d.Rank, d.Slot, d.Group = s.rank(seat), slot, slot+"."+strconv.Itoa(s.Step)
	d.Params = map[string]any{"turn": s.Turn, "step": s.Step, "venue": catalog.VenueNames[s.venue(seat)], "resource": catalog.ResNames[s.resource(seat)]}
	p := &s.Players[seat]
	switch kind {
	case kindTurn:
		d.Pass, d.Default = "DONE", "DONE"
	case kindOrder:
		e := p.Queue[0]
		sp := s.space(e.V, e.S)
		d.Pass, d.Default = "KEEP", "KEEP"
		d.Params["space"] = sp.ID
		d.Params["type"], d.Params["aging"] = catalog.TypeNames[sp.Type], catalog.AgingNames[sp.Aging]
	case kindTake:
		e := p.Queue[0]
		d.Pass, d.Default = "TAKE NONE", "TAKE NONE"
		d.Params["n"], d.Params["source"] = e.N, e.Src
		if e.V >= 0 && e.Src == "dairy" {
			d.Params["space"] = s.space(e.V, e.S).ID
		}
	case kindTrade:
		e := p.Queue[0]
		d.Pass, d.Default = "NOTRADE", "NOTRADE"
		d.Params["source"], d.Params["different"] = e.Src, e.Diff
	case kindDispatch:
		e := p.Queue[0]
		d.Default = "CHOOSE 1"
		d.Params["cards"] = s.cardIDs(e.Cards)
	}
	return d, true
}

func (s *State) tileIDList(ts []int) []string {
	out := make([]string, len(ts))
	for i, t := range catalog.SortedCopy(ts) {
		out[i] = s.r.TileIDs[t]
	}
	return out
}

func (s *State) cardIDs(cs []int) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = s.r.CardIDs[c]
	}
	return out
}

func (s *State) spaceIDs(v int, idx []int) []string {
	out := make([]string, len(idx))
	for i, x := range idx {
		out[i] = s.space(v, x).ID
	}
	return out
}

// Legal enumerates the complete legal answers to a pending decision.
func (s *State) Legal(d engine.Decision) []engine.Option {
	if d.Seat < 0 || d.Seat >= len(s.Players) || s.kindOf(d.Seat) != d.Kind {
		return nil
	}
	seat := d.Seat
	p := &s.Players[seat]
	var out []engine.Option
	add := func(cmd string) { out = append(out, engine.Option{Cmd: cmd}) }
	switch d.Kind {
	case kindDraft:
		for _, t := range catalog.SortedCopy(p.Hand) {
			a := &s.r.Tiles[t]
			out = append(out, engine.Option{Cmd: "PICK " + s.r.TileIDs[t], Params: map[string]any{"name": a.Name, "column": catalog.ColNames[a.Column], "cost": a.Cost}})
		}
	case kindTiles:
		for _, t := range catalog.SortedCopy(p.Kept) {
			a := &s.r.Tiles[t]
			if p.Tile[a.Column] < 0 {
				out = append(out, engine.Option{Cmd: "PLACE " + s.r.TileIDs[t], Params: map[string]any{"name": a.Name, "column": catalog.ColNames[a.Column], "cost": a.Cost}})
			}
		}
		add("READY")
	case kindCorp:
		for _, i := range s.Corp.Options {
			add("CORP " + s.space(s.venue(0), i).ID)
		}
	case kindTurn:
		out = s.legalTurn(seat)
	case kindOrder:
		add("COMPLETE")
		add("KEEP")
	case kindTake:
		e := p.Queue[0]
		if e.N == 1 {
			for r := range catalog.ResNames {
				add("TAKE " + catalog.ResNames[r])
			}
		} else {
			for a := 0; a < 4; a++ {
				for b := a + 1; b < 4; b++ {
					add("TAKE " + catalog.ResNames[a] + " " + catalog.ResNames[b])
				}
			}
		}
		add("TAKE NONE")
	case kindTrade:
		e := p.Queue[0]
		for _, give := range s.gives(p) {
			for r := range catalog.ResNames {
				if e.Diff && give.res == r {
					continue
				}
				add("TRADE " + give.word + " " + catalog.ResNames[r])
			}
		}
		add("NOTRADE")
	case kindDispatch:
		for i := range p.Queue[0].Cards {
			add("CHOOSE " + strconv.Itoa(i+1))
		}
	}
	return out
}

type give struct {
	res  int
	card int
	word string
}

// gives lists what a player may discard in a trade (FR-5.4.2, A-10): each
// resource type held, and each distinct pending Order (by type and aging,
// identical Orders are interchangeable; the lowest id stands for them).
func (s *State) gives(p *Player) []give {
	var out []give
	if p.Storage > 0 {
		out = append(out, give{catalog.ResStructure, -1, catalog.ResNames[catalog.ResStructure]})
	}
	if p.Pasture > 0 {
		out = append(out, give{catalog.ResCattle, -1, catalog.ResNames[catalog.ResCattle]})
	}
	if p.Basket > 0 {
		out = append(out, give{catalog.ResFruit, -1, catalog.ResNames[catalog.ResFruit]})
	}
	seen := map[[2]int]bool{}
	for _, c := range catalog.SortedCopy(p.Pending) {
		k := [2]int{s.r.Cards[c].Type, s.r.Cards[c].Aging}
		if !seen[k] {
			seen[k] = true
			out = append(out, give{catalog.ResOrder, c, s.r.CardIDs[c]})
		}
	}
	return out
}

// legalTurn enumerates the actions of a seat's turn (FR-5.7).
func (s *State) legalTurn(seat int) []engine.Option {
	p := &s.Players[seat]
	var out []engine.Option
	add := func(cmd string) { out = append(out, engine.Option{Cmd: cmd, Group: turnGroup(cmd)}) }
	f := s.facing(seat)
	v := s.VenueAt[f]
	sd := s.side(v)
	// Gather (FR-5.2.1).
	if !p.Gathered {
		for n := 1; n <= 3; n++ {
			if b, _ := s.resBlocked(f, n); b >= 0 {
				continue
			}
			for w := range p.Workers {
				if p.Workers[w].At == atHome {
					add("GATHER " + strconv.Itoa(n) + " " + catalog.TypeNames[w])
				}
			}
		}
	}
	// Produce (FR-5.3.1).
	if !p.Produced && p.Cheese > 0 {
		for i := range sd.Spaces {
			sp := &sd.Spaces[i]
			if !s.spaceFree(v, i) || p.Workers[sp.Type].At != atHome || (sp.Icon != catalog.IconNone && p.Basket < 1) {
				continue
			}
			add("MAKE " + sp.ID)
			if s.matchingOrder(p, sp) >= 0 {
				add("MAKE " + sp.ID + " KEEP")
			}
		}
	}
	// Milking (FR-5.6).
	if p.Cheese > 0 {
		zones := s.r.Boards[p.Board].Zones
		for z := range zones {
			if p.Zones[z] > 0 || p.Pasture < s.zoneCost(p, z) {
				continue
			}
			for i := range sd.Spaces {
				sp := &sd.Spaces[i]
				if !s.spaceFree(v, i) || !zoneFits(zones[z], sp) || (sp.Icon != catalog.IconNone && p.Basket < 1) {
					continue
				}
				add("MILK " + strconv.Itoa(z+1) + " " + sp.ID)
				if s.matchingOrder(p, sp) >= 0 {
					add("MILK " + strconv.Itoa(z+1) + " " + sp.ID + " KEEP")
				}
			}
		}
	}
	// Build (FR-5.9.1).
	for c := 1; c <= 4; c++ {
		if !p.Built[c] && p.Storage >= s.ability(p, c).Cost {
			add("BUILD " + strconv.Itoa(c))
		}
	}
	// Column-I workstation (FR-5.9.2).
	if a := s.active(p, 1); a != nil && !s.barnBusy(p) {
		for w := range p.Workers {
			if p.Workers[w].At != atHome {
				continue
			}
			if a.Effect != "press" {
				add("BARN " + catalog.TypeNames[w])
				continue
			}
			if p.Cheese < 1 {
				continue
			}
			for i := range sd.Spaces {
				sp := &sd.Spaces[i]
				if s.pressFits(p, a, w, v, i) {
					add("BARN " + catalog.TypeNames[w] + " " + sp.ID)
					if s.matchingOrder(p, sp) >= 0 {
						add("BARN " + catalog.TypeNames[w] + " " + sp.ID + " KEEP")
					}
				}
			}
		}
	}
	add("DONE")
	return out
}

// zoneFits reports whether a milking zone's Bonus cheese may go on a space
// (FR-5.6.1, A-18, A-25).
func zoneFits(z catalog.Zone, sp *catalog.Space) bool {
	return (z.Type == catalog.AnyValue || z.Type == sp.Type) && (z.Aging == catalog.AnyValue || z.Aging == sp.Aging)
}

// pressFits reports whether ST08 Cheese Press may place on space i with
// worker w.
func (s *State) pressFits(p *Player, a *catalog.Ability, w, v, i int) bool {
	sp := s.space(v, i)
	return s.spaceFree(v, i) && sp.Aging == a.Aging && sp.Type == w && (sp.Icon == catalog.IconNone || p.Basket >= 1)
}

func (s *State) barnBusy(p *Player) bool {
	for w := range p.Workers {
		if p.Workers[w].At == atBarn {
			return true
		}
	}
	return false
}

// matchingOrder returns the lowest pending Order matching a space's type
// and aging, or -1 (FR-5.8.3).
func (s *State) matchingOrder(p *Player, sp *catalog.Space) int {
	best := -1
	for _, c := range p.Pending {
		cd := &s.r.Cards[c]
		if cd.Type == sp.Type && cd.Aging == sp.Aging && (best < 0 || c < best) {
			best = c
		}
	}
	return best
}

// ---- routing (P-5, P-6, P-7, P-8) ----

// stripPlan removes "PLAN T<n>" or "NEXT" from the first line of each
// alternative of an order and returns the turn it names.
func (s *State) stripPlan(seat int, o *engine.Order, kw string) (int, error) {
	first := strings.Fields(o.Alts[0][0])
	turn := s.Turn + 1
	if s.Phase != phaseTurn {
		turn = s.Turn // before turn 1: NEXT means turn 1
	}
	skip := 1
	if kw == "PLAN" {
		if len(first) < 3 {
			return 0, engine.Reject("P-5", engine.CodeSyntax, "line", o.Text, "expected", notation.Usage["PLAN"])
		}
		t := strings.TrimPrefix(strings.ToUpper(first[1]), "T")
		n, err := strconv.Atoi(t)
		if err != nil || n < 1 {
			return 0, engine.Reject("P-5", engine.CodeSyntax, "line", o.Text, "expected", notation.Usage["PLAN"], "token", first[1])
		}
		if n < s.Turn || (n == s.Turn && s.Phase == phaseTurn && s.Players[seat].Done) {
			return 0, engine.Reject("P-5", engine.CodeSlotClosed, "slot", s.turnSlot(n))
		}
		turn, skip = n, 2
	} else if len(first) < 2 {
		return 0, engine.Reject("P-6", engine.CodeSyntax, "line", o.Text, "expected", notation.Usage["NEXT"])
	}
	prefix := strings.Join(first[:skip], " ")
	for a := range o.Alts {
		line := o.Alts[a][0]
		fs := strings.Fields(line)
		if len(fs) > skip && strings.EqualFold(strings.Join(fs[:skip], " "), prefix) {
			o.Alts[a][0] = strings.Join(fs[skip:], " ")
		}
	}
	return turn, nil
}

// SlotOpen reports whether orders queued under slot can still be applied.
func (s *State) SlotOpen(seat int, slot string) bool {
	if s.Phase == phaseOver || seat < 0 || seat >= len(s.Players) {
		return false
	}
	p := &s.Players[seat]
	switch {
	case slot == "tiles":
		return s.Phase == phaseDraft || (s.Phase == phaseTiles && !p.Ready)
	case strings.HasPrefix(slot, "draft"):
		r, err := strconv.Atoi(strings.TrimPrefix(slot, "draft"))
		if err != nil || s.Phase != phaseDraft {
			return false
		}
		return r > s.Draft.Round || (r == s.Draft.Round && !p.Picked)
	case strings.HasPrefix(slot, "T"):
		body := strings.TrimPrefix(slot, "T")
		corp := strings.HasSuffix(body, ".corp")
		body = strings.TrimSuffix(body, ".corp")
		n, err := strconv.Atoi(body)
		if err != nil {
			return false
		}
		if n > s.Turn || s.Phase != phaseTurn {
			return n >= s.Turn
		}
		if n < s.Turn {
			return false
		}
		if corp {
			return s.Corp != nil && s.Corp.Card >= 0
		}
		return !p.Done
	}
	return false
}

// Menus that fit a decision (issue 22): a turn's options are grouped by
// kind of action (engine.Option.Group), the command's verb: GATHER, MAKE,
// MILK, BUILD, BARN in that order (legalTurn builds them so), then "END"
// for DONE. The group is a part of the command (no allocation), a code for
// the templates and webhook clients, never shown to a player.
func turnGroup(cmd string) string {
	if verb, _, ok := strings.Cut(cmd, " "); ok {
		return verb
	}
	return "END"
}
