package mailstack_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/rigs/mailstack"
)

// readmeSection returns the README's "Run a game for your friends" section.
func readmeSection(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "## Run a game for your friends\n")
	if !ok {
		t.Fatal(`README.md has no "Run a game for your friends" section`)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	return sec
}

// readmeBlock returns the indented block that follows the line containing
// after, without its indentation.
func readmeBlock(t *testing.T, sec, after string) []string {
	t.Helper()
	_, rest, ok := strings.Cut(sec, after)
	if !ok {
		t.Fatalf("README: no %q", after)
	}
	var lines []string
	for _, l := range strings.Split(rest, "\n")[1:] {
		switch {
		case strings.TrimSpace(l) == "" && len(lines) == 0:
		case strings.HasPrefix(l, "       "):
			lines = append(lines, strings.TrimSpace(l))
		default:
			return lines
		}
	}
	return lines
}

// setTOML sets key = value in the table of a TOML text ("" for the top
// level), as a person edits the example configuration.
func setTOML(t *testing.T, text, table, key, value string) string {
	t.Helper()
	lines := strings.Split(text, "\n")
	cur := ""
	for i, l := range lines {
		s := strings.TrimSpace(l)
		if strings.HasPrefix(s, "[") {
			cur = strings.Trim(s, "[]")
			continue
		}
		if cur == table && (strings.HasPrefix(s, key+" =") || strings.HasPrefix(s, key+"=")) {
			lines[i] = key + " = " + value
			return strings.Join(lines, "\n")
		}
	}
	t.Fatalf("the example configuration has no %s in [%s]", key, table)
	return ""
}

