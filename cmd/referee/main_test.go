package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

func init() { enginetest.RegisterToy() }

func runCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &cliEnv{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb})
	return out.String(), errb.String(), code
}

func TestGames(t *testing.T) {
	out, _, code := runCLI(t, "", "games")
	if code != 0 || !strings.Contains(out, "toy  Bid & Roll") || !strings.Contains(out, "variant secret") {
		t.Fatalf("games (%d):\n%s", code, out)
	}
	out, _, code = runCLI(t, "", "games", "--json")
	var infos []engine.Info
	if code != 0 || json.Unmarshal([]byte(out), &infos) != nil || len(infos) == 0 {
		t.Fatalf("games --json (%d): %s", code, out)
	}
}

// play runs a script with scripted dice and deadlines to the end, writes a
// log, and replay confirms every step; a tampered log fails.
func TestPlayThenReplay(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "toy.log.json")
	out, errs, code := runCLI(t, "", "play", "toy", "--players", "ann,bob", "--seed", "42", "--option", "rounds=2",
		"--script", "testdata/toy.script", "--log", logPath)
	if code != 0 {
		t.Fatalf("play failed (%d): %s\n%s", code, errs, out)
	}
	for _, want := range []string{
		"== ann:", "sealed", "toy.roll pot=7 value=5", "[private to ann]", "auto=true banked=10",
		"toy.order bids=[1,0] order=[0,1] round=2", "bust=true", "== the deadline passes for bob",
		"== game over", "1. ann            10", "2. bob             7",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("play output lacks %q:\n%s", want, out)
		}
	}
	out, errs, code = runCLI(t, "", "replay", logPath)
	if code != 0 || !strings.Contains(out, "ok: every step matches") {
		t.Fatalf("replay (%d): %s %s", code, out, errs)
	}
	data, _ := os.ReadFile(logPath)
	tampered := strings.Replace(string(data), `"value": 4`, `"value": 3`, 1)
	if tampered == string(data) {
		t.Fatal("the log has no die value 4 to tamper with")
	}
	os.WriteFile(logPath, []byte(tampered), 0o644)
	_, errs, code = runCLI(t, "", "replay", logPath)
	if code == 0 || !strings.Contains(errs, "events differ") {
		t.Fatalf("tampered replay passed (%d): %s", code, errs)
	}
}

func TestPlayFromStdinAndJSON(t *testing.T) {
	out, errs, code := runCLI(t, "ann: BID 99\n\nann: BID 2\nbob: BID 2\n", "play", "toy", "--players", "ann,bob", "--json")
	if code != 0 {
		t.Fatalf("play --json (%d): %s", code, errs)
	}
	var v struct {
		State  json.RawMessage
		Result *engine.Result
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || len(v.State) == 0 || v.Result != nil {
		t.Fatalf("json output: %v %s", err, out)
	}
	out, _, code = runCLI(t, "ann: BID 99\n", "play", "toy", "--players", "ann,bob")
	if code != 0 || !strings.Contains(out, "rejected") || !strings.Contains(out, "not_enough_chips") {
		t.Fatalf("rejection not shown (%d):\n%s", code, out)
	}
}

func TestPlayErrors(t *testing.T) {
	if _, errs, code := runCLI(t, "", "play", "nope", "--players", "a,b"); code == 0 || !strings.Contains(errs, "unknown game") {
		t.Errorf("unknown game: %d %s", code, errs)
	}
	if _, errs, code := runCLI(t, "zed: BID 1\n", "play", "toy", "--players", "ann,bob"); code == 0 || !strings.Contains(errs, "no player") {
		t.Errorf("unknown player: %d %s", code, errs)
	}
	if _, errs, code := runCLI(t, "!flip 3\n", "play", "toy", "--players", "ann,bob"); code == 0 || !strings.Contains(errs, "unknown directive") {
		t.Errorf("unknown directive: %d %s", code, errs)
	}
	if _, _, code := runCLI(t, "", "play", "toy"); code != 2 {
		t.Errorf("missing --players: %d", code)
	}
	if _, _, code := runCLI(t, "", "frobnicate"); code != 2 {
		t.Errorf("unknown command: %d", code)
	}
	// demo and bench take game.key=value: a key without its game is a usage
	// error before anything starts.
	for _, cmd := range []string{"demo", "bench"} {
		if _, errs, code := runCLI(t, "", cmd, "--option", "round_limit=6"); code != 2 || !strings.Contains(errs, "want game.key=value") {
			t.Errorf("%s --option without a game: %d %s", cmd, code, errs)
		}
	}
}

func TestSelfplay(t *testing.T) {
	out, errs, code := runCLI(t, "", "selfplay", "toy", "--games", "50", "--players", "3", "--bots", "greedy,random,random")
	if code != 0 || !strings.Contains(out, "50 games, 3 players") || !strings.Contains(out, "moves/s") {
		t.Fatalf("selfplay (%d): %s %s", code, out, errs)
	}
}

// Issue 12.10: an organiser tries "what if" on a published log: play
// --from LOG --at N replays the game up to move N, then the script goes on
// from there; --log writes a log of the new line that replays; --at past
// the end and a log of another game are refused.
func TestPlayFromLogAt(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "toy.log.json")
	if _, errs, code := runCLI(t, "", "play", "toy", "--players", "ann,bob", "--seed", "42", "--option", "rounds=2",
		"--script", "testdata/toy.script", "--log", logPath); code != 0 {
		t.Fatalf("play: %s", errs)
	}
	whatIf := filepath.Join(dir, "whatif.json")
	// Up to move 3 both bids are in; bob rolls differently this time.
	out, errs, code := runCLI(t, "!dice 6 6\nbob: ROLL\nbob: ROLL\nbob: HOLD\n", "play", "--from", logPath, "--at", "3", "--log", whatIf)
	if code != 0 || !strings.Contains(out, "replayed up to move 3 of") || !strings.Contains(out, "toy.roll pot=6 value=6") {
		t.Fatalf("play --from (%d): %s\n%s", code, errs, out)
	}
	if out, errs, code = runCLI(t, "", "replay", whatIf); code != 0 || !strings.Contains(out, "ok: every step matches") {
		t.Fatalf("the what-if log does not replay (%d): %s %s", code, out, errs)
	}
	if _, errs, code = runCLI(t, "", "play", "--from", logPath, "--at", "999"); code == 0 || !strings.Contains(errs, "the log ends at move") {
		t.Errorf("--at past the end (%d): %s", code, errs)
	}
	if _, errs, code = runCLI(t, "", "play", "dicebrewing", "--from", logPath); code == 0 || !strings.Contains(errs, "not dicebrewing") {
		t.Errorf("a log of another game (%d): %s", code, errs)
	}
	if _, errs, code = runCLI(t, "", "play", "toy", "--players", "ann,bob", "--at", "3"); code != 2 {
		t.Errorf("--at without --from (%d): %s", code, errs)
	}
}

