package brewcrafters

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// playScript runs an offline-play script through a Table the way
// "referee play" does: "player: command" lines, consecutive lines of one
// player form one message, a blank line ends a message.
func playScript(t *testing.T, tb *engine.Table, path string, trace func(*engine.Report)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cur []string
	seat := -1
	flush := func() {
		if seat < 0 || len(cur) == 0 {
			cur, seat = nil, -1
			return
		}
		rep := submit(t, tb, seat, strings.Join(cur, "\n"))
		for _, h := range rep.Halts {
			t.Errorf("%s: halted at %q: %v", tb.State.Head().Seats[h.Seat], h.Halt.Order.Text, h.Halt.Errors)
		}
		if trace != nil {
			trace(rep)
		}
		cur, seat = nil, -1
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") {
			continue
		}
		if line == "" {
			flush()
			continue
		}
		name, cmd, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("bad line %q", line)
		}
		s := -1
		for i, n := range tb.State.Head().Seats {
			if n == strings.TrimSpace(name) {
				s = i
			}
		}
		if s != seat {
			flush()
			seat = s
		}
		cur = append(cur, strings.TrimSpace(cmd))
	}
	flush()
}

// The sample offline game (testdata/short-2p.script, one-year ruleset
// override) plays to its end through a Table, each player sending one mail
// per season, and its log replays exactly.
func TestSampleScriptShortGame(t *testing.T) {
	data, err := os.ReadFile("testdata/short.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := engine.Config{Seats: []string{"ann", "bob"}, Seed: "sample", Ruleset: data,
		Options: map[string]string{"start_player": "1"}}
	tb, rep0, setup, err := engine.NewTable(Game{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tb.HashSteps = true
	log := engine.Log{Game: gameName, Config: cfg, Ruleset: data, RulesetSHA: tb.State.Head().RulesetSHA, Setup: setup, Steps: rep0.Steps}
	playScript(t, tb, "testdata/short-2p.script", func(rep *engine.Report) {
		log.Steps = append(log.Steps, rep.Steps...)
	})
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
	log.Final, _ = engine.StateHash(tb.State)
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