// Issue 12.11: the README's "Run a game for your friends" works as written,
// through the built binary (`referee serve`) over a real Dovecot and Postfix:
// the example configuration with the five settings the README names, the
// passwords from the environment, the organiser address in the log, HELP to
// the plain address, the README's first NEW mail to the organiser address,
// the invitations and JOIN, STATUS g1; then, the daemon stopped, `referee org
// add` and `referee org -` without mail passwords.
func TestReadmeRunAGameForYourFriends(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	sec := readmeSection(t)
	s := mailstack.Start(t, "referee", "olga", "ann", "bob")
	dir := t.TempDir()

	// Build the binary as the README says (make build is go build -o
	// bin/referee ./cmd/referee).
	bin := filepath.Join(dir, "referee")
	if !strings.Contains(sec, "referee serve --config referee.toml") {
		t.Fatal("README: no `referee serve --config referee.toml`")
	}
	build := exec.Command("go", "build", "-o", bin, "./cmd/referee")
	build.Dir = "../../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	// 2. A configuration: the example, with domain, data_dir, organisers,
	// [imap] and [smtp] set (this stack has no TLS and an open relay on
	// the MX).
	if !strings.Contains(sec, "referee/wiring/config/referee.example.toml") {
		t.Fatal("README: the configuration step does not name the example file")
	}
	ex, err := os.ReadFile("../../wiring/config/referee.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := string(ex)
	cfg = setTOML(t, cfg, "", "domain", fmt.Sprintf("%q", mailstack.Domain))
	cfg = setTOML(t, cfg, "", "data_dir", fmt.Sprintf("%q", filepath.Join(dir, "data")))
	cfg = setTOML(t, cfg, "", "organisers", fmt.Sprintf("[%q]", s.Address("olga")))
	cfg = setTOML(t, cfg, "imap", "addr", fmt.Sprintf("%q", s.IMAPAddr))
	cfg = setTOML(t, cfg, "imap", "tls", `"none"`)
	cfg = setTOML(t, cfg, "imap", "username", fmt.Sprintf("%q", s.Address("referee")))
	cfg = setTOML(t, cfg, "smtp", "addr", fmt.Sprintf("%q", s.MXAddr))
	cfg = setTOML(t, cfg, "smtp", "tls", `"none"`)
	cfg = setTOML(t, cfg, "smtp", "auth", `"none"`)
	cfg = setTOML(t, cfg, "smtp", "username", fmt.Sprintf("%q", s.Address("referee")))
	cfgPath := filepath.Join(dir, "referee.toml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sec, "export REFEREE_IMAP_PASSWORD=... REFEREE_SMTP_PASSWORD=...") {
		t.Fatal("README: the passwords step changed; update this test")
	}
	env := append(os.Environ(), "REFEREE_IMAP_PASSWORD="+s.Password("referee"), "REFEREE_SMTP_PASSWORD=unused")

	// 3. Start it: the log names the organiser address.
	var logs syncBuffer
	serve := exec.Command(bin, "serve", "--config", "referee.toml")
	serve.Dir, serve.Env, serve.Stdout, serve.Stderr = dir, env, &logs, &logs
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			serve.Process.Signal(syscall.SIGTERM)
			serve.Wait()
		}
	}
	t.Cleanup(stop)
	logged := regexp.MustCompile(`organiser address organiser=(\S+) write_to=(referee\+org\.\S+@` + regexp.QuoteMeta(mailstack.Domain) + `)`)
	if !strings.Contains(sec, "organiser address organiser=you@... write_to=referee+org.<secret>@your.domain") {
		t.Fatal("README: the log line of step 3 changed; update this test")
	}
	var orgLogged string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if m := logged.FindStringSubmatch(strings.ReplaceAll(logs.String(), `msg="organiser address"`, "organiser address")); m != nil {
			if m[1] != s.Address("olga") {
				t.Fatalf("organiser %s logged, want %s", m[1], s.Address("olga"))
			}
			orgLogged = m[2]
			break
		}
	}
	if orgLogged == "" {
		t.Fatalf("the log has no line like the README's:\n%s", logs.String())
	}

	// 4. Get in by mail: HELP to the plain address.
	olga := &inbox{t: t, s: s, user: "olga"}
	olga.send(s.Address("referee"), "hello", "", 1, "HELP")
	hello, _ := olga.next()
	if !strings.Contains(hello.Text, orgLogged) {
		t.Fatalf("the answer to HELP does not give the organiser address %s:\n%s", orgLogged, hello.Text)
	}
	for _, cmd := range []string{"NEW ", "PLAYER ", "STATUS ", "PAUSE ", "EXTEND ", "REPLACE "} {
		if !strings.Contains(hello.Text, cmd) {
			t.Errorf("the organiser help lacks %q:\n%s", cmd, hello.Text)
		}
	}

	// 5. Your first game: the README's mail, with this stack's domain.
	block := readmeBlock(t, sec, "Write to your organiser address:")
	if len(block) == 0 || !strings.HasPrefix(block[0], "NEW ") {
		t.Fatalf("README: no NEW mail in step 5: %q", block)
	}
	text := strings.ReplaceAll(strings.Join(block, "\n"), "@example.org", "@"+mailstack.Domain)
	olga.send(orgLogged, "first game", "", 2, text)
	res, _ := olga.next()
	if !strings.Contains(res.Text, "g1") || strings.Contains(strings.ToLower(res.Text), "error") {
		t.Fatalf("the answer to the README's NEW mail:\n%s", res.Text)
	}
	ann := &inbox{t: t, s: s, user: "ann"}
	bob := &inbox{t: t, s: s, user: "bob"}
	invA, _ := ann.next()
	invB, _ := bob.next()
	if !strings.Contains(invA.Text, "JOIN") || !strings.Contains(invB.Text, "JOIN") {
		t.Fatalf("invitations:\n%s\n----\n%s", invA.Text, invB.Text)
	}
	if !strings.Contains(invB.Subject, "g1") {
		t.Errorf("Bob's invitation subject: %q", invB.Subject)
	}
	ann.reply(invA, 1, "JOIN")
	ann.next()
	bob.reply(invB, 1, "JOIN")
	// "The game starts when every seat is taken": one of them is asked to
	// move, Ann in English, Bob in Italian (the README's PLAYER lines).
	startB, _ := bob.next()
	startA, _ := ann.next()
	if !strings.Contains(startA.Subject, "Your move") && !strings.Contains(startB.Subject, "Tocca a te") {
		t.Fatalf("nobody is asked to move: %q / %q", startA.Subject, startB.Subject)
	}
	if !strings.Contains(startA.Text, "Europe/Rome") && !strings.Contains(startA.Text, "CET") && !strings.Contains(startA.Text, "+01") {
		t.Logf("Ann's start mail does not show her time zone (informative):\n%s", startA.Subject)
	}
	for _, l := range strings.Split(startA.Text+"\n"+startB.Text, "\n") {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("line of %d columns: %s", n, l)
		}
	}
	olga.send(orgLogged, "status", "", 3, "STATUS g1")
	st, _ := olga.next()
	if !strings.Contains(st.Text, "g1") || !strings.Contains(st.Text, "Ann") || !strings.Contains(st.Text, "Bob") {
		t.Fatalf("STATUS g1:\n%s", st.Text)
	}

	// Without mail, the daemon stopped, and without the mail passwords.
	stop()
	if !strings.Contains(sec, "referee org --config referee.toml add you@...") ||
		!strings.Contains(sec, "referee org --config referee.toml -") {
		t.Fatal("README: the commands without mail changed; update this test")
	}
	noPw := []string{}
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "REFEREE_") {
			noPw = append(noPw, e)
		}
	}
	add := exec.Command(bin, "org", "--config", "referee.toml", "add", s.Address("olga"))
	add.Dir, add.Env = dir, noPw
	out, err := add.CombinedOutput()
	if err != nil || !strings.Contains(string(out), orgLogged) {
		t.Fatalf("referee org add: %v\n%s", err, out)
	}
	list := exec.Command(bin, "org", "--config", "referee.toml", "-")
	list.Dir, list.Env, list.Stdin = dir, noPw, bytes.NewBufferString("LIST\nSTATUS g1\n")
	out, err = list.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "g1") {
		t.Fatalf("referee org -: %v\n%s", err, out)
	}
}
