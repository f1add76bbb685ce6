package enginetest

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// PlayScript runs an offline-play script of game g the way "referee play"
// does:
// "player: command" lines, consecutive lines of one player form one
// message, a blank line ends a message, "!kind ..." scripts the random
// source, "!expire p" makes p's deadline pass. The config comes from the
// "referee play" command line quoted in the script's header comment.
// The state's invariants (State.Check) hold after every message.
func PlayScript(t testing.TB, g engine.Game, path string) (*engine.Table, []*engine.Report) {
	t.Helper()
	tb, reps, _ := playScript(t, g, path)
	return tb, reps
}

// PlayScriptLog plays a script as PlayScript does and returns the Table
// with the game's log (configuration, setup events, every step and the
// final state hash), ready for engine.Replay.
func PlayScriptLog(t testing.TB, g engine.Game, path string) (*engine.Table, engine.Log) {
	t.Helper()
	tb, reps, log := playScript(t, g, path)
	for _, rep := range reps {
		log.Steps = append(log.Steps, rep.Steps...)
	}
	var err error
	if log.Final, err = engine.StateHash(tb.State); err != nil {
		t.Fatal(err)
	}
	return tb, log
}

// PlayScriptUntil plays a script as PlayScript does, up to (not including)
// its first line that starts with stop: a real mid-game position.
func PlayScriptUntil(t testing.TB, g engine.Game, path, stop string) *engine.Table {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(raw), "\n"+stop)
	if i < 0 {
		t.Fatalf("%s: no line %q", path, stop)
	}
	tb, _, _ := playText(t, g, filepath.Dir(path), raw[:i+1])
	return tb
}

func playScript(t testing.TB, g engine.Game, path string) (*engine.Table, []*engine.Report, engine.Log) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return playText(t, g, filepath.Dir(path), raw)
}

// playText plays the text of a script whose files (--ruleset) are in dir.
func playText(t testing.TB, g engine.Game, dir string, raw []byte) (*engine.Table, []*engine.Report, engine.Log) {
	t.Helper()
	cfg := scriptConfig(t, g.Info().Name, dir, string(raw))
	tb, first, setup, err := engine.NewTable(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	log := engine.Log{Game: g.Info().Name, Config: cfg, Ruleset: cfg.Ruleset, RulesetSHA: tb.State.Head().RulesetSHA, Setup: setup}
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
			var why []string
			for _, r := range rep.Results {
				for _, e := range r.Errors {
					why = append(why, r.Order.Text+": "+e.Error())
				}
			}
			t.Fatalf("%s's message %q rejected: %s", cfg.Seats[curSeat], cur, strings.Join(why, "; "))
		}
		if err := tb.State.Check(); err != nil {
			t.Fatalf("after %s's message %q: invariant: %v", cfg.Seats[curSeat], cur, err)
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
			if f[0] == "expire" {
				rep, err := tb.Expire(seatOf(f[1]))
				if err != nil {
					t.Fatal(err)
				}
				reps = append(reps, rep)
				continue
			}
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
	return tb, reps, log
}

// scriptConfig reads the "referee play <game> ..." line of the header;
// --ruleset names a file beside the script.
func scriptConfig(t testing.TB, game, dir, text string) engine.Config {
	t.Helper()
	var cmd []string
	on := false
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(l, "#"))
		if strings.HasPrefix(l, "referee play "+game) {
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
		case "--variant":
			cfg.Variant = cmd[i+1]
		case "--seed":
			cfg.Seed = cmd[i+1]
		case "--ruleset":
			data, err := os.ReadFile(filepath.Join(dir, filepath.Base(cmd[i+1])))
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
