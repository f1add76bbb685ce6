package brewcrafters

import (
	"fmt"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// TestAdjudicateScoresThePositionNow (BC-7.2, BC-7.3): ADJUDICATE of a late
// tournament game scores the position as it stands, hand-checked on a real
// position: the Summer of year 3 of testdata/adjudicate-2p.script.
func TestAdjudicateScoresThePositionNow(t *testing.T) {
	t.Parallel()
	tb := enginetest.PlayScriptUntil(t, Game{}, "testdata/adjudicate-2p.script", "# The ADJUDICATE test stops here")
	s := tb.State.(*State)
	ann, bob := s.P[0], s.P[1]
	// The position the hand check reads (all public, §10.3 item 5).
	pos := fmt.Sprintf("%d %s %s | %d %d %d %v %v %v %v %q %v | %d %d %d %v %v %v %v %q %v",
		s.year(), catalog.SeasonNames[s.seasonOf()], s.Phase,
		ann.Money, ann.Rep, ann.Loans, ann.Shipping, ann.Tanks, ann.Bottles, ann.Labels, ann.Pub, ann.Research,
		bob.Money, bob.Rep, bob.Loans, bob.Shipping, bob.Tanks, bob.Bottles, bob.Labels, bob.Pub, bob.Research)
	if want := `3 SUMMER brewery | 7 1 0 [] [EA ] [PP ] [] "" [1 2 1 1] | 12 0 0 [PP EA PP] [LAMBIC ] [SMOKED ] [] "" [1 0 0 1]`; pos != want {
		t.Fatalf("the position moved:\n got %s\nwant %s", pos, want)
	}
	if s.Collab != nil || ann.has("TOUR_TASTING") || bob.has("TOUR_TASTING") || len(ann.Workers)+len(bob.Workers) != 1 {
		t.Fatal("the position moved: collaboration, tasting room or workers")
	}
	res := enginetest.Adjudicated(t, s, 2, s.Adjudicate)
	// Beer held (BC-7.2.1, Rep per batch from Table 8.9: EA 2, PP 2,
	// SMOKED 4, LAMBIC 5): ann EA in T1 + PP bottling = 4; bob PP EA PP
	// in Shipping, LAMBIC in T1, SMOKED bottling = 2+2+2+5+4 = 15. No
	// research track on Game End (BC-7.2.2), no Tasting Room (3), Rep
	// tokens ann 1 bob 0 (4), no Gold Labels (5), no collaboration in a
	// two-player game (6), bob's Advanced Importer has no game-end Rep
	// (7), no Loans (8). Totals 5 and 15: bob first (BC-7.3); money
	// (7, 12) is the tie-break.
	want := [][]int{{4, 0, 0, 1, 0, 0, 0, 0}, {15, 0, 0, 0, 0, 0, 0, 0}}
	for seat, sc := range res.Scores {
		got := enginetest.PartPoints(sc)
		if fmt.Sprint(got) != fmt.Sprint(want[seat]) || sc.Total != []int{5, 15}[seat] || fmt.Sprint(sc.Tiebreak) != fmt.Sprint([]int{[]int{7, 12}[seat]}) {
			t.Errorf("seat %d: parts %v total %d tie-break %v", seat, got, sc.Total, sc.Tiebreak)
		}
	}
	if fmt.Sprint(res.Rank) != "[2 1]" {
		t.Errorf("rank %v, want [2 1]", res.Rank)
	}
	// Money breaks a tie of Rep (BC-7.3): give ann bob's 15 Rep.
	c := s.Clone().(*State)
	c.P[0].Rep += 10
	if r := c.Adjudicate(); fmt.Sprint(r.Rank) != "[2 1]" || r.Scores[0].Total != 15 {
		t.Errorf("tied on Rep, bob has more money: %+v", r)
	}
	c.P[0].Money = 12
	if r := c.Adjudicate(); fmt.Sprint(r.Rank) != "[1 1]" {
		t.Errorf("tied on Rep and money: a shared win, got %v", r.Rank)
	}
	full, _ := enginetest.PlayScript(t, Game{}, "testdata/adjudicate-2p.script")
	if full.State.Result() == nil || full.State.(*State).Adjudicate() != nil {
		t.Error("a finished game: Result nil or Adjudicate not nil")
	}
}

// TestAdjudicateIsTheProjectedScore: along whole games of bots, the
// adjudicated totals are the summary's projected scores (§10.3 item 4).
func TestAdjudicateIsTheProjectedScore(t *testing.T) {
	t.Parallel()
	greedy, _ := Game{}.NewBot("greedy")
	var cfgs []engine.Config
	for k, seats := range [][]string{{"a", "b"}, {"a", "b", "c"}, {"a", "b", "c", "d", "e"}} {
		cfgs = append(cfgs, engine.Config{Seats: seats, Seed: fmt.Sprint("adj", k)})
	}
	enginetest.CheckAlongBotGames(t, Game{}, greedy, cfgs, enginetest.Checkpoints{Every: 5, Limit: 50000, Min: 10, Seed: 9}, func(st engine.State) {
		s := st.(*State)
		res := s.Adjudicate()
		v := s.View(-1).(*View)
		for seat, sc := range res.Scores {
			if sc.Total != v.Players[seat].Score {
				t.Fatalf("season %d seat %d: adjudicated %d, projected %d", s.Season, seat, sc.Total, v.Players[seat].Score)
			}
		}
	})
}
