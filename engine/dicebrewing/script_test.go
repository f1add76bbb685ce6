package dicebrewing

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// playScript runs an offline-play script through a Table the way
// "referee play" does: one "player: command" per line, consecutive lines
// of one player form one message, a blank line ends a message, "!kind
// values" scripts the random source, "!expire player" makes a deadline
// pass, "#" starts a comment.
func playScript(t *testing.T, tb *engine.Table, path string, trace func(string, *engine.Report)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seatOf := func(name string) int {
		for i, s := range tb.State.Head().Seats {
			if strings.EqualFold(s, strings.TrimSpace(name)) {
				return i
			}
		}
		t.Fatalf("%s: no player %q", path, name)
		return -1
	}
	var cur []string
	curSeat, msgLine := -1, 0
	flush := func() {
		if curSeat < 0 || len(cur) == 0 {
			cur, curSeat = nil, -1
			return
		}
		text := strings.Join(cur, "\n")
		rep, err := tb.Submit(curSeat, engine.ParseScript(text), -1)
		if err != nil {
			t.Fatalf("%s:%d: %v", path, msgLine, err)
		}
		if rep.Rejected {
			var why []string
			for _, r := range rep.Results {
				for _, e := range r.Errors {
					why = append(why, r.Order.Text+": "+e.Error())
				}
			}
			t.Fatalf("%s:%d: message of %s rejected: %s", path, msgLine, tb.State.Head().Seats[curSeat], strings.Join(why, "; "))
		}
		if err := tb.State.Check(); err != nil {
			t.Fatalf("%s:%d: invariant: %v", path, msgLine, err)
		}
		if trace != nil {
			trace(fmt.Sprintf("== %s (line %d):\n%s\n%s", tb.State.Head().Seats[curSeat], msgLine, text, steps(rep)), rep)
		}
		cur, curSeat = nil, -1
	}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") {
			continue
		}
		if line == "" {
			flush()
			continue
		}
		if strings.HasPrefix(line, "!") {
			flush()
			fl := strings.Fields(line[1:])
			if fl[0] == "expire" {
				rep, err := tb.Expire(seatOf(fl[1]))
				if err != nil {
					t.Fatal(err)
				}
				if trace != nil {
					trace("== deadline of "+fl[1], rep)
				}
				continue
			}
			tb.Script(fl[0], fl[1:]...)
			continue
		}
		name, cmd, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("%s:%d: want \"player: command\"", path, n)
		}
		seat := seatOf(name)
		if seat != curSeat {
			flush()
			curSeat, msgLine = seat, n
		}
		cur = append(cur, strings.TrimSpace(cmd))
	}
	flush()
}

// The sample offline game (testdata/short-2p.script) plays to its end
// through NewTable, Table.Script and Table.Submit, as "referee play" does,
// and its log replays exactly (engine.Replay).
func TestSampleScriptShortGame(t *testing.T) {
	data, err := os.ReadFile("testdata/short.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := engine.Config{Seats: []string{"ann", "bob"}, Seed: "sample", Ruleset: data,
		Options: map[string]string{optFirst: "1"}}
	tb, rep0, setup, err := engine.NewTable(Game, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tb.HashSteps = true
	log := engine.Log{Game: gameName, Config: cfg, Ruleset: data, RulesetSHA: tb.State.Head().RulesetSHA, Setup: setup, Steps: rep0.Steps}
	var traces []string
	playScript(t, tb, "testdata/short-2p.script", func(s string, rep *engine.Report) {
		traces = append(traces, s)
		log.Steps = append(log.Steps, rep.Steps...)
	})
	res := tb.State.Result()
	if res == nil {
		t.Fatalf("the game did not end:\n%s", strings.Join(traces, "\n"))
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
	log.Final, _ = engine.StateHash(tb.State)
	js := mustMarshal(t, log)
	var back engine.Log
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if _, err := engine.Replay(Game, back); err != nil {
		t.Fatalf("replay: %v", err)
	}
}
