package dicebrewing

import (
	"testing"

	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

// endNow ends a positioned game (tests only): Tidying has run, so the
// result is the final conversion of the holdings.
func endNow(s *state) {
	s.Step, s.Cur, s.Sub = position.StepOver, -1, position.SubNone
}

// DB-7.2: the final conversion, with the score parts per category.
func TestDB7_2FinalConversion(t *testing.T) {
	s := vectorState(t, "SETUP ann bob first=1",
		"HOLD ann AR=Y1,K2,G3,B4 ST=K6,K6 coins=7 xp=20",
		"HOLD bob AR= ST= coins=1 xp=3")
	endNow(s)
	res := s.Result()
	if res == nil {
		t.Fatal("no result")
	}
	parts := map[string]int{}
	for _, p := range res.Scores[0].Parts {
		parts[p.Name] = p.Points
	}
	want := map[string]int{"xp": 20, "coins": 3, "dice_y": 1, "dice_k": 6, "dice_g": 1, "dice_b": 0}
	for k, v := range want {
		if parts[k] != v {
			t.Errorf("part %s = %d, want %d", k, parts[k], v)
		}
	}
	if res.Scores[0].Total != 31 || res.Scores[1].Total != 3 {
		t.Errorf("totals %d %d", res.Scores[0].Total, res.Scores[1].Total)
	}
	if res.Rank[0] != 1 || res.Rank[1] != 2 {
		t.Errorf("rank %v", res.Rank)
	}
}

// DB-7.4: ties go to more recipes brewed, then more resource dice, then a
// shared win.
func TestDB7_4TieBreakers(t *testing.T) {
	// Equal totals (10 each); bob brewed more recipes.
	s := vectorState(t, "SETUP ann bob cat first=1",
		"HOLD ann AR= ST= coins=0 xp=10",
		"HOLD bob AR= ST= coins=0 xp=10",
		"HOLD cat AR= ST= coins=0 xp=2",
		"BREWED 2")
	// BREWED gives one card to ann and one to bob; give bob another.
	s.P[1].Brewed = append(s.P[1].Brewed, s.Deck[len(s.Deck)-1])
	s.Deck = s.Deck[:len(s.Deck)-1]
	s.BrewedAll++
	endNow(s)
	if res := s.Result(); res.Rank[1] != 1 || res.Rank[0] != 2 || res.Rank[2] != 3 {
		t.Errorf("recipes tie-break: rank %v tiebreaks %v %v", res.Rank, res.Scores[0].Tiebreak, res.Scores[1].Tiebreak)
	}
	// Equal totals and recipes; ann owns more resource dice (B dice score 0).
	s = vectorState(t, "SETUP ann bob first=1",
		"HOLD ann AR=Y1,Y1 ST= coins=0 xp=8",
		"HOLD bob AR=K1,B1 ST= coins=0 xp=8")
	endNow(s)
	if res := s.Result(); res.Scores[0].Total != res.Scores[1].Total || res.Rank[0] != 1 || res.Rank[1] != 2 {
		t.Errorf("dice tie-break: totals %d %d rank %v", res.Scores[0].Total, res.Scores[1].Total, res.Rank)
	}
	// Equal on everything: a shared win.
	s = vectorState(t, "SETUP ann bob first=1",
		"HOLD ann AR=Y1 ST= coins=1 xp=5",
		"HOLD bob AR=G1 ST= coins=0 xp=5")
	endNow(s)
	if res := s.Result(); res.Rank[0] != 1 || res.Rank[1] != 1 || len(res.Winners()) != 2 {
		t.Errorf("shared win: rank %v", res.Rank)
	}
}
