package heavenale

import (
	"reflect"
	"slices"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
)

// HA-3.9, AMB-1: the setup picks go counterclockwise, or clockwise with the
// option; start_player names the start player.
func TestHA39PickDirection(t *testing.T) {
	for dir, want := range map[string][]int{"counterclockwise": {0, 3, 2}, "clockwise": {2, 3, 0}} {
		st, _, err := Game{}.NewState(engine.Config{Seats: seatNames, Seed: "dir",
			Options: map[string]string{"setup_pick_direction": dir, "start_player": "2"}})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		if s.Starter != 1 || !reflect.DeepEqual(s.Picks, want) {
			t.Errorf("%s: starter %d picks %v, want %v", dir, s.Starter, s.Picks, want)
		}
	}
	if _, _, err := (Game{}).NewState(engine.Config{Seats: seatNames[:2], Seed: "x", Options: map[string]string{"start_player": "3"}}); err == nil {
		t.Errorf("start player 3 of 2 accepted")
	}
}

// HA-4.4.2, AMB-11: pile II is used once pile I is empty, the earliest
// spaces getting the last pile-I tiles.
func TestHA442PileII(t *testing.T) {
	s := newGame(t, 4)
	s.PileI = s.PileI[:3]
	before := make([]int, catalog.HomePos)
	for n := range s.Spaces {
		before[n] = len(s.Spaces[n])
	}
	i1 := append([]string(nil), s.PileI...)
	ii := append([]string(nil), s.PileII[:12]...)
	s.deal()
	for k, n := range s.r.ResSpaces {
		got := s.Spaces[n][len(s.Spaces[n])-1]
		want := ""
		if k < 3 {
			want = i1[k]
		} else {
			want = ii[k-3]
		}
		if got != want || len(s.Spaces[n]) != before[n]+1 {
			t.Fatalf("space %d got %s, want %s", n, got, want)
		}
	}
	if len(s.PileI) != 0 || len(s.PileII) != 50-12 {
		t.Fatalf("piles %d %d", len(s.PileI), len(s.PileII))
	}
}

// HA-4.4.4: with 3 players the last round adds discs on 7, 12 and 16.
func TestHA444ThreePlayers(t *testing.T) {
	s := newGame(t, 3)
	s.Round = 3
	for i := range s.Discs {
		s.Discs[i] = 0
	}
	for i := range s.Players {
		s.Players[i].Back = true
	}
	s.endRound()
	for n, w := range map[int]int{4: 1, 7: 2, 12: 2, 16: 2, 20: 1, 24: 1} {
		if s.Discs[n] != w {
			t.Errorf("space %d: %d discs, want %d", n, s.Discs[n], w)
		}
	}
}

// §8.9: every barrel goal, met and not met.
func TestBarrelGoals(t *testing.T) {
	s := newGame(t, 2)
	p := &s.Players[0]
	met := func() []string {
		var out []string
		for g := range s.r.Goals {
			if s.goalMet(0, g) {
				out = append(out, s.r.Goals[g].ID)
			}
		}
		return out
	}
	if got := met(); got != nil {
		t.Fatalf("fresh board meets %v", got)
	}
	p.Brew = 1
	p.Markers = [5]int{1, 1, 1, 1, 20}
	for _, c := range s.r.SunCells[:6] {
		p.Garden[c] = "WO1"
	}
	for _, c := range s.r.ShadeCells[:6] {
		p.Garden[c] = "BA5"
	}
	for k := range p.Spots {
		p.Spots[k] = true
	}
	p.Garden[s.r.ShedSites[0]], p.Garden[s.r.ShedSites[1]], p.Garden[s.r.ShedSites[2]] = "T1", "T1", "T1"
	p.Placed = [5]string{"CASH", "BREW", "LOW", "", ""}
	want := []string{"G01", "G02", "G03", "G04", "G05", "G06", "G07", "G09", "G12"}
	if got := met(); !reflect.DeepEqual(got, want) {
		t.Fatalf("met %v, want %v", got, want)
	}
	p.Garden[s.r.ShedSites[3]], p.Garden[s.r.ShedSites[4]], p.Garden[s.r.ShedSites[5]] = "T2", "T3", "T0"
	for _, c := range s.r.SunCells {
		p.Garden[c] = "HO2"
	}
	for _, c := range s.r.ShadeCells {
		p.Garden[c] = "HO2"
	}
	got := met()
	for _, id := range []string{"G08", "G10", "G11"} {
		found := false
		for _, g := range got {
			found = found || g == id
		}
		if !found {
			t.Errorf("%s not met: %v", id, got)
		}
	}
}

