package dicebrewing

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// TestAdjudicateScoresThePositionNow (DB-7.2 to DB-7.4): ADJUDICATE of a
// late tournament game scores the position as it stands, hand-checked on
// two real positions of the sample game (testdata/short-2p.script).
func TestAdjudicateScoresThePositionNow(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		stop  string
		parts [2]string // xp coins Y K G B, per seat
		total [2]int
		rank  []int
	}{
		// Round 1, after Ann's mail: Ann has Y6 G4 in ST, B4 in AR and K5
		// on MH3 (still hers until Tidying: 2 XP), 2 coins (1 XP): 0 + 1
		// + 1 + 2 + 1 = 5. Bob has Y3 K4 G5 B4 in AR, 2 coins: 5. Same
		// recipes (0) and resource dice (3): a shared win (DB-7.4 step 3).
		{"# Bob speeds up", [2]string{"0 1 1 2 1 0", "0 1 1 2 1 0"}, [2]int{5, 5}, []int{1, 1}},
		// Round 2, Ann to place: Ann brewed R01 (1 XP), 4 coins (2), Y3
		// (1), K6 (2), G3 G2 (2): 8. Bob brewed R02 (1 XP), 3 coins (1,
		// the odd coin scores nothing), Y6 Y5 Y5 (3), K4 (2), G6 (1), B4
		// on SS1 (0): 8. One recipe each; resource dice 4 against 5: Bob
		// first (DB-7.4 step 2).
		{"# Ann's brew is the fourth", [2]string{"1 2 1 2 2 0", "1 1 3 2 1 0"}, [2]int{8, 8}, []int{2, 1}},
	} {
		tb := enginetest.PlayScriptUntil(t, Game, "testdata/short-2p.script", c.stop)
		s := tb.State.(*state)
		before, err := engine.StateHash(s)
		if err != nil {
			t.Fatal(err)
		}
		res := s.Adjudicate()
		if after, _ := engine.StateHash(s); after != before {
			t.Fatal("Adjudicate changed the state")
		}
		if res == nil || s.Result() != nil {
			t.Fatalf("%s: Adjudicate %v, Result %v", c.stop, res, s.Result())
		}
		for seat, sc := range res.Scores {
			var pts []string
			for _, p := range sc.Parts {
				pts = append(pts, strconv.Itoa(p.Points))
			}
			if got := strings.Join(pts, " "); got != c.parts[seat] || sc.Total != c.total[seat] {
				t.Errorf("%s seat %d: parts %s total %d, want %s total %d", c.stop, seat, got, sc.Total, c.parts[seat], c.total[seat])
			}
		}
		if !reflect.DeepEqual(res.Rank, c.rank) || res.Params["adjudicated"] != true {
			t.Errorf("%s: rank %v params %v, want %v", c.stop, res.Rank, res.Params, c.rank)
		}
	}
	// Once the game is over Result holds the score.
	tb, _ := enginetest.PlayScript(t, Game, "testdata/short-2p.script")
	if tb.State.Result() == nil || tb.State.(*state).Adjudicate() != nil {
		t.Error("a finished game: Result nil or Adjudicate not nil")
	}
}
