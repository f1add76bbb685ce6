package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTournamentCommandLine runs a tournament from the organiser's command
// line to its end, exports it and replays every pairing; a tampered
// export fails the replay.
func TestTournamentCommandLine(t *testing.T) {
	cfg := testConfig(t)
	runCLI(t, "", "org", "--config", cfg, "add", "olga@example.test")
	script := "NEW TOURNAMENT cup game=toy rounds=1\n"
	for _, p := range []string{"ann", "bob", "cat", "dan"} {
		script += "ENTER cup " + p + "@example.test " + p + "\n"
	}
	script += "START cup\n"
	out, errs, code := runCLI(t, script, "org", "--config", cfg, "-")
	if code != 0 || !strings.Contains(out, "cup started: round 1 of 1 open, 2 games") {
		t.Fatalf("org (%d): %s %s", code, out, errs)
	}
	out, _, _ = runCLI(t, "", "tournament", "export", "--config", cfg, "cup")
	if !strings.Contains(out, `"seed": ""`) || strings.Contains(out, "@example.test") {
		t.Fatalf("export of a running tournament shows its seed or addresses:\n%s", out)
	}
	out, errs, code = runCLI(t, "ADJUDICATE cupr1t1\nADJUDICATE cupr1t2\n", "org", "--config", cfg, "-")
	if code != 0 || strings.Count(out, "the bots finish the game") != 2 {
		t.Fatalf("adjudicate (%d): %s %s", code, out, errs)
	}
	out, errs, code = runCLI(t, "", "tournament", "export", "--config", cfg, "cup")
	if code != 0 || !strings.Contains(out, `"status": "over"`) || strings.Contains(out, `"seed": ""`) {
		t.Fatalf("export (%d): %s %s", code, out, errs)
	}
	file := filepath.Join(t.TempDir(), "cup.json")
	os.WriteFile(file, []byte(out), 0o600)
	res, errs, code := runCLI(t, "", "tournament", "replay", file)
	if code != 0 || !strings.Contains(res, "ok: every pairing") {
		t.Fatalf("replay (%d): %s %s", code, res, errs)
	}
	// Swap two entrants between the tables: the draw no longer matches.
	bad := strings.Replace(out, `"seats": [`, `"seats": [9, `, 1)
	os.WriteFile(file, []byte(bad), 0o600)
	if _, errs, code = runCLI(t, "", "tournament", "replay", file); code == 0 || !strings.Contains(errs, "round 1") {
		t.Fatalf("tampered replay accepted (%d): %s", code, errs)
	}
}
