package fromage

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
)

// The short-game ruleset differs from the default only by the number of
// cheese tokens (and its version).
func TestShortRulesetIsTheDefaultWithFewerTokens(t *testing.T) {
	data, err := os.ReadFile("testdata/short.toml")
	if err != nil {
		t.Fatal(err)
	}
	a := strings.Split(string(catalog.DefaultRuleset), "\n")
	b := strings.Split(string(data), "\n")
	if len(a) != len(b) {
		t.Fatalf("%d lines vs %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] && !strings.HasPrefix(b[i], "cheese_per_player = 4") && !strings.HasPrefix(b[i], "version =") {
			t.Errorf("line %d differs: %q", i+1, b[i])
		}
	}
}

// TestOfflineScriptShort2p plays testdata/short-2p.script through a Table
// (what "referee play" does) and checks the outcome: the scripted draw,
// the queued NEXT plan of turn 3, the expired deadline, the end trigger
// and the final score (FR-7.1, FR-7.2, P-3, P-6).
func TestOfflineScriptShort2p(t *testing.T) {
	tb, reps := enginetest.PlayScript(t, Game{}, "testdata/short-2p.script")
	s := tb.State.(*State)
	res := s.Result()
	if res == nil {
		t.Fatalf("game not over: phase %s turn %d, waiting %+v", s.Phase, s.Turn, tb.Waiting())
	}
	if s.Turn != 3 || strings.Join(res.Params["end_by"].([]string), ",") != "ann,bob" {
		t.Fatalf("turn %d, end by %v", s.Turn, res.Params["end_by"])
	}
	bob := &s.Players[1]
	if len(bob.Completed) != 1 || s.cardLabel(bob.Completed[0]) != "O25" {
		t.Fatalf("bob completed %v, want the scripted O25", s.cardIDs(bob.Completed))
	}
	for _, c := range []struct{ space, owner string }{{"C02", "P0"}, {"C17", "P0"}, {"B7", "P0"}, {"D10", "P0"},
		{"D7", "P1"}, {"F13", "P1"}, {"C03", "P1"}, {"C09", "P1"}} {
		if got := probe(t, s, "space."+c.space); got != c.owner {
			t.Errorf("%s = %s, want %s", c.space, got, c.owner)
		}
	}
	defaults := 0
	for _, r := range reps {
		defaults += len(r.Defaults)
	}
	if defaults != 1 {
		t.Errorf("%d default moves, want bob's DONE", defaults)
	}
	// The final score, category by category (a golden result).
	got := map[string][]int{}
	for _, sc := range res.Scores {
		for _, p := range sc.Parts {
			got[p.Name] = append(got[p.Name], p.Points)
		}
		got["total"] = append(got["total"], sc.Total)
	}
	want := map[string][]int{
		// City: ann wins Purple, Yellow and Blue, bob White; Pink is tied (0 with 2 players).
		"festival": {0, 0}, "city": {12, 5}, "dairy": {1, 0}, "bistro": {0, 0}, "structures": {0, 0},
		"fruit": {0, 0}, "orders": {0, 1}, "unused": {1, 2}, "total": {14, 8},
	}
	for k, w := range want {
		if fmtInts(got[k]) != fmtInts(w) {
			t.Errorf("%s = %v, want %v", k, got[k], w)
		}
	}
	if res.Rank[0] != 1 || res.Rank[1] != 2 {
		t.Errorf("rank %v", res.Rank)
	}
}

func fmtInts(x []int) string { return fmt.Sprint(x) }

// TestOfflineScriptShortSolo plays testdata/short-solo.script: the
// Corporation's choice (CORP), SET CORP LOWEST, scripted Corporation draws,
// the player's end trigger and the solo result (FR-5.12, A-21).
func TestOfflineScriptShortSolo(t *testing.T) {
	tb, _ := enginetest.PlayScript(t, Game{}, "testdata/short-solo.script")
	s := tb.State.(*State)
	res := s.Result()
	if res == nil {
		t.Fatalf("game not over: phase %s turn %d, waiting %+v", s.Phase, s.Turn, tb.Waiting())
	}
	for _, c := range []struct{ space, owner string }{{"C14", "corp"}, {"B15", "corp"}, {"D6", "corp"},
		{"C02", "P0"}, {"C17", "P0"}, {"B7", "P0"}, {"D10", "P0"}} {
		if got := probe(t, s, "space."+c.space); got != c.owner {
			t.Errorf("%s = %s, want %s", c.space, got, c.owner)
		}
	}
	if s.Turn != 3 || s.Corp.Left != 13 || !s.Players[0].Pol.CorpLowest {
		t.Fatalf("turn %d, corporation %+v", s.Turn, s.Corp)
	}
	corp := s.corpScore(s.cityRegions())
	if res.Params["corporation"] != corp.Total || res.Params["solo_won"] != (res.Scores[0].Total > corp.Total) {
		t.Fatalf("params %v, corporation %+v", res.Params, corp)
	}
	// Golden: the Corporation's track shows 6 (3 tokens), it wins White and
	// Green (9 with 1-2 players); Yellow is tied (0). 14 < 15: eve loses.
	if res.Scores[0].Total != 14 || corp.Total != 15 || corp.Track != 6 || corp.Customers != 9 || res.Params["solo_won"] != false {
		t.Errorf("eve %d, corporation %+v, params %v", res.Scores[0].Total, corp, res.Params)
	}
	t.Logf("eve %d, corporation %d (%+v), won %v", res.Scores[0].Total, corp.Total, corp, res.Params["solo_won"])
}
