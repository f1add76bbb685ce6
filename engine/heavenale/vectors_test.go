package heavenale

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
)

// TV-06: setup with 4 players (HA-3.x, AMB-1).
func TestTV06Setup4(t *testing.T) {
	st, _, err := Game{}.NewState(engineConfig(4, map[string]string{"start_player": "1"}))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	if s.Home[catalog.HomeFirst] != 0 || s.Cur != 3 {
		t.Fatalf("Ann on FIRST and Dan picks first: home %v cur %d", s.Home, s.Cur)
	}
	must(t, s, 3, "HOME RES BA")
	must(t, s, 2, "HOME BREW")
	if got := legalCmds(s); !reflect.DeepEqual(got, []string{"HOME CASH"}) {
		t.Fatalf("Ben's options %v", got)
	}
	must(t, s, 1, "HOME CASH")
	ps := s.Players
	if ps[0].Ducats != 25 || ps[3].Markers[4] != -6 || ps[2].Brew != -9 || ps[1].Ducats != 27 {
		t.Fatalf("ann %d, dan barley %d, cat brew %d, ben %d", ps[0].Ducats, ps[3].Markers[4], ps[2].Brew, ps[1].Ducats)
	}
	if s.Phase != phasePlay || s.Round != 1 || s.Cur != 0 {
		t.Fatalf("round 1 should start with Ann: %s %d %d", s.Phase, s.Round, s.Cur)
	}
	tiles := 0
	for _, n := range s.r.ResSpaces {
		tiles += len(s.Spaces[n])
	}
	for _, n := range s.r.MonkSpaces {
		if len(s.Spaces[n]) != 1 {
			t.Fatalf("monk space %d holds %v", n, s.Spaces[n])
		}
	}
	discs := 0
	for _, d := range s.Discs {
		discs += d
	}
	if tiles != 15 || len(s.PileI) != 35 || discs != 6 || len(s.Stacks) != 5 {
		t.Fatalf("tiles %d pile I %d discs %d stacks %d", tiles, len(s.PileI), discs, len(s.Stacks))
	}
	// Turn order: Ann, Ben, Cat, Dan (HA-4.2.1).
	var order []int
	for i := 0; i < 4; i++ {
		order = append(order, s.Cur)
		must(t, s, s.Cur, "GO 27")
		for s.Cur == order[len(order)-1] && s.Sub == subBuy {
			must(t, s, s.Cur, s.options(s.Cur)[0])
		}
		if len(s.Spaces[27]) == 0 {
			s.Spaces[27] = []string{"WO1", "WO1", "WO1"}
		}
	}
	if !reflect.DeepEqual(order, []int{0, 1, 2, 3}) {
		t.Fatalf("order %v", order)
	}
}

// TV-08: forced FIRST (HA-5.12.3).
func TestTV08ForcedFirst(t *testing.T) {
	for _, variation := range []bool{false, true} {
		s := newGame(t, 3)
		// Ann entered and took BREW (or FIRST), Ben took CASH; Cat on the track.
		for i := range s.Home {
			s.Home[i] = -1
		}
		annSpot := catalog.HomeBrew
		if variation {
			annSpot = catalog.HomeFirst
		}
		s.Home[annSpot], s.Home[catalog.HomeCash] = 0, 1
		s.Players[0].Spot, s.Players[0].Back, s.Players[0].Pos = annSpot, true, 0
		s.Players[1].Spot, s.Players[1].Back, s.Players[1].Pos = catalog.HomeCash, true, 0
		s.Players[2].Spot, s.Players[2].Pos = -1, 20
		s.Cur, s.Sub = 2, subMove
		err := email(s, 2, "GO HOME RES HO")
		if variation {
			if err != nil {
				t.Fatalf("variation: RES must be free: %v", err)
			}
			continue
		}
		if code(err) != "first_forced" {
			t.Fatalf("GO HOME RES HO: %v", err)
		}
		must(t, s, 2, "GO HOME")
		if got := legalCmds(s); !reflect.DeepEqual(got, []string{"HOME FIRST"}) {
			t.Fatalf("options %v", got)
		}
		must(t, s, 2, "HOME FIRST")
		if s.Home[catalog.HomeFirst] != 2 || s.Round != 2 || s.Cur != 2 {
			t.Fatalf("Cat should start round 2: home %v round %d cur %d", s.Home, s.Round, s.Cur)
		}
	}
}

