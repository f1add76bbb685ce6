package abusetest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/wiring/config"
	"github.com/pbem-referee/referee/referee/wiring/daemon"
)

const daemonEnv = "REFEREE_ABUSETEST_CONFIG"

// crashHeader marks the probe's poison message: the daemon of this test
// kills itself with SIGKILL when it is handed a message carrying it, as a
// memory-capped daemon was killed by the mail bomb before issue 11.
const crashHeader = "X-Abuse-Crash: 1"

// TestMain doubles as the daemon: the test re-executes its own binary with
// the configuration path in the environment.
func TestMain(m *testing.M) {
	if path := os.Getenv(daemonEnv); path != "" {
		os.Exit(runDaemon(path))
	}
	os.Exit(m.Run())
}

// crashing is the referee's intake, except that the poison message kills the
// process. It passes quarantine notices through.
type crashing struct{ next *mailin.Intake }

func (c *crashing) HandleMail(ctx context.Context, in mailin.Inbound) (referee.Outcome, error) {
	head := in.Raw
	if i := bytes.Index(head, []byte("\r\n\r\n")); i >= 0 {
		head = head[:i+2]
	}
	if bytes.Contains(head, []byte("\r\n"+crashHeader+"\r\n")) {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
	return c.next.HandleMail(ctx, in)
}

func (c *crashing) NotifyQuarantined(ctx context.Context, n referee.QuarantineNotice) (referee.Outcome, error) {
	return c.next.NotifyQuarantined(ctx, n)
}

func runDaemon(path string) int {
	cfg, err := config.Load(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	h := &crashing{}
	d, err := daemon.New(cfg, daemon.Options{Handler: h})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	h.next = d.Intake
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := d.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// proc runs the daemon as a child process and restarts it whenever it dies
// without being asked to (counting the crashes).
type proc struct {
	t       *testing.T
	cfgPath string
	logPath string

	mu       sync.Mutex
	cmd      *exec.Cmd
	done     chan struct{}
	stopping bool
	crashes  int
	starts   int
}

func (p *proc) start() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.startLocked()
}

func (p *proc) startLocked() {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), daemonEnv+"="+p.cfgPath)
	logf, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		p.t.Error(err)
		return
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		p.t.Error(err)
		return
	}
	done := make(chan struct{})
	p.cmd, p.done, p.stopping = cmd, done, false
	p.starts++
	go func() {
		_ = cmd.Wait()
		logf.Close()
		close(done)
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.stopping || p.cmd != cmd {
			return
		}
		p.crashes++
		time.Sleep(100 * time.Millisecond)
		p.startLocked()
	}()
}

// stop ends the daemon gracefully (SIGTERM) and waits for it.
func (p *proc) stop() {
	p.mu.Lock()
	p.stopping = true
	cmd, done := p.cmd, p.done
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		p.t.Error("the daemon did not stop within 20 s of SIGTERM")
	}
}

func (p *proc) crashCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.crashes
}

// peakRSS returns the running daemon's peak resident set size (VmHWM), in
// bytes.
func (p *proc) peakRSS() int64 {
	p.mu.Lock()
	pid := p.cmd.Process.Pid
	p.mu.Unlock()
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		p.t.Fatalf("read the daemon's status: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(v)
			n, _ := strconv.ParseInt(f[0], 10, 64)
			return n << 10
		}
	}
	p.t.Fatal("no VmHWM in /proc/<pid>/status")
	return 0
}

// logLines returns the daemon log's lines that contain substr.
func (p *proc) logLines(substr string) string {
	b, _ := os.ReadFile(p.logPath)
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, substr) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func (p *proc) logTail() string {
	b, _ := os.ReadFile(p.logPath)
	if len(b) > 6000 {
		b = b[len(b)-6000:]
	}
	return string(b)
}
