package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemoCommand runs `referee demo` on one short game, then checks the
// transcripts and replays the exported log with `referee replay`.
func TestDemoCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end demo")
	}
	dir := t.TempDir()
	out, errs, code := runCLI(t, "", "demo", "--games", "dicebrewing", "--option", "dicebrewing.round_limit=3", "--dir", dir, "--seed", "cli")
	if code != 0 {
		t.Fatalf("demo failed (%d): %s\n%s", code, errs, out)
	}
	for _, want := range []string{"embedded IMAP and SMTP", "dicebrewing", "moves", "mails", "All games finished",
		"log replays", "Transcripts: " + dir} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"ann.txt", "bob.txt", "log.json"} {
		if fi, err := os.Stat(filepath.Join(dir, "transcripts", "dicebrewing", f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	out, errs, code = runCLI(t, "", "replay", filepath.Join(dir, "transcripts", "dicebrewing", "log.json"))
	if code != 0 || !strings.Contains(out, "ok: every step matches") {
		t.Fatalf("replay (%d): %s %s", code, out, errs)
	}
}

func TestDemoAndBenchUsage(t *testing.T) {
	for _, args := range [][]string{
		{"demo", "--option", "round_limit=3"},
		{"demo", "--players", "x"},
		{"bench", "--sizes", "10,x"},
		{"bench", "--option", "nodot=1"},
	} {
		if _, errs, code := runCLI(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errs)
		}
	}
	if _, errs, code := runCLI(t, "", "demo", "--games", "nosuchgame"); code != 1 || !strings.Contains(errs, "nosuchgame") {
		t.Errorf("unknown game: exit %d: %s", code, errs)
	}
	if _, errs, code := runCLI(t, "", "demo", "--human", "not an address"); code != 1 || !strings.Contains(errs, "not a plain address") {
		t.Errorf("bad --human: exit %d: %s", code, errs)
	}
}

// TestBenchCommand runs `referee bench` small: one game and its echo as a
// table, then the scale part alone as JSON.
func TestBenchCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end benchmark")
	}
	out, errs, code := runCLI(t, "", "bench", "--games", "1", "--only", "dicebrewing", "--option", "dicebrewing.round_limit=3", "--sizes", "none")
	if code != 0 {
		t.Fatalf("bench failed (%d): %s\n%s", code, errs, out)
	}
	for _, want := range []string{"MAIL RUNS", "referee/echo", "moves/s", "mails/s", "latency median (ms)", "latency p99 (ms)", "verified",
		"Players: scripted"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The old players, for comparison: they decide on each prompt.
	out, errs, code = runCLI(t, "", "bench", "--games", "1", "--only", "dicebrewing", "--option", "dicebrewing.round_limit=3", "--sizes", "none",
		"--deciding-bots")
	if code != 0 || !strings.Contains(out, "Players: deciding bots") || strings.Contains(out, "PROBLEM") {
		t.Fatalf("bench --deciding-bots (%d): %s\n%s", code, errs, out)
	}
	if strings.Contains(out, "LIVE GAMES") || strings.Contains(out, "PROBLEM") {
		t.Errorf("unexpected output:\n%s", out)
	}
	out, errs, code = runCLI(t, "", "bench", "--no-mail", "--sizes", "3,6", "--moves", "4", "--json")
	if code != 0 {
		t.Fatalf("bench --json failed (%d): %s\n%s", code, errs, out)
	}
	var rep struct {
		Referee any `json:"referee"`
		Scale   []struct {
			Games int `json:"games"`
			Moves int `json:"moves"`
			Move  struct {
				Median float64 `json:"median_ms"`
			} `json:"move"`
			BytesPerGame int64 `json:"bytes_per_game"`
		} `json:"scale"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if rep.Referee != nil || len(rep.Scale) != 2 || rep.Scale[1].Games != 6 || rep.Scale[1].Moves != 4 ||
		rep.Scale[1].Move.Median <= 0 || rep.Scale[1].BytesPerGame <= 0 {
		t.Errorf("report %+v", rep)
	}
	if !strings.Contains(errs, "scale: loading to 6 live games") {
		t.Errorf("progress on stderr: %s", errs)
	}
}
