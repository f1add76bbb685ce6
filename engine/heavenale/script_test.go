package heavenale

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// playScript runs an offline-play script the way "referee play" does:
// "player: command" lines, consecutive lines of one player form one
// message, a blank line ends a message, "!tile ..." scripts the random
// source. The config comes from the header's "referee play" line.
func playScript(t *testing.T, path string) (*engine.Table, []*engine.Report) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := scriptConfig(t, string(raw))
	tb, first, _, err := engine.NewTable(Game{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tb.HashSteps = true
	reps := []*engine.Report{first}
	seatOf := func(name string) int {
		for i, s := range cfg.Seats {
			if s == name {
				return i
			}
		}
		t.Fatalf("no player %q", name)
		return -1
	}
	var cur []string
	curSeat := -1
	flush := func() {
		if curSeat < 0 || len(cur) == 0 {
			cur, curSeat = nil, -1
			return
		}
		rep, err := tb.Submit(curSeat, engine.ParseScript(strings.Join(cur, "\n")), -1)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Rejected {
			t.Fatalf("%s's message %q rejected: %+v", cfg.Seats[curSeat], cur, rep.Results)
		}
		reps = append(reps, rep)
		cur, curSeat = nil, -1
	}
	sc := bufio.NewScanner(strings.NewReader(string(raw)))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "#"):
		case line == "":
			flush()
		case strings.HasPrefix(line, "!"):
			flush()
			f := strings.Fields(line[1:])
			tb.Script(f[0], f[1:]...)
		default:
			name, cmd, ok := strings.Cut(line, ":")
			if !ok {
				t.Fatalf("bad script line %q", line)
			}
			if s := seatOf(strings.TrimSpace(name)); s != curSeat {
				flush()
				curSeat = s
			}
			cur = append(cur, strings.TrimSpace(cmd))
		}
	}
	flush()
	return tb, reps
}

// scriptConfig reads the "referee play heavenale ..." line of the header.
func scriptConfig(t *testing.T, text string) engine.Config {
	t.Helper()
	var cmd []string
	on := false
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(l, "#"))
		if strings.HasPrefix(l, "referee play heavenale") {
			on = true
		}
		if on {
			cmd = append(cmd, strings.Fields(strings.TrimSuffix(l, "\\"))...)
			if !strings.HasSuffix(l, "\\") {
				break
			}
		}
	}
	cfg := engine.Config{Options: map[string]string{}, Seed: "1"}
	for i := 0; i+1 < len(cmd); i++ {
		switch cmd[i] {
		case "--players":
			cfg.Seats = strings.Split(cmd[i+1], ",")
		case "--option":
			k, v, _ := strings.Cut(cmd[i+1], "=")
			cfg.Options[k] = v
		case "--seed":
			cfg.Seed = cmd[i+1]
		case "--ruleset":
			data, err := os.ReadFile(filepath.Join("testdata", filepath.Base(cmd[i+1])))
			if err != nil {
				t.Fatal(err)
			}
			cfg.Ruleset = data
		}
	}
	if len(cfg.Seats) == 0 {
		t.Fatal("script header has no referee play command line")
	}
	return cfg
}

// The short ruleset differs from the default only by the 2-player round
// count and stacks (and its version).
func TestShortRuleset(t *testing.T) {
	data, err := os.ReadFile("testdata/short.toml")
	if err != nil {
		t.Fatal(err)
	}
	a, b := strings.Split(string(defaultRuleset), "\n"), strings.Split(string(data), "\n")
	if len(a) != len(b) {
		t.Fatalf("%d lines vs %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] && b[i] != "rounds = 1" && b[i] != `stacks = ["I"]` && !strings.HasPrefix(b[i], "version =") {
			t.Errorf("line %d differs: %q", i+1, b[i])
		}
	}
}

// TestOfflineScriptShort2p plays testdata/short-2p.script through a Table
// (what "referee play" does): a queued turn whose first alternative failed,
// ELSE PASS not needed, a forced scoring spot, a sale, the forced FIRST.
func TestOfflineScriptShort2p(t *testing.T) {
	tb, _ := playScript(t, "testdata/short-2p.script")
	s := tb.State.(*State)
	if s.Result() == nil {
		t.Fatalf("game not over: %s %s", s.Phase, s.kind())
	}
	ann, ben := &s.Players[0], &s.Players[1]
	g := func(p *Player, id string) string { return p.Garden[s.r.CellIdx[id]] }
	if g(ann, "S7") != "M1" || g(ben, "D4") != "WA2" || g(ben, "D8") != "" {
		t.Fatalf("queued alternative: ann S7 %q, ben D4 %q D8 %q", g(ann, "S7"), g(ben, "D4"), g(ben, "D8"))
	}
	if !ann.Spots[spotMonk] || !ben.Spots[spotColor+3] {
		t.Fatalf("discs: ann %v ben %v", ann.Spots, ben.Spots)
	}
	if ann.hasCard("BARREL") || s.Home[homeFirst] != 1 || s.Home[homeBrew] != 0 {
		t.Fatalf("cards %v home %v", ann.Cards, s.Home)
	}
	if s.Final.Players[1].First != 1 {
		t.Fatalf("FIRST point missing")
	}
}
