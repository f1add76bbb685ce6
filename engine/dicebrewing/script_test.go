package dicebrewing

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// The sample offline game (testdata/short-2p.script) plays to its end
// through NewTable, Table.Script and Table.Submit, as "referee play" does,
// and its log replays exactly (engine.Replay).
func TestSampleScriptShortGame(t *testing.T) {
	tb, log := enginetest.PlayScriptLog(t, Game, "testdata/short-2p.script")
	if cfg := log.Config; len(cfg.Seats) != 2 || cfg.Seed != "sample" || cfg.Options[position.OptFirst] != "1" || cfg.Ruleset == nil {
		t.Fatalf("the script's header configures %+v", cfg)
	}
	res := tb.State.Result()
	if res == nil {
		t.Fatalf("the game did not end: waiting %+v", tb.Waiting())
	}
	s := tb.State.(*state)
	if s.Round != 2 || s.BrewedAll != 4 {
		t.Errorf("round %d, %d recipes brewed", s.Round, s.BrewedAll)
	}
	if res.Scores[0].Total != 12 || res.Scores[1].Total != 13 || res.Rank[1] != 1 || res.Rank[0] != 2 {
		t.Errorf("scores %d-%d, rank %v", res.Scores[0].Total, res.Scores[1].Total, res.Rank)
	}
	if got := strings.Join(s.P[1].Brewed, " "); got != "R02 R03" {
		t.Errorf("bob brewed %s", got)
	}
	// The log replays exactly: same commands, events and state hashes.
	js := mustMarshal(t, log)
	var back engine.Log
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if _, err := engine.Replay(Game, back); err != nil {
		t.Fatalf("replay: %v", err)
	}
}