// Issue 12.10: a loaded state is checked with the game's own consistency
// check; directives before the first move apply to it; --log with --state
// is refused with a reason instead of ignored; --json carries each order's
// error codes, the views and who is waiting.
func TestPlayStateCheckedAndJSON(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := runCLI(t, "", "play", "dicebrewing", "--players", "ann,bob", "--json")
	if code != 0 {
		t.Fatalf("play --json: %s", errs)
	}
	var v struct {
		State   map[string]any
		Views   []json.RawMessage
		Waiting []json.RawMessage
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || len(v.Views) != 2 || len(v.Waiting) == 0 {
		t.Fatalf("json output: %v %s", err, out)
	}
	good, _ := json.Marshal(v.State)
	v.State["players"].([]any)[0].(map[string]any)["coins"] = -5
	bad, _ := json.Marshal(v.State)
	goodPath, badPath := filepath.Join(dir, "good.json"), filepath.Join(dir, "bad.json")
	os.WriteFile(goodPath, good, 0o644)
	os.WriteFile(badPath, bad, 0o644)
	if _, errs, code := runCLI(t, "", "play", "dicebrewing", "--state", badPath); code == 0 || !strings.Contains(errs, "not a possible position") {
		t.Errorf("-5 coins accepted (%d): %s", code, errs)
	}
	if _, errs, code := runCLI(t, "", "play", "dicebrewing", "--state", goodPath); code != 0 {
		t.Errorf("a good state refused: %s", errs)
	}
	if _, errs, code := runCLI(t, "", "play", "dicebrewing", "--state", goodPath, "--log", filepath.Join(dir, "l.json")); code != 2 || !strings.Contains(errs, "--log needs") {
		t.Errorf("--log with --state (%d): %s", code, errs)
	}
	out, errs, code = runCLI(t, "ann: BID 99\n", "play", "toy", "--players", "ann,bob", "--json")
	var j struct {
		Messages []struct {
			Rejected bool
			Orders   []struct {
				Status string
				Errors []struct{ Code string }
			}
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &j) != nil || len(j.Messages) != 1 || !j.Messages[0].Rejected ||
		len(j.Messages[0].Orders) == 0 || len(j.Messages[0].Orders[0].Errors) == 0 || j.Messages[0].Orders[0].Errors[0].Code != "not_enough_chips" {
		t.Fatalf("--json lacks the error code (%d): %s %s", code, errs, out)
	}
}
