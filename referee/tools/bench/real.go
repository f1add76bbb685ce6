package bench

import (
	"fmt"
	"log/slog"
	"slices"

	"github.com/pbem-referee/referee/referee/tools/demo"
	"github.com/pbem-referee/referee/referee/tools/realstack"
)

// realStack is the project's Dovecot + Postfix (referee/tools/realstack) as a
// demo.MailStack. Its users are fixed when it starts.
type realStack struct {
	s     *realstack.Stack
	users []string
}

func (r *realStack) Domain() string { return realstack.Domain }

func (r *realStack) Account(local, name string) (demo.Account, error) {
	if !slices.Contains(r.users, local) {
		return demo.Account{}, fmt.Errorf("bench: the real mail stack has no user %q", local)
	}
	return demo.Account{Name: name, Addr: r.s.Address(local), Password: r.s.Password(local),
		IMAPAddr: r.s.IMAPAddr, SMTPAddr: r.s.SMTPAddr, SMTPAuth: true}, nil
}

// startReal starts Dovecot and Postfix with the given users; the returned
// function stops them.
func startReal(log *slog.Logger, users []string) (*realStack, func(), error) {
	if err := realstack.Available(); err != nil {
		return nil, nil, fmt.Errorf("bench: --real needs Dovecot and Postfix and root: %w", err)
	}
	logf := func(format string, args ...any) {
		log.Info(fmt.Sprintf(format, args...), slog.String("part", "mailstack"))
	}
	s, err := realstack.Start(logf, users...)
	if err != nil {
		return nil, nil, fmt.Errorf("bench: mail stack: %w", err)
	}
	stop := func() {
		if err := s.Stop(); err != nil {
			log.Error(err.Error(), slog.String("part", "mailstack"))
		}
	}
	return &realStack{s: s, users: users}, stop, nil
}
