// Package mailstack starts a throwaway Dovecot (IMAP + LMTP) and Postfix
// (SMTP) on 127.0.0.1 for integration tests, using the embedded script
// mailstack.sh (the project's copy of the verified recipe in
// shared/notes/mailstack.md; the script's header lists what changed).
//
// Start skips the test with a clear message when Dovecot or Postfix is not
// installed or the test does not run as root (Postfix's master must start
// as root), unless REFEREE_MAILSTACK=require is set (CI sets it), in which
// case the test fails instead. When the servers are there but the stack
// does not come up, Start fails the test loudly, with the servers' logs.
//
// Every stack lives under its own short directory in /tmp (unix socket
// paths must stay short), listens on random loopback ports, serves the
// domain example.test with the users given to Start (password
// "<user>-pw"), supports plus-addressing (user+tag@example.test lands in
// user's INBOX), and relays nothing outside the domain. It is stopped and
// removed when the test ends; a stack forgotten by a killed test stops by
// itself after 15 minutes.
package mailstack

import (
	"bufio"
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
)

//go:embed mailstack.sh
var script []byte

// RequireEnv is the environment variable that turns a skip into a failure
// when set to "require".
const RequireEnv = "REFEREE_MAILSTACK"

// Domain is the mail domain of every stack.
const Domain = "example.test"

// Binaries the stack needs, at the paths the script uses.
var binaries = []string{"/usr/sbin/dovecot", "/usr/lib/dovecot/imap", "/usr/lib/dovecot/lmtp",
	"/usr/lib/postfix/sbin/master", "/usr/bin/doveadm"}

// Available reports why a stack cannot run here, or nil.
func Available() error {
	var missing []string
	for _, b := range binaries {
		if _, err := os.Stat(b); err != nil {
			missing = append(missing, b)
		}
	}
	for _, tool := range []string{"bash", "setpriv", "ps", "install"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("not installed: %s (apt-get install dovecot-imapd dovecot-lmtpd postfix; .ci/run does it as root)",
			strings.Join(missing, ", "))
	}
	if os.Geteuid() != 0 {
		return errors.New("not root: Postfix's master only starts as root (run the tests as root, as .ci/run does)")
	}
	return nil
}

// Stack is a running Dovecot + Postfix.
type Stack struct {
	// Dir holds configuration, mailboxes, queues, sockets and logs.
	Dir string
	// IMAPAddr is Dovecot's IMAP, "127.0.0.1:port".
	IMAPAddr string
	// SMTPAddr is Postfix with AUTH PLAIN/LOGIN against the stack's users
	// (like a submission port; a fresh connection fails while Dovecot,
	// which does the authentication, is stopped).
	SMTPAddr string
	// MXAddr is Postfix without AUTH (like an MX): it accepts mail for the
	// stack's users even while Dovecot is stopped, and queues it.
	MXAddr string
	// LMTPSocket is Dovecot's LMTP socket.
	LMTPSocket string
	// Users are the local parts of the accounts.
	Users []string

	t       testing.TB
	cmd     *exec.Cmd
	log     *os.File
	exited  chan error // the supervisor's exit status, once
	stopped bool
}

// Start starts a stack with the given users (default referee, alice, bob,
// carol, dave) and stops it when the test ends.
func Start(t testing.TB, users ...string) *Stack {
	t.Helper()
	if err := Available(); err != nil {
		if os.Getenv(RequireEnv) == "require" {
			t.Fatalf("mailstack required (%s=require) but unavailable: %v", RequireEnv, err)
		}
		t.Skipf("mailstack: %v", err)
	}
	if len(users) == 0 {
		users = []string{"referee", "alice", "bob", "carol", "dave"}
	}
	for _, u := range users {
		if u == "" || strings.ContainsAny(u, " @+\t\r\n/\"'$") {
			t.Fatalf("mailstack: bad user name %q", u)
		}
	}
	// Ports are picked at random by the script; another stack starting at
	// the same moment (go test runs packages in parallel) may take the same
	// one, so a stack that lost that race is started again on new ports.
	for attempt := 1; ; attempt++ {
		s, err := launch(t, users)
		if err == nil {
			t.Cleanup(s.stop)
			return s
		}
		if attempt == 3 || !strings.Contains(err.Error(), "Address already in use") {
			t.Fatalf("mailstack did not come up: %v", err)
		}
		t.Logf("mailstack: attempt %d lost a port race, starting again", attempt)
	}
}

