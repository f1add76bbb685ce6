package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

func testConfig(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "referee.toml")
	cfg := "domain = \"example.test\"\ndata_dir = \"" + filepath.Join(dir, "data") + "\"\norganisers = [\"olga@example.test\"]\n" +
		"[smtp]\naddr = \"127.0.0.1:2525\"\ntls = \"none\"\n[webhook]\naddr = \"127.0.0.1:0\"\nsecret = \"0123456789abcdef0123\"\n"
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// An organiser works from the command line on a stopped daemon's store:
// registers, creates a game, runs commands and exports the log.
func TestOrganiserCommandLine(t *testing.T) {
	cfg := testConfig(t)
	out, errs, code := runCLI(t, "", "org", "--config", cfg, "add", "olga@example.test")
	if code != 0 || !strings.Contains(out, "referee+org.") {
		t.Fatalf("org add (%d): %s %s", code, out, errs)
	}
	again, _, _ := runCLI(t, "", "org", "--config", cfg, "add", "olga@example.test")
	if again != out {
		t.Fatalf("a second add changed the secret: %q vs %q", again, out)
	}
	out, errs, code = runCLI(t, "", "game", "new", "toy", "--config", cfg, "--id", "g7", "--player", "ann@example.test:Ann:it",
		"--player", "bob@example.test:Bob", "--deadline", "24h,misses=2", "--option", "rounds=1")
	if code != 0 || !strings.Contains(out, "game g7 created") {
		t.Fatalf("game new (%d): %s %s", code, out, errs)
	}
	out, errs, code = runCLI(t, "STATUS g7\nPOLICY g7 12h\n", "org", "--config", cfg, "-")
	if code != 0 || !strings.Contains(out, "STATUS g7: Bid & Roll") || !strings.Contains(out, "POLICY g7: policy now 12h") {
		t.Fatalf("org script (%d): %s %s", code, out, errs)
	}
	out, errs, code = runCLI(t, "", "export", "g7", "--config", cfg)
	var lg engine.Log
	if code != 0 || json.Unmarshal([]byte(out), &lg) != nil || lg.Game != "toy" || lg.Config.Seed != "" {
		t.Fatalf("export (%d): %s %s", code, out, errs)
	}
	if _, errs, code = runCLI(t, "", "game", "new", "nosuchgame", "--config", cfg); code == 0 || !strings.Contains(errs, `no game is called "nosuchgame"`) || strings.Contains(errs, "no_kind") {
		t.Fatalf("unknown game (%d): %s", code, errs)
	}
	// compact keeps the games and says what it did (issue 11).
	out, errs, code = runCLI(t, "", "compact", "--config", cfg)
	if code != 0 || !strings.Contains(out, "bytes ->") {
		t.Fatalf("compact (%d): %s %s", code, out, errs)
	}
	if out, errs, code = runCLI(t, "", "export", "g7", "--config", cfg); code != 0 || !strings.Contains(out, `"toy"`) {
		t.Fatalf("export after compact (%d): %s %s", code, out, errs)
	}
}

// Issue 12.9: the store-only organiser commands need no mail passwords: a
// configuration with IMAP and SMTP logins but no password in the file nor
// in the environment still runs them (serve would refuse it).
func TestOrganiserCommandLineWithoutPasswords(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "referee.toml")
	cfg := "domain = \"example.test\"\ndata_dir = \"" + filepath.Join(dir, "data") + "\"\norganisers = [\"olga@example.test\"]\n" +
		"[imap]\naddr = \"imap.example.test:993\"\nusername = \"referee@example.test\"\n" +
		"[smtp]\naddr = \"smtp.example.test:587\"\nusername = \"referee@example.test\"\n"
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"REFEREE_IMAP_PASSWORD", "REFEREE_SMTP_PASSWORD"} {
		t.Setenv(v, "")
		t.Setenv(v+"_FILE", "")
	}
	if _, errs, code := runCLI(t, "", "serve", "--config", path); code == 0 || !strings.Contains(errs, "password") {
		t.Fatalf("serve without passwords (%d): %s", code, errs)
	}
	out, errs, code := runCLI(t, "", "org", "--config", path, "add", "olga@example.test")
	if code != 0 || !strings.Contains(out, "referee+org.") {
		t.Fatalf("org add (%d): %s %s", code, out, errs)
	}
	out, errs, code = runCLI(t, "NEW toy id=g8\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob\nLIST\nHELP\n", "org", "--config", path, "-")
	if code != 0 || !strings.Contains(out, "NEW: created game g8") || !strings.Contains(out, "  g8 ") || !strings.Contains(out, "ORGANISER COMMANDS") {
		t.Fatalf("org script (%d): %s %s", code, out, errs)
	}
}
