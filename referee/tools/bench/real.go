package bench

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"

	"github.com/pbem-referee/referee/referee/rigs/mailstack"
	"github.com/pbem-referee/referee/referee/tools/demo"
)

// realStack is the project's Dovecot + Postfix (referee/rigs/mailstack) as a
// demo.MailStack. Its users are fixed when it starts.
type realStack struct {
	s     *mailstack.Stack
	users []string
}

func (r *realStack) Domain() string { return mailstack.Domain }

func (r *realStack) Account(local, name string) (demo.Account, error) {
	if !slices.Contains(r.users, local) {
		return demo.Account{}, fmt.Errorf("bench: the real mail stack has no user %q", local)
	}
	return demo.Account{Name: name, Addr: r.s.Address(local), Password: r.s.Password(local),
		IMAPAddr: r.s.IMAPAddr, SMTPAddr: r.s.SMTPAddr, SMTPAuth: true}, nil
}

// startReal starts Dovecot and Postfix with the given users. mailstack is a
// test helper (it takes a testing.TB); a command has none, so it gets a
// stand-in whose Fatal and Skip end the start with an error.
func startReal(log *slog.Logger, users []string) (*realStack, func(), error) {
	if err := mailstack.Available(); err != nil {
		return nil, nil, fmt.Errorf("bench: --real needs Dovecot and Postfix and root: %w", err)
	}
	t := &cliTB{log: log}
	var s *mailstack.Stack
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				if e, ok := r.(tbStop); ok {
					err = errors.New(e.msg)
					return
				}
				panic(r)
			}
		}()
		s = mailstack.Start(t, users...)
		return nil
	}()
	if err != nil {
		t.cleanup()
		return nil, nil, fmt.Errorf("bench: mail stack: %w", err)
	}
	return &realStack{s: s, users: users}, t.cleanup, nil
}

// tbStop is the panic value of cliTB's Fatal and Skip.
type tbStop struct{ msg string }

// cliTB stands in for testing.TB outside a test. Only the methods
// mailstack uses are implemented (the embedded interface is nil).
type cliTB struct {
	testing.TB
	log      *slog.Logger
	mu       sync.Mutex
	cleanups []func()
	failed   bool
}

func (t *cliTB) Helper()      {}
func (t *cliTB) Name() string { return "bench" }
func (t *cliTB) Failed() bool { t.mu.Lock(); defer t.mu.Unlock(); return t.failed }
func (t *cliTB) Logf(format string, args ...any) {
	t.log.Info(fmt.Sprintf(format, args...), slog.String("part", "mailstack"))
}
func (t *cliTB) Errorf(format string, args ...any) {
	t.mu.Lock()
	t.failed = true
	t.mu.Unlock()
	t.log.Error(fmt.Sprintf(format, args...), slog.String("part", "mailstack"))
}
func (t *cliTB) Fatalf(format string, args ...any) {
	t.Errorf(format, args...)
	panic(tbStop{fmt.Sprintf(format, args...)})
}
func (t *cliTB) Fatal(args ...any) { t.Fatalf("%s", fmt.Sprint(args...)) }
func (t *cliTB) Skipf(format string, args ...any) {
	panic(tbStop{fmt.Sprintf(format, args...)})
}
func (t *cliTB) Cleanup(f func()) { t.mu.Lock(); t.cleanups = append(t.cleanups, f); t.mu.Unlock() }

// cleanup runs the cleanups, last first.
func (t *cliTB) cleanup() {
	t.mu.Lock()
	fs := t.cleanups
	t.cleanups = nil
	t.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}
