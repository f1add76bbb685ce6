// Package failure is the one shape of permanent versus transient failures,
// for every transport (imapin, webhook, smtpout, hookout and the durable
// queue under them) and the core:
//
//   - an error is permanent when it, or an error it wraps, says so through
//     a method Transient() bool returning false: *PermanentError (the
//     core's answer for a message that can never be processed), the SMTP
//     sender's *smtpout.DeliveryError for a 5xx reply, the hook sender's
//     refused calls;
//   - every other error is transient: retrying later may succeed (the
//     store, the network, a deadline), and de-duplication makes the retry
//     safe.
//
// The transports ask IsPermanent or IsTransient (re-exported by the core:
// referee.IsPermanent) and never look inside the error: a mail is
// quarantined, a webhook answered 4xx, an outbox item retired, exactly
// when IsPermanent is true.
//
// It owns that rule and the core's permanent error. It must not know a
// transport or a game, or decide whether a failure is permanent by the
// words of its message.
package failure

import "fmt"

// Transienter is an error that knows whether retrying can fix it.
type Transienter interface {
	error
	// Transient reports whether a later attempt may succeed.
	Transient() bool
}

// PermanentError marks a message that can never be processed.
type PermanentError struct {
	Reason string
}

func (e *PermanentError) Error() string { return "permanent: " + e.Reason }

// Transient implements Transienter: a *PermanentError never succeeds.
func (e *PermanentError) Transient() bool { return false }

// Permanent returns a *PermanentError.
func Permanent(format string, args ...any) error {
	return &PermanentError{Reason: fmt.Sprintf(format, args...)}
}

// IsPermanent reports whether err is (or wraps) a permanent failure: a
// *PermanentError, or any Transienter that is not transient, in its chain
// (Unwrap, and every branch of errors.Join).
func IsPermanent(err error) bool {
	for err != nil {
		if t, ok := err.(Transienter); ok && !t.Transient() {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if IsPermanent(e) {
					return true
				}
			}
			return false
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		default:
			return false
		}
	}
	return false
}

// IsTransient reports whether err is a transient failure: not nil, and not
// marked permanent by any error in its chain.
func IsTransient(err error) bool {
	return err != nil && !IsPermanent(err)
}
