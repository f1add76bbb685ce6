package brewcrafters

import (
	"encoding/json"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// The sample offline game (testdata/short-2p.script, one-year ruleset
// override) plays to its end through a Table, each player sending one mail
// per season, and its log replays exactly.
func TestSampleScriptShortGame(t *testing.T) {
	tb, log := enginetest.PlayScriptLog(t, Game{}, "testdata/short-2p.script")
	if cfg := log.Config; len(cfg.Seats) != 2 || cfg.Seed != "sample" || cfg.Options["start_player"] != "1" || cfg.Ruleset == nil {
		t.Fatalf("the script's header configures %+v", cfg)
	}
	res := tb.State.Result()
	if res == nil {
		s := tb.State.(*State)
		t.Fatalf("the game did not end: season %d phase %s, waiting %+v", s.Season, s.Phase, tb.Waiting())
	}
	s := tb.State.(*State)
	t.Logf("scores %d-%d, batches %d-%d", res.Scores[0].Total, res.Scores[1].Total, s.P[0].Batches, s.P[1].Batches)
	if s.P[0].Batches != 2 || s.P[1].Batches != 1 || res.Scores[0].Total != 4 || res.Scores[1].Total != 2 || res.Rank[0] != 1 {
		t.Errorf("batches %d-%d, scores %d-%d, rank %v", s.P[0].Batches, s.P[1].Batches, res.Scores[0].Total, res.Scores[1].Total, res.Rank)
	}
	js, err := json.Marshal(log)
	if err != nil {
		t.Fatal(err)
	}
	var back engine.Log
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if _, err := engine.Replay(Game{}, back); err != nil {
		t.Fatalf("replay: %v", err)
	}
}