// TV-09: exchange at 2:1 (HA-7.2, 7.3, 7.6).
func TestTV09Exchange(t *testing.T) {
	r, _, _ := catalog.DataFile.Load(nil)
	b := r.Band(13)
	if b.Rate != 2 || b.VP != 4 {
		t.Fatalf("band of 13: %+v", b)
	}
	low, _, _, _ := evenOut([5]int{10, 10, 6, 10, 10}, b.Rate, 0, r.Max, false)
	if low != 8 || low*b.VP != 32 {
		t.Fatalf("lowest %d", low)
	}
}

// TV-10: shed table boundaries (HA-5.5.3, 5.5.4, §8.6).
func TestTV10ShedTable(t *testing.T) {
	r, _, _ := catalog.DataFile.Load(nil)
	want := map[int][2]int{0: {6, 0}, 7: {6, 0}, 8: {3, 1}, 11: {3, 1}, 12: {1, 2}, 17: {1, 2}, 18: {1, 3}, 23: {1, 3}, 24: {0, 4}, 30: {0, 4}}
	for sum, w := range want {
		row := r.ShedRow(sum)
		if row.Brewmaster != w[0] || row.Type != w[1] {
			t.Errorf("sum %d: %+v, want %v", sum, row, w)
		}
	}
	for k := range r.ShedSites {
		for typ, n := range []int{1, 6, 3, 2, 15} {
			if got := len(r.Patterns[k][typ]); got != n && typ > 0 {
				t.Errorf("site %s type %d: %d options, want %d", r.SiteName[k], typ, got, n)
			}
		}
	}
}

// TV-13: a low brewmaster, and a marker that never reaches 1 (HA-7.2-7.4, 7.6).
func TestTV13LowBrewmaster(t *testing.T) {
	r, _, _ := catalog.DataFile.Load(nil)
	b := r.Band(-5)
	low, _, _, _ := evenOut([5]int{2, 1, 1, 1, -3}, b.Rate, 15/10, r.Max, false)
	if b.Rate != 5 || b.VP != 2 || low != -1 {
		t.Fatalf("A: band %+v lowest %d", b, low)
	}
	b = r.Band(20)
	low, _, _, _ = evenOut([5]int{12, 12, 12, 12, -1}, b.Rate, 0, r.Max, false)
	if low != 9 || low*b.VP != 54 {
		t.Fatalf("B: lowest %d", low)
	}
}

// TV-14: the final round's discs with 2 players (HA-4.4.3, 4.4.4).
func TestTV14FinalRoundDiscs(t *testing.T) {
	s := newGame(t, 2)
	s.Round = 2
	for i := range s.Discs {
		s.Discs[i] = 0
	}
	s.Discs[7] = 1
	before := 0
	for _, n := range s.r.ResSpaces {
		before += len(s.Spaces[n])
	}
	stacks := len(s.Stacks)
	s.Players[0].Back, s.Players[1].Back = true, true
	s.endRound()
	want := map[int]int{4: 1, 7: 2, 12: 2, 16: 1, 20: 1, 24: 1}
	for n, w := range want {
		if s.Discs[n] != w {
			t.Errorf("space %d: %d discs, want %d", n, s.Discs[n], w)
		}
	}
	after := 0
	for _, n := range s.r.ResSpaces {
		after += len(s.Spaces[n])
	}
	if after-before != 15 || len(s.Stacks) != stacks-1 || s.Round != 3 {
		t.Fatalf("tiles +%d, stacks %d->%d, round %d", after-before, stacks, len(s.Stacks), s.Round)
	}
	// Two players may each take a disc from 7.
	bare(s)
	s.Discs[7] = 2
	put(s, 0, "D1", "M1")
	put(s, 1, "D1", "M1")
	cur := s.Cur
	must(t, s, cur, "GO 7")
	if s.Sub == subScore {
		must(t, s, cur, "SCORE M1")
	}
	must(t, s, 1-cur, "GO 7")
	if s.Sub == subScore {
		must(t, s, 1-cur, "SCORE M1")
	}
	if s.Discs[7] != 0 {
		t.Fatalf("discs left on 7: %d", s.Discs[7])
	}
}

func engineConfig(n int, opts map[string]string) engine.Config {
	return engine.Config{Seats: seatNames[:n], Seed: fmt.Sprintf("cfg%d", n), Options: opts}
}
