package heavenale

import (
	"fmt"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
	"slices"
)

// Check verifies the invariants: tiles and monks conserved, no negative
// stock, positions on the track, sheds exactly on enclosed sites, barrels,
// cards and start spaces consistent.
func (s *State) Check() error {
	r := s.r
	n := s.n()
	if n < 2 || n > 4 || len(s.H.Seats) != n {
		return fmt.Errorf("bad player count %d", n)
	}
	if len(s.Spaces) != catalog.HomePos || len(s.Discs) != catalog.HomePos {
		return fmt.Errorf("track has %d spaces", len(s.Spaces))
	}
	// Resource tiles: every code 4 times in all (piles, track, gardens).
	count := map[string]int{}
	monks := 0
	for _, t := range s.PileI {
		count[t]++
	}
	for _, t := range s.PileII {
		count[t]++
	}
	for _, st := range s.Stacks {
		monks += len(st)
	}
	for sp := 1; sp < catalog.HomePos; sp++ {
		k := r.Track[sp].KindIdx
		for _, t := range s.Spaces[sp] {
			switch {
			case catalog.MonkType(t) > 0 && k == catalog.KindMonk:
				monks++
			case catalog.TileColour(t) >= 0 && k == catalog.KindResource:
				count[t]++
			default:
				return fmt.Errorf("space %d holds %q", sp, t)
			}
		}
		if s.Discs[sp] < 0 || (s.Discs[sp] > 0 && k != catalog.KindDisc) {
			return fmt.Errorf("space %d holds %d discs", sp, s.Discs[sp])
		}
	}
	seatAt := map[int]int{}
	for seat := range s.Players {
		p := &s.Players[seat]
		if p.Ducats < 0 {
			return fmt.Errorf("seat %d has %d ducats", seat, p.Ducats)
		}
		if p.Brew < r.Min || p.Brew > r.Max {
			return fmt.Errorf("seat %d brewmaster at %d", seat, p.Brew)
		}
		for c, m := range p.Markers {
			if m < r.Min || m > r.Max {
				return fmt.Errorf("seat %d marker %s at %d", seat, catalog.ColourNames[c], m)
			}
		}
		if len(p.Garden) != len(r.Cells) {
			return fmt.Errorf("seat %d garden has %d cells", seat, len(p.Garden))
		}
		for i, t := range p.Garden {
			if r.Cells[i].Side == catalog.SideShed {
				full := true
				for _, j := range r.Cells[i].Nb {
					if p.Garden[j] == "" {
						full = false
					}
				}
				if (t != "") != full || (t != "" && catalog.ShedType(t) < 0) {
					return fmt.Errorf("seat %d shed site %s holds %q, enclosed %v (HA-5.5)", seat, r.Cells[i].ID, t, full)
				}
				continue
			}
			switch {
			case t == "":
			case catalog.MonkType(t) > 0:
				monks++
			case catalog.TileColour(t) >= 0:
				count[t]++
			default:
				return fmt.Errorf("seat %d spot %s holds %q", seat, r.Cells[i].ID, t)
			}
		}
		seen := map[string]bool{}
		for _, c := range p.Cards {
			if seen[c] || slices.Index(catalog.CardNames, c) < 0 {
				return fmt.Errorf("seat %d cards %v", seat, p.Cards)
			}
			seen[c] = true
		}
		for pi, c := range p.Placed {
			if c == "" || c == "-" {
				if c == "-" && !(p.Spots[r.Pairs[pi][0]] && p.Spots[r.Pairs[pi][1]]) {
					return fmt.Errorf("seat %d passed pair %d before completing it", seat, pi+1)
				}
				continue
			}
			if seen[c] || slices.Index(catalog.CardNames, c) < 0 || !(p.Spots[r.Pairs[pi][0]] && p.Spots[r.Pairs[pi][1]]) {
				return fmt.Errorf("seat %d placed %s on pair %d wrongly", seat, c, pi+1)
			}
			seen[c] = true
		}
		if p.Pos < 0 || p.Pos >= catalog.HomePos {
			return fmt.Errorf("seat %d figure on %d", seat, p.Pos)
		}
		if p.Pos == 0 && s.Phase == phasePlay && p.Spot < 0 && !(p.Back && s.Cur == seat && s.Sub == subHome) {
			return fmt.Errorf("seat %d in the start area without a start space", seat)
		}
		if p.Spot >= 0 {
			if s.Home[p.Spot] != seat || p.Pos != 0 {
				return fmt.Errorf("seat %d on start space %d held by %d, figure on %d", seat, p.Spot, s.Home[p.Spot], p.Pos)
			}
			seatAt[p.Spot] = seat
		}
	}
	for h, seat := range s.Home {
		if seat >= 0 && s.Players[seat].Spot != h {
			return fmt.Errorf("start space %s held by seat %d who is elsewhere", catalog.HomeNames[h], seat)
		}
	}
	per := r.TilesPer["I"] + r.TilesPer["II"]
	for c := range catalog.ColourNames {
		for f := 1; f <= 5; f++ {
			if count[catalog.TileCode(c, f)] != per {
				return fmt.Errorf("tile %s counted %d times, not %d", catalog.TileCode(c, f), count[catalog.TileCode(c, f)], per)
			}
		}
	}
	if want := len(r.Counts[n].Stacks) * len(r.MonkSpaces); monks != want {
		return fmt.Errorf("%d monks in play, not %d", monks, want)
	}
	for g := range s.Large {
		if s.Small[g] >= 0 && (s.Large[g] < 0 || s.Large[g] == s.Small[g]) {
			return fmt.Errorf("goal %s: large %d small %d (HA-5.11.2)", r.Goals[g].ID, s.Large[g], s.Small[g])
		}
	}
	switch s.Phase {
	case phaseSetup, phasePlay:
		if s.Cur < 0 || s.Cur >= n {
			return fmt.Errorf("current seat %d", s.Cur)
		}
		if s.Phase == phasePlay && (s.Round < 1 || s.Round > s.Rounds) {
			return fmt.Errorf("round %d of %d", s.Round, s.Rounds)
		}
		if s.Sub == subShed && len(s.Sheds) == 0 || s.Sub == subPriv && s.Pair < 0 {
			return fmt.Errorf("step %s without its object", s.Sub)
		}
		if len(s.options(s.Cur)) == 0 {
			return fmt.Errorf("decision %s of seat %d has no option", s.kind(), s.Cur)
		}
	case phaseOver:
		if s.Final == nil {
			return fmt.Errorf("game over without a final scoring")
		}
	default:
		return fmt.Errorf("phase %q", s.Phase)
	}
	return nil
}