// HA-7.4: the score adds production, barrels, the BARREL card and FIRST.
func TestHA74Score(t *testing.T) {
	s := newGame(t, 2)
	p := &s.Players[0]
	p.Brew = 9 // 3:1 x4
	p.Markers = [5]int{5, 5, 5, 5, 5}
	p.Ducats = 19 // 1 step
	s.Large[0], s.Small[1], s.Large[2] = 0, 0, 1
	s.Large[1] = 1
	p.Placed[0] = "BARREL"
	fp := s.scoreSeat(0)
	// lowest: 5, +1 ducat step on one marker, the minimum stays 5.
	if fp.Production != 20 || fp.Barrels != 6 || fp.CardBonus != 2 || fp.First != 1 || fp.Total != 29 {
		t.Fatalf("%+v", fp)
	}
}

// §10.2 AUTO ENDSELL: unplaced cards are sold at the end when that helps.
func TestAutoEndSell(t *testing.T) {
	s := newGame(t, 2)
	for i := range s.Players {
		p := &s.Players[i]
		p.Brew, p.Markers, p.Ducats = 20, [5]int{5, 6, 6, 6, 6}, 7
	}
	must(t, s, 0, "AUTO ENDSELL ON")
	s.Round = s.Rounds
	for i := range s.Players {
		s.Players[i].Back = true
	}
	s.endRound()
	f0, f1 := s.Final.Players[0], s.Final.Players[1]
	// 7 + 3 = 10 ducats: one more step to the barley... the lowest WO 5 -> 6.
	if f0.Sold != 1 || f0.Lowest != 6 || f1.Sold != 0 || f1.Lowest != 5 {
		t.Fatalf("seat 0 %+v, seat 1 %+v", f0, f1)
	}
}

// AMB-4 and AMB-5 options.
func TestOptionsAMB4AMB5(t *testing.T) {
	st, _, _ := Game{}.NewState(engine.Config{Seats: seatNames[:2], Seed: "o", Options: map[string]string{"start_player": "1",
		"allow_x_without_matching_tile": "true", "adjacent_triggered_monks_activate_each_other": "false"}})
	s := st.(*State)
	for s.Phase == phaseSetup {
		must(t, s, s.Cur, s.decision().Default)
	}
	bare(s)
	put(s, 0, "S1", "WO1", "D6", "M2", "D9", "M2", "D8", "HO3")
	s.Discs[16] = 1
	must(t, s, 0, "GO 16")
	if !slices.Contains(legalCmds(s), "SCORE X 4") {
		t.Fatalf("AMB-4 option: %v", legalCmds(s))
	}
	brew := s.Players[0].Brew
	must(t, s, 0, "SCORE M2")
	// D6 and D9 are neighbours: without mutual activation each only
	// activates D8 (HO3 shady: +3 ducats twice), no brewmaster step.
	if s.Players[0].Brew != brew {
		t.Fatalf("brew %d -> %d", brew, s.Players[0].Brew)
	}
}

// AMB-14: RES on a marker at 19 gives a ducat for the step beyond 20.
func TestAMB14ResOverflow(t *testing.T) {
	s := newGame(t, 2)
	p := &s.Players[0]
	p.Markers[2] = 19
	must(t, s, 0, "GO HOME")
	d := p.Ducats
	must(t, s, 0, "HOME RES HO")
	if p.Markers[2] != 20 || p.Ducats != d+1 {
		t.Fatalf("hops %d ducats %d", p.Markers[2], p.Ducats)
	}
}
