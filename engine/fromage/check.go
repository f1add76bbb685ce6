package fromage

import (
	"fmt"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
)

// Check verifies the game's invariants: components conserved (cheese
// tokens, Order cards, structure tiles, workers), no negative stock, and a
// consistent board.
func (s *State) Check() error {
	n := len(s.Players)
	if n < 1 || n > 4 || len(s.Pos) != n {
		return fmt.Errorf("bad player count %d / positions %v", n, s.Pos)
	}
	if s.Turn < 1 || s.Rot != (s.Turn-1)%4 {
		return fmt.Errorf("turn %d with rotation %d (FR-4.1)", s.Turn, s.Rot)
	}
	// Cheese tokens: 15 per player, hand + board (FR-3.8); no token on a
	// crossed space (FR-2.6); owners valid.
	onBoard := make([]int, n+1)
	fruitOn := make([][3]int, n)
	for v := range s.Board {
		if len(s.Board[v]) != len(s.side(v).Spaces) {
			return fmt.Errorf("venue %s has %d spaces", catalog.VenueNames[v], len(s.Board[v]))
		}
		for i, o := range s.Board[v] {
			switch {
			case o == empty:
				continue
			case o == corpOwner && s.Corp != nil:
				onBoard[n]++
			case o >= 0 && o < n:
				onBoard[o]++
				fruitOn[o][s.space(v, i).Icon]++
			default:
				return fmt.Errorf("space %s has owner %d", s.space(v, i).ID, o)
			}
			if !s.lay.open[v][i] {
				return fmt.Errorf("token on crossed space %s", s.space(v, i).ID)
			}
		}
	}
	cards := make([]int, len(s.r.Cards))
	count := func(where string, cs []int) error {
		for _, c := range cs {
			if c < 0 || c >= len(cards) {
				return fmt.Errorf("%s holds card %d", where, c)
			}
			cards[c]++
		}
		return nil
	}
	if err := count("deck", s.Deck); err != nil {
		return err
	}
	if err := count("discard", s.Discard); err != nil {
		return err
	}
	for seat := range s.Players {
		p := &s.Players[seat]
		if p.Cheese < 0 || p.Cheese+onBoard[seat] != s.r.Cheese {
			return fmt.Errorf("seat %d: %d tokens in hand + %d on the board != %d", seat, p.Cheese, onBoard[seat], s.r.Cheese)
		}
		if p.Storage < 0 || p.Pasture < 0 || p.Basket < 0 || p.FruitCheese < 0 || p.Jam < 0 {
			return fmt.Errorf("seat %d: negative resources", seat)
		}
		// Fruit conservation (FR-5.5.2): one Fruit per own token on an icon.
		if fruitOn[seat][catalog.IconFruit] != p.FruitCheese || fruitOn[seat][catalog.IconJam] != p.Jam {
			return fmt.Errorf("seat %d: fruit piles %d/%d but %d/%d icon tokens", seat, p.FruitCheese, p.Jam, fruitOn[seat][catalog.IconFruit], fruitOn[seat][catalog.IconJam])
		}
		if err := count(fmt.Sprintf("seat %d pending", seat), p.Pending); err != nil {
			return err
		}
		if err := count(fmt.Sprintf("seat %d completed", seat), p.Completed); err != nil {
			return err
		}
		if len(p.Completed) > onBoard[seat] {
			return fmt.Errorf("seat %d: %d Orders completed with %d tokens (FR-5.8.3)", seat, len(p.Completed), onBoard[seat])
		}
		for _, e := range p.Queue {
			if err := count(fmt.Sprintf("seat %d dispatch", seat), e.Cards); err != nil {
				return err
			}
		}
		if len(p.Zones) != len(s.r.Boards[p.Board].Zones) {
			return fmt.Errorf("seat %d: %d zones", seat, len(p.Zones))
		}
		for z, c := range p.Zones {
			if c < 0 || c > s.r.Boards[p.Board].Zones[z].Cost {
				return fmt.Errorf("seat %d: zone %d holds %d Cattle", seat, z+1, c)
			}
		}
		// Workers: each in exactly one place (FR-5.1, FR-5.10).
		barn := 0
		for w, wk := range p.Workers {
			switch wk.At {
			case atHome:
				if wk != (Worker{}) {
					return fmt.Errorf("seat %d: available %s worker carries %+v", seat, catalog.TypeNames[w], wk)
				}
			case atRes:
				if wk.Spot < 1 || wk.Spot > 3 {
					return fmt.Errorf("seat %d: %s worker on resource space %d returns %d", seat, catalog.TypeNames[w], wk.Spot, wk.Ret)
				}
				for seat2 := range s.Players {
					for w2, wk2 := range s.Players[seat2].Workers {
						if (seat2 != seat || w2 != w) && wk2.At == atRes && wk2.Q == wk.Q && wk2.Spot == wk.Spot {
							return fmt.Errorf("two workers on resource space q%d/%d", wk.Q, wk.Spot)
						}
					}
				}
			case atCheese:
				if wk.Q < 0 || wk.Q > 3 || wk.Spot < 0 || wk.Spot >= len(s.Board[wk.Q]) || s.Board[wk.Q][wk.Spot] != seat {
					return fmt.Errorf("seat %d: %s worker on a cheese space without its token", seat, catalog.TypeNames[w])
				}
				if s.space(wk.Q, wk.Spot).Type != w {
					return fmt.Errorf("seat %d: %s worker on a %s space", seat, catalog.TypeNames[w], catalog.TypeNames[s.space(wk.Q, wk.Spot).Type])
				}
			case atBarn:
				barn++
				if !p.Built[1] {
					return fmt.Errorf("seat %d: worker on an unbuilt column I", seat)
				}
			default:
				return fmt.Errorf("seat %d: worker at %q", seat, wk.At)
			}
			if wk.At != atHome && (wk.Ret <= s.Turn || wk.Ret > s.Turn+3) {
				// FR-5.10.2: delays are 1..3 and workers come back in T1.
				return fmt.Errorf("seat %d: %s worker returns in turn %d (now %d)", seat, catalog.TypeNames[w], wk.Ret, s.Turn)
			}
		}
		if barn > 1 {
			return fmt.Errorf("seat %d: %d workers on column I", seat, barn)
		}
	}
	if s.Corp != nil {
		tr := len(s.corpLevel().Track)
		if s.Corp.Left < 0 || s.Corp.Left+onBoard[n] != tr {
			return fmt.Errorf("corporation: %d tokens left + %d on the board != %d", s.Corp.Left, onBoard[n], tr)
		}
		if err := count("corporation card space", s.Corp.Cards); err != nil {
			return err
		}
		if s.Corp.Card >= 0 {
			if err := count("corporation draw", []int{s.Corp.Card}); err != nil {
				return err
			}
		}
	}
	// Order cards: 36 conserved (deck + discard + pending + completed +
	// Corporation card space + cards in limbo), each exactly once.
	for c, k := range cards {
		if k != 1 {
			return fmt.Errorf("order card %s counted %d times", s.r.CardIDs[c], k)
		}
	}
	// Structure tiles (advanced): each tile in exactly one place.
	if s.Draft != nil {
		tiles := make([]int, len(s.r.Tiles))
		for _, t := range s.Draft.Deck {
			tiles[t]++
		}
		for _, t := range s.Draft.Box {
			tiles[t]++
		}
		for i := range s.Players {
			p := &s.Players[i]
			for _, t := range p.Hand {
				tiles[t]++
			}
			for _, t := range p.Kept {
				tiles[t]++
			}
			for c := 1; c <= 4; c++ {
				if t := p.Tile[c]; t >= 0 {
					tiles[t]++
					if s.r.Tiles[t].Column != c {
						return fmt.Errorf("seat %d: tile %s on column %d", i, s.r.TileIDs[t], c)
					}
				}
			}
		}
		for t, k := range tiles {
			if k != 1 {
				return fmt.Errorf("tile %s counted %d times", s.r.TileIDs[t], k)
			}
		}
	} else if s.H.Variant == "advanced" {
		return fmt.Errorf("advanced game without a draft")
	}
	if s.End != (len(s.EndBy) > 0) {
		return fmt.Errorf("end flag %v with triggers %v", s.End, s.EndBy)
	}
	return nil
}
