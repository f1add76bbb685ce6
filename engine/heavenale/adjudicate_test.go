package heavenale

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
)

// TestAdjudicateScoresThePositionNow (HA-7.2 to HA-7.5): ADJUDICATE of a
// late tournament game scores the position as it stands, hand-checked on a
// real position: round 3 of testdata/adjudicate-2p.script, ben to move.
func TestAdjudicateScoresThePositionNow(t *testing.T) {
	t.Parallel()
	tb := enginetest.PlayScriptUntil(t, Game{}, "testdata/adjudicate-2p.script", "# The ADJUDICATE test stops here")
	s := tb.State.(*State)
	// The position the hand check reads (HA-6: all public).
	ann, ben := s.Players[0], s.Players[1]
	if s.Phase != phasePlay || s.Round != 3 || ann.Brew != -6 || ann.Markers != [5]int{6, -2, -4, -5, -6} || ann.Ducats != 0 ||
		ben.Brew != 10 || ben.Markers != [5]int{0, 3, -4, -4, 2} || ben.Ducats != 0 || s.Home[catalog.HomeFirst] != -1 {
		t.Fatalf("the position moved: phase %s round %d ann %+v ben %+v", s.Phase, s.Round, ann, ben)
	}
	annL, annS := s.barrels(0)
	benL, benS := s.barrels(1)
	if annL != 2 || annS != 0 || benL != 1 || benS != 1 {
		t.Fatalf("barrels: ann %d+%d ben %d+%d", annL, annS, benL, benS)
	}
	res := enginetest.Adjudicated(t, s, 2, s.Adjudicate)
	// Production (HA-7.4.1): an exchange moves one marker up and others
	// r down, so it never raises the sum of the markers; with no ducats
	// (HA-7.3 B) the lowest marker stays at most the average: ann's sum
	// is -11, ben's -3, so both lowest markers end below 1 and score 0.
	// Barrels (HA-7.4.2): ann 2 large = 8; ben 1 large + 1 small = 6;
	// no BARREL card placed. FIRST (HA-7.4.3): nobody is on it yet.
	// Totals 8 and 6: ann first (HA-7.5).
	want := [][]int{{0, 8, 0, 0}, {0, 6, 0, 0}}
	for seat, sc := range res.Scores {
		got := enginetest.PartPoints(sc)
		if fmt.Sprint(got) != fmt.Sprint(want[seat]) || sc.Total != want[seat][1] {
			t.Errorf("seat %d: parts %v total %d, want %v", seat, got, sc.Total, want[seat])
		}
	}
	if fmt.Sprint(res.Rank) != "[1 2]" {
		t.Errorf("rank %v, want [1 2]", res.Rank)
	}
	// The whole game: Result holds the score at the end.
	full, _ := enginetest.PlayScript(t, Game{}, "testdata/adjudicate-2p.script")
	if full.State.Result() == nil || full.State.(*State).Adjudicate() != nil {
		t.Error("a finished game: Result nil or Adjudicate not nil")
	}
}

// TestAdjudicateIsTheProjectedScore: along whole games of bots, the
// adjudicated totals are the summary's projected scores "if the game ended
// now" (§10.4 item 6); ranks follow the totals, ties shared (HA-7.5).
func TestAdjudicateIsTheProjectedScore(t *testing.T) {
	t.Parallel()
	greedy, _ := Game{}.NewBot("greedy")
	var cfgs []engine.Config
	for k, seats := range [][]string{{"a", "b"}, {"a", "b", "c"}, {"a", "b", "c", "d"}} {
		cfgs = append(cfgs, engine.Config{Seats: seats, Seed: "adj" + strconv.Itoa(k)})
	}
	enginetest.CheckAlongBotGames(t, Game{}, greedy, cfgs, enginetest.Checkpoints{Every: 7, Limit: 20000, Min: 10, Seed: 9}, func(st engine.State) {
		s := st.(*State)
		res := s.Adjudicate()
		v := s.View(-1).(View)
		for seat, sc := range res.Scores {
			if sc.Total != v.Players[seat].Projected {
				t.Fatalf("round %d seat %d: adjudicated %d, projected %d", s.Round, seat, sc.Total, v.Players[seat].Projected)
			}
			for o, so := range res.Scores {
				if (sc.Total > so.Total) != (res.Rank[seat] < res.Rank[o]) {
					t.Fatalf("round %d: totals %v ranks %v", s.Round, res.Scores, res.Rank)
				}
			}
		}
	})
}