// launch starts one stack and waits until it is up. On failure the stack is
// stopped and the error carries its logs.
func launch(t testing.TB, users []string) (*Stack, error) {
	dir, err := os.MkdirTemp("", "ms.") // short: unix sockets live inside
	if err != nil {
		return nil, err
	}
	s := &Stack{Dir: dir, Users: users, t: t}
	path := filepath.Join(dir, "mailstack.sh")
	if err := os.WriteFile(path, script, 0o755); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	if s.log, err = os.Create(filepath.Join(dir, "run.log")); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	s.cmd = exec.Command("bash", path, "run", dir)
	s.cmd.Env = append(os.Environ(), "MS_USERS="+strings.Join(users, " "), "MS_DOMAIN="+Domain, "MS_LIFETIME=900")
	// Files, not pipes: the daemons must not hold a pipe that Wait waits on.
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	begin := time.Now()
	if err := s.cmd.Start(); err != nil {
		_ = s.log.Close()
		_ = os.RemoveAll(dir)
		return nil, err
	}
	s.exited = make(chan error, 1)
	go func() { s.exited <- s.cmd.Wait() }()

	env, err := s.waitEnv(20 * time.Second)
	if err == nil {
		s.IMAPAddr, s.SMTPAddr, s.MXAddr, s.LMTPSocket = env["MS_IMAP_ADDR"], env["MS_SMTP_ADDR"], env["MS_MX_ADDR"], env["MS_LMTP_SOCKET"]
		if s.IMAPAddr == "" || s.SMTPAddr == "" || s.MXAddr == "" {
			err = fmt.Errorf("came up without IMAP or SMTP: %v", env)
		}
	}
	if err != nil {
		err = fmt.Errorf("%w\n%s", err, s.Logs())
		s.stop()
		return nil, err
	}
	t.Logf("mailstack up in %v: IMAP %s, SMTP %s, MX %s, dir %s", time.Since(begin).Round(time.Millisecond),
		s.IMAPAddr, s.SMTPAddr, s.MXAddr, dir)
	return s, nil
}

func (s *Stack) waitEnv(timeout time.Duration) (map[string]string, error) {
	deadline := time.Now().Add(timeout)
	for {
		if b, err := os.ReadFile(filepath.Join(s.Dir, "env")); err == nil {
			return parseEnv(b), nil
		}
		select {
		case err := <-s.exited:
			s.stopped = true
			return nil, fmt.Errorf("the supervisor exited: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("not ready after %v", timeout)
		}
	}
}

func parseEnv(b []byte) map[string]string {
	env := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			env[k] = strings.Trim(v, `"`)
		}
	}
	return env
}

// stop ends the stack: SIGTERM to the supervisor, which stops both
// servers; SIGKILL to whatever is left after 15 s.
func (s *Stack) stop() {
	if s.t.Failed() {
		s.t.Logf("mailstack logs:\n%s", s.Logs())
	}
	env := map[string]string{}
	if b, err := os.ReadFile(filepath.Join(s.Dir, "env")); err == nil {
		env = parseEnv(b)
	}
	if !s.stopped {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(15 * time.Second):
			s.t.Errorf("mailstack: supervisor still running 15 s after SIGTERM; killing")
			_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			<-s.exited
		}
	}
	// Dovecot and its children share the supervisor's process group (Start
	// made it a new one): end any stray left by a supervisor that died.
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	// Postfix's master runs in its own session: make sure it is gone too.
	if pid, err := strconv.Atoi(env["MS_POSTFIX_PID"]); err == nil && pid > 0 {
		for i := 0; i < 100 && alive(pid); i++ {
			time.Sleep(50 * time.Millisecond)
		}
		if alive(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	_ = s.log.Close()
	if err := os.RemoveAll(s.Dir); err != nil {
		s.t.Logf("mailstack: remove %s: %v", s.Dir, err)
	}
}

// alive reports whether pid runs and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// pid (comm) state ...: the state follows the last ')'.
	i := bytes.LastIndexByte(b, ')')
	return i > 0 && i+2 < len(b) && b[i+2] != 'Z'
}

