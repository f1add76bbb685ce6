package fromage

import (
	"fmt"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// TestVectors runs the spec's test vectors written as text
// (testdata/spec.vectors): each vector is a subtest named by its id
// (TestVectors/TV-01 ...). TV-09 and TV-18 are Go tests below.
func TestVectors(t *testing.T) {
	ids := runVectors(t, "testdata/spec.vectors")
	have := map[string]bool{"TV-09": true, "TV-18": true}
	for _, id := range ids {
		have[id] = true
	}
	for i := 1; i <= 20; i++ {
		id := "TV-" + string(rune('0'+i/10)) + string(rune('0'+i%10))
		if !have[id] {
			t.Errorf("vector %s is not tested", id)
		}
	}
}

// TestTV09ScoreSheet: the seed's score sheet adds up to 62 (FR-7.2).
func TestTV09ScoreSheet(t *testing.T) {
	b := Breakdown{Bistro: 13, Festival: 6, Dairy: 15, City: 8, Structures: 5, Fruit: 6, Orders: 8, Unused: 1}
	if got := b.sum(); got != 62 {
		t.Fatalf("total = %d, want 62", got)
	}
	parts := b.parts()
	if len(parts) != 8 || parts[0].Name != "festival" || parts[7].Name != "unused" {
		t.Fatalf("parts = %+v (FR-7.2 order)", parts)
	}
}

// TestTV18TieBreak: equal PP, more cheese tokens placed wins; equal
// again is a shared win (FR-7.10).
func TestTV18TieBreak(t *testing.T) {
	s := newA(t, 2)
	// A has 14 tokens on the board, B 15, both 70 PP.
	scores := []engine.Score{s.scoreOf(0, Breakdown{Total: 70}, 14), s.scoreOf(1, Breakdown{Total: 70}, 15)}
	if r := engine.RankScores(scores); r[0] != 2 || r[1] != 1 {
		t.Fatalf("rank = %v, want B first", r)
	}
	scores[0] = s.scoreOf(0, Breakdown{Total: 70}, 15)
	if r := engine.RankScores(scores); r[0] != 1 || r[1] != 1 {
		t.Fatalf("rank = %v, want a shared win", r)
	}
	// Through a finished game: both players score the same with an empty
	// board; the one with more tokens placed wins.
	setKey(t, s, "space.D10", "P1") // a Bronze point shelf: 1 PP
	setKey(t, s, "P0.storage", "2") // 2 unused resources: 1 PP
	setKey(t, s, "P0.pasture", "0")
	setKey(t, s, "P0.basket", "0")
	setKey(t, s, "P1.pending", "")
	setKey(t, s, "P1.storage", "0")
	s.Phase = phaseOver
	res := s.Result()
	if res.Scores[0].Total != res.Scores[1].Total || res.Rank[1] != 1 || res.Rank[0] != 2 {
		t.Fatalf("result = %+v", res)
	}
}

// TestTiles runs one vector per advanced structure tile (D-15).
func TestTiles(t *testing.T) {
	ids := runVectors(t, "testdata/tiles.vectors")
	have := map[string]bool{}
	for _, id := range ids {
		have[id] = true
	}
	for i := 1; i <= 32; i++ {
		if id := fmt.Sprintf("ST%02d", i); !have[id] {
			t.Errorf("no vector for tile %s", id)
		}
	}
}

// TestRules runs the rule-section vectors (testdata/rules.vectors).
func TestRules(t *testing.T) { runVectors(t, "testdata/rules.vectors") }
