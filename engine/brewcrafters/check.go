package brewcrafters

import (
	"fmt"
	"slices"

	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
)

// Check implements engine.State: components conserved, no negative stock,
// a consistent position.
func (s *State) Check() error {
	if len(s.P) != s.N || s.N < 2 || s.N > 5 {
		return fmt.Errorf("players: %d for n=%d", len(s.P), s.N)
	}
	if s.Season < 0 || s.Season > s.last() {
		return fmt.Errorf("season %d", s.Season)
	}
	if s.Res == nil && len(s.Pending()) == 0 {
		return fmt.Errorf("no decision pending and no result (phase %s)", s.Phase)
	}
	for seat := range s.P {
		p := &s.P[seat]
		if p.Money < 0 || p.Rep < 0 || p.Loans < 0 || p.Batches < 0 {
			return fmt.Errorf("seat %d: negative money/rep/loans/batches", seat)
		}
		for i, v := range p.Ing {
			if v < 0 {
				return fmt.Errorf("seat %d: %d %s", seat, v, catalog.IngCodes[i])
			}
		}
		if p.Shifts < 1 || p.Shifts > s.r.Economy.MaxShifts {
			return fmt.Errorf("seat %d: %d shifts", seat, p.Shifts)
		}
		for t, v := range p.Research {
			if v < stStart || v > stGameEnd {
				return fmt.Errorf("seat %d: research %d at %d", seat, t, v)
			}
		}
		if over := p.Ing.Total() - s.capacity(p); over > 0 && !s.resolving(seat) {
			return fmt.Errorf("seat %d: storage %d over capacity with no discard pending", seat, over)
		}
		if !p.has("DOUBLE_BATCH") && (p.Tanks[1] != "" || p.Bottles[1] != "" || p.Infusers[catalog.SlT2]) {
			return fmt.Errorf("seat %d: second line without a Double system", seat)
		}
		if !p.has("BREWPUB") && (p.Pub != "" || p.Infusers[catalog.SlPub]) {
			return fmt.Errorf("seat %d: Brewpub slot without a Brewpub", seat)
		}
		for _, id := range []string{p.Tanks[0], p.Tanks[1], p.Bottles[0], p.Bottles[1], p.Pub} {
			if id != "" && s.r.Recipes[id] == nil {
				return fmt.Errorf("seat %d: unknown batch %q", seat, id)
			}
		}
		if len(p.Plots) > s.r.Economy.FarmPlots || (len(p.Plots) > 0 && !p.has("FARM")) {
			return fmt.Errorf("seat %d: plots %v", seat, p.Plots)
		}
		held := 0
		for _, id := range []string{p.Tanks[0], p.Tanks[1], p.Bottles[0], p.Bottles[1], p.Pub} {
			if id != "" {
				held++
			}
		}
		if held+len(p.Shipping) != p.Batches {
			return fmt.Errorf("seat %d: %d batches held, %d brewed", seat, held+len(p.Shipping), p.Batches)
		}
		if s.Collab == nil && len(p.Collab) > 0 {
			return fmt.Errorf("seat %d: collaboration in a 2-player game", seat)
		}
	}
	// Workers: every card once (BC-3.7).
	lists := make([][]string, 0, 3+s.N)
	lists = append(lists, s.Workers, s.Unused, s.Agency)
	for i := range s.P {
		lists = append(lists, s.P[i].Workers)
	}
	want := 0
	for _, w := range s.r.Worker {
		if !(s.N == 2 && w.CollabOnly) {
			want++
		}
	}
	if err := unique("workers", lists, want); err != nil {
		return err
	}
	// Partnerships (BC-3.3).
	lists = append(lists[:0], s.Partners)
	want = 0
	for _, pt := range s.r.Partner {
		if s.N >= pt.MinPlayers {
			want++
		}
	}
	for i := range s.P {
		lists = append(lists, s.P[i].Partners)
	}
	if err := unique("partners", lists, want); err != nil {
		return err
	}
	// Gold Labels: one per Advanced Recipe in play (BC-3.6).
	lists = append(lists[:0], s.Labels)
	for i := range s.P {
		lists = append(lists, s.P[i].Labels)
	}
	if err := unique("labels", lists, len(s.Recipes)-3); err != nil {
		return err
	}
	// Advanced recipes: in play, in the box, or someone's secret.
	lists = append(lists[:0], s.Box, s.Recipes[3:])
	for i := range s.P {
		lists = append(lists, s.P[i].Secrets)
	}
	if err := unique("advanced recipes", lists, len(s.r.Recipe)-3); err != nil {
		return err
	}
	// Interns (BC-5.12.1).
	if s.on("interns") {
		n := s.Interns
		from := s.Season
		if s.Phase == phOver || (s.Phase == phEnd && s.EndStp > 0) {
			from++
		}
		for k := from; k < len(s.InternAt); k++ {
			n += len(s.InternAt[k])
		}
		if n != s.N {
			return fmt.Errorf("interns: %d counted, %d in the game", n, s.N)
		}
	}
	// Collaboration portions and tokens (BC-5.6).
	if s.Collab != nil {
		for seat := range s.P {
			n := 0
			for _, o := range s.Collab {
				if o == seat {
					n++
				}
			}
			if n != len(s.P[seat].Collab) {
				return fmt.Errorf("seat %d: %d portions on the card, %d tokens", seat, n, len(s.P[seat].Collab))
			}
		}
	}
	if s.CF != nil {
		filled := 0
		for _, o := range s.CF {
			if o >= 0 {
				filled++
			}
		}
		if filled != len(s.CFTok) {
			return fmt.Errorf("community farm: %d portions, %d tokens", filled, len(s.CFTok))
		}
	}
	for _, sp := range s.Spaces {
		if sp.Occ < -1 || sp.Occ >= s.N || sp.Money < 0 {
			return fmt.Errorf("space %s: occupant %d money %d", sp.ID, sp.Occ, sp.Money)
		}
		for _, v := range sp.Goods {
			if v < 0 {
				return fmt.Errorf("space %s: negative goods", sp.ID)
			}
		}
	}
	return nil
}

// resolving reports whether the seat has an overflow or pick pending.
func (s *State) resolving(seat int) bool {
	for _, sub := range s.Subs {
		if sub.Seat == seat && sub.Kind == kindDiscard {
			return true
		}
	}
	return s.CFLeft.Total() > 0 && slices.Contains(s.pickers(), seat)
}

// unique checks that the lists hold want ids in all, none twice.
func unique(what string, lists [][]string, want int) error {
	n := 0
	for li, l := range lists {
		for k, x := range l {
			n++
			for _, y := range l[k+1:] {
				if x == y {
					return fmt.Errorf("%s: %s twice", what, x)
				}
			}
			for _, l2 := range lists[li+1:] {
				for _, y := range l2 {
					if x == y {
						return fmt.Errorf("%s: %s twice", what, x)
					}
				}
			}
		}
	}
	if n != want {
		return fmt.Errorf("%s: %d, want %d", what, n, want)
	}
	return nil
}
