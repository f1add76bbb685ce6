package e2e_test

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/rigs/mailstack"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/referee/wiring/config"
	"github.com/pbem-referee/referee/referee/wiring/daemon"
)

// startReferee starts Dovecot + Postfix with the mailboxes "referee",
// "olga" (the organiser) and users, and the referee daemon reading them.
// It returns the stack, the daemon and the organiser's address.
func startReferee(t *testing.T, users ...string) (*mailstack.Stack, *daemon.Daemon, string) {
	t.Helper()
	return startRefereeWith(t, "", users...)
}

// startRefereeWith is startReferee with more configuration (TOML tables
// appended to the test's).
func startRefereeWith(t *testing.T, extra string, users ...string) (*mailstack.Stack, *daemon.Daemon, string) {
	t.Helper()
	ms := mailstack.Start(t, append([]string{"referee", "olga"}, users...)...)
	cfg := stackConfig(t, ms, extra)
	var logTo io.Writer = io.Discard
	if os.Getenv("REFEREE_E2E_LOG") != "" { // the daemon's log on stderr, to see why
		logTo = os.Stderr
	}
	d, err := daemon.New(cfg, daemon.Options{NoSync: true, Logger: slog.New(slog.NewTextHandler(logTo, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(testkit.Run(t, d.Run))
	secret, err := d.Referee.AddOrganiser(ms.Address("olga"))
	if err != nil {
		t.Fatal(err)
	}
	return ms, d, "referee+org." + secret + "@" + mailstack.Domain
}

// organise mails the organiser's commands to the organiser address.
func organise(t *testing.T, ms *mailstack.Stack, orgTo, id, text string) {
	t.Helper()
	ms.Send(t, ms.Address("olga"), []string{orgTo}, []byte("From: Olga <olga@example.test>\r\nTo: "+orgTo+
		"\r\nSubject: new game\r\nMessage-ID: <"+id+"@example.test>\r\nDate: "+time.Now().UTC().Format(time.RFC1123Z)+
		"\r\n\r\n"+text))
}

// stackConfig writes and loads the daemon's configuration over the stack
// (TOML tables in extra appended to the test's).
func stackConfig(t *testing.T, ms *mailstack.Stack, extra string) *config.Config {
	t.Helper()
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "referee.toml")
	cfgText := fmt.Sprintf(`domain = %q
data_dir = %q
organisers = [%q]
[referee]
local_part = "referee"
# Every answer at once: these probes read the answer to each mail they
# send (receipts folding, issue 22, has its own tests).
receipt_window = "0s"
[imap]
addr = %q
tls = "none"
username = %q
password = "referee-pw"
idle = "off"
poll_interval = "100ms"
resync_interval = "5s"
min_backoff = "50ms"
max_backoff = "1s"
[smtp]
addr = %q
tls = "none"
auth = "none"
min_backoff = "100ms"
max_backoff = "1s"
[log]
level = "warn"
%s`, mailstack.Domain, filepath.Join(dir, "data"), ms.Address("olga"), ms.IMAPAddr, ms.Address("referee"), ms.MXAddr, extra)
	if err := os.WriteFile(cfgPath, []byte(cfgText), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// gameTable is a game's record and its table as the daemon's store holds
// them now.
func gameTable(t *testing.T, d *daemon.Daemon, id string) (*referee.Game, *engine.Table) {
	t.Helper()
	g, err := d.Referee.GameRecord(id)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := engine.LoadTable(g.Table, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g, tb
}

// waitRunning waits until the game has started.
func waitRunning(t *testing.T, d *daemon.Daemon, id string) {
	t.Helper()
	waitFor(t, "the game to start", func() bool {
		g, err := d.Referee.GameRecord(id)
		return err == nil && g.Status == referee.StatusRunning
	})
}