// Logs returns the supervisor's, Dovecot's and Postfix's logs.
func (s *Stack) Logs() string {
	var out strings.Builder
	for _, f := range []string{"run.log", "dovecot/dovecot.log", "dovecot/stderr.log", "postfix/postfix.log", "postfix/stderr.log"} {
		b, err := os.ReadFile(filepath.Join(s.Dir, f))
		if err != nil || len(b) == 0 {
			continue
		}
		if len(b) > 8000 {
			b = b[len(b)-8000:]
		}
		fmt.Fprintf(&out, "==> %s <==\n%s\n", f, b)
	}
	return out.String()
}

// Address returns user@example.test.
func (s *Stack) Address(user string) string { return user + "@" + Domain }

// Password returns the password of user.
func (s *Stack) Password(user string) string { return user + "-pw" }

// Send hands a message to Postfix at MXAddr (no authentication: the
// recipients are local), failing the test on error.
func (s *Stack) Send(t testing.TB, from string, to []string, raw []byte) {
	t.Helper()
	if err := s.SendErr(from, to, raw); err != nil {
		t.Fatalf("mailstack: send: %v", err)
	}
}

// SendErr hands a message to Postfix at MXAddr and returns the error.
func (s *Stack) SendErr(from string, to []string, raw []byte) error {
	c, err := smtp.Dial(s.MXAddr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello("tests.example.test"); err != nil {
		return err
	}
	if err := c.SendMail(from, to, bytes.NewReader(raw)); err != nil {
		return err
	}
	return c.Quit()
}

// Message is a message in a mailbox.
type Message struct {
	UID   imap.UID
	Flags []imap.Flag
	Raw   []byte
}

// Messages returns the messages of a user's mailbox ("INBOX", "Processed",
// ...), in UID order; nil if the mailbox does not exist.
func (s *Stack) Messages(t testing.TB, user, mailbox string) []Message {
	t.Helper()
	c := s.dial(t, user)
	defer func() { _ = c.Close() }()
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		var ie *imap.Error
		if errors.As(err, &ie) && ie.Type == imap.StatusResponseTypeNo {
			return nil // no such mailbox
		}
		t.Fatalf("mailstack: select %s/%s: %v", user, mailbox, err)
	}
	var out []Message
	if sel.NumMessages > 0 {
		section := &imap.FetchItemBodySection{Peek: true}
		var seq imap.SeqSet
		seq.AddRange(1, sel.NumMessages)
		msgs, err := c.Fetch(seq, &imap.FetchOptions{UID: true, Flags: true,
			BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil {
			t.Fatalf("mailstack: fetch %s/%s: %v", user, mailbox, err)
		}
		for _, m := range msgs {
			out = append(out, Message{UID: m.UID, Flags: m.Flags, Raw: m.FindBodySection(section)})
		}
	}
	_ = c.Logout().Wait()
	slices.SortFunc(out, func(a, b Message) int { return int(a.UID) - int(b.UID) })
	return out
}

// MessagesAfter returns the messages of a user's mailbox with a UID above
// after, in UID order (nil if the mailbox does not exist): what arrived
// since the last look, without fetching the rest again.
func (s *Stack) MessagesAfter(t testing.TB, user, mailbox string, after imap.UID) []Message {
	t.Helper()
	c := s.dial(t, user)
	defer func() { _ = c.Close() }()
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		var ie *imap.Error
		if errors.As(err, &ie) && ie.Type == imap.StatusResponseTypeNo {
			return nil
		}
		t.Fatalf("mailstack: select %s/%s: %v", user, mailbox, err)
	}
	var out []Message
	if sel.NumMessages > 0 && (sel.UIDNext == 0 || sel.UIDNext > after+1) {
		section := &imap.FetchItemBodySection{Peek: true}
		var set imap.UIDSet
		set.AddRange(after+1, 0)
		msgs, err := c.Fetch(set, &imap.FetchOptions{UID: true, Flags: true,
			BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil {
			t.Fatalf("mailstack: fetch %s/%s: %v", user, mailbox, err)
		}
		for _, m := range msgs {
			if m.UID > after { // "n:*" also returns the last UID when it is below n
				out = append(out, Message{UID: m.UID, Flags: m.Flags, Raw: m.FindBodySection(section)})
			}
		}
	}
	_ = c.Logout().Wait()
	slices.SortFunc(out, func(a, b Message) int { return int(a.UID) - int(b.UID) })
	return out
}

// Count returns the number of messages in a user's mailbox (0 if it does
// not exist).
func (s *Stack) Count(t testing.TB, user, mailbox string) int {
	t.Helper()
	c := s.dial(t, user)
	defer func() { _ = c.Close() }()
	n, err := count(c, mailbox)
	if err != nil {
		t.Fatalf("mailstack: status %s/%s: %v", user, mailbox, err)
	}
	_ = c.Logout().Wait()
	return n
}

func count(c *imapclient.Client, mailbox string) (int, error) {
	st, err := c.Status(mailbox, &imap.StatusOptions{NumMessages: true}).Wait()
	if err != nil {
		var ie *imap.Error
		if errors.As(err, &ie) && ie.Type == imap.StatusResponseTypeNo {
			return 0, nil
		}
		return 0, err
	}
	return int(*st.NumMessages), nil
}

// WaitCount waits until a user's mailbox holds at least n messages,
// checking every 10 ms over one connection, and returns the count.
func (s *Stack) WaitCount(t testing.TB, user, mailbox string, n int, timeout time.Duration) int {
	t.Helper()
	c := s.dial(t, user)
	defer func() { _ = c.Close() }()
	deadline := time.Now().Add(timeout)
	for {
		got, err := count(c, mailbox)
		if err != nil {
			t.Fatalf("mailstack: status %s/%s: %v", user, mailbox, err)
		}
		if got >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("mailstack: %s/%s holds %d messages after %v, want %d\n%s", user, mailbox, got, timeout, n, s.Logs())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (s *Stack) dial(t testing.TB, user string) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(s.IMAPAddr, nil)
	if err != nil {
		t.Fatalf("mailstack: dial IMAP: %v", err)
	}
	if err := c.Login(s.Address(user), s.Password(user)).Wait(); err != nil {
		_ = c.Close()
		t.Fatalf("mailstack: login %s: %v", user, err)
	}
	return c
}

// StopDovecot stops Dovecot (Postfix keeps running and defers mail for the
// stack's users) and returns once it is down.
func (s *Stack) StopDovecot(t testing.TB) {
	t.Helper()
	s.signal(t, syscall.SIGUSR1, "down")
	// The port is closed once the master is gone.
	if c, err := net.DialTimeout("tcp", s.IMAPAddr, time.Second); err == nil {
		_ = c.Close()
		t.Fatalf("mailstack: IMAP still accepts connections after stopping Dovecot")
	}
}

// StartDovecot starts Dovecot again after StopDovecot and returns once it
// accepts connections.
func (s *Stack) StartDovecot(t testing.TB) {
	t.Helper()
	s.signal(t, syscall.SIGUSR2, "up")
}

func (s *Stack) signal(t testing.TB, sig syscall.Signal, want string) {
	t.Helper()
	state := filepath.Join(s.Dir, "dovecot.state")
	deadline := time.Now().Add(20 * time.Second)
	resend := time.Now()
	for {
		if b, err := os.ReadFile(state); err == nil && strings.HasPrefix(string(b), want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("mailstack: Dovecot not %s after 20 s\n%s", want, s.Logs())
		}
		if !time.Now().Before(resend) {
			// Resent every 3 s: a signal caught between the supervisor's
			// check and its wait is only seen at the next one.
			if err := s.cmd.Process.Signal(sig); err != nil {
				t.Fatalf("mailstack: signal supervisor: %v", err)
			}
			resend = time.Now().Add(3 * time.Second)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Doveadm runs doveadm against the stack's Dovecot and returns its output.
func (s *Stack) Doveadm(t testing.TB, args ...string) string {
	t.Helper()
	out, err := exec.Command("doveadm", append([]string{"-c", filepath.Join(s.Dir, "dovecot", "dovecot.conf")}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("doveadm %v: %v\n%s", args, err, out)
	}
	return string(out)
}
