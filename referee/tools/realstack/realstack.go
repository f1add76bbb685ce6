// Package realstack starts a throwaway Dovecot (IMAP + LMTP) and Postfix
// (SMTP) on 127.0.0.1, using the embedded script mailstack.sh (the
// project's copy of the verified recipe in shared/notes/mailstack.md; the
// script's header lists what changed). It returns errors: `referee bench
// --real` uses it directly, and the test rig referee/rigs/mailstack wraps it
// for tests (skips, t.Cleanup, mailbox helpers).
//
// Every stack lives under its own short directory in /tmp (unix socket
// paths must stay short), listens on random loopback ports, serves the
// domain example.test with the users given to Start (password
// "<user>-pw"), supports plus-addressing (user+tag@example.test lands in
// user's INBOX), and relays nothing outside the domain. Stop ends it and
// removes the directory; a stack forgotten by a killed process stops by
// itself after 15 minutes.
//
// It owns starting and stopping the real Dovecot and Postfix. It must not
// import the testing package: the binary's referee bench --real uses it.
package realstack

import (
	"bufio"
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/emersion/go-smtp"
)

//go:embed mailstack.sh
var script []byte

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

	logf    func(format string, args ...any)
	cmd     *exec.Cmd
	log     *os.File
	exited  chan error // the supervisor's exit status, once
	stopped bool
}

// Start starts a stack with the given users (default referee, alice, bob,
// carol, dave) and returns once it is up. logf, if not nil, is told the
// progress. The caller stops the stack with Stop.
func Start(logf func(format string, args ...any), users ...string) (*Stack, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if len(users) == 0 {
		users = []string{"referee", "alice", "bob", "carol", "dave"}
	}
	for _, u := range users {
		if u == "" || strings.ContainsAny(u, " @+\t\r\n/\"'$") {
			return nil, fmt.Errorf("realstack: bad user name %q", u)
		}
	}
	// Ports are picked at random by the script; another stack starting at
	// the same moment (go test runs packages in parallel) may take the same
	// one, so a stack that lost that race is started again on new ports.
	for attempt := 1; ; attempt++ {
		s, err := Launch(logf, users)
		if err == nil {
			return s, nil
		}
		if attempt == 3 || !strings.Contains(err.Error(), "Address already in use") {
			return nil, fmt.Errorf("realstack: the stack did not come up: %w", err)
		}
		logf("mailstack: attempt %d lost a port race, starting again", attempt)
	}
}

// Launch starts one stack and waits until it is up, without Start's
// retries. On failure the stack is stopped and the error carries its logs.
func Launch(logf func(format string, args ...any), users []string) (*Stack, error) {
	dir, err := os.MkdirTemp("", "ms.") // short: unix sockets live inside
	if err != nil {
		return nil, err
	}
	if logf == nil {
		logf = func(string, ...any) {}
	}
	s := &Stack{Dir: dir, Users: users, logf: logf}
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
		_ = s.Stop()
		return nil, err
	}
	logf("mailstack up in %v: IMAP %s, SMTP %s, MX %s, dir %s", time.Since(begin).Round(time.Millisecond),
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

// Stop ends the stack: SIGTERM to the supervisor, which stops both
// servers; SIGKILL to whatever is left after 15 s. The directory is
// removed. The error says what did not stop cleanly; the stack is gone
// either way.
func (s *Stack) Stop() error {
	var errs []error
	env := map[string]string{}
	if b, err := os.ReadFile(filepath.Join(s.Dir, "env")); err == nil {
		env = parseEnv(b)
	}
	if !s.stopped {
		s.stopped = true
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(15 * time.Second):
			errs = append(errs, errors.New("mailstack: supervisor still running 15 s after SIGTERM; killed"))
			_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			<-s.exited
		}
	}
	// Dovecot and its children share the supervisor's process group (Launch
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
		s.logf("mailstack: remove %s: %v", s.Dir, err)
	}
	return errors.Join(errs...)
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

// SendErr hands a message to Postfix at MXAddr (no authentication: the
// recipients are local) and returns the error.
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

// Signal asks the supervisor to stop (syscall.SIGUSR1, want "down") or
// start again (syscall.SIGUSR2, want "up") Dovecot, and returns once
// DIR/dovecot.state says so, or after 20 s with an error.
func (s *Stack) Signal(sig syscall.Signal, want string) error {
	state := filepath.Join(s.Dir, "dovecot.state")
	deadline := time.Now().Add(20 * time.Second)
	resend := time.Now()
	for {
		if b, err := os.ReadFile(state); err == nil && strings.HasPrefix(string(b), want) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("mailstack: Dovecot not %s after 20 s\n%s", want, s.Logs())
		}
		if !time.Now().Before(resend) {
			// Resent every 3 s: a signal caught between the supervisor's
			// check and its wait is only seen at the next one.
			if err := s.cmd.Process.Signal(sig); err != nil {
				return fmt.Errorf("mailstack: signal supervisor: %w", err)
			}
			resend = time.Now().Add(3 * time.Second)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Doveadm runs doveadm against the stack's Dovecot and returns its output.
func (s *Stack) Doveadm(args ...string) (string, error) {
	out, err := exec.Command("doveadm", append([]string{"-c", filepath.Join(s.Dir, "dovecot", "dovecot.conf")}, args...)...).CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("doveadm %v: %v\n%s", args, err, out)
	}
	return string(out), nil
}
