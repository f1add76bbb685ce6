package referee

import "github.com/pbem-referee/referee/referee/failure"

// The one shape of permanent versus transient failures, for every
// transport, is package referee/failure's; the names below keep the
// core's API (referee.IsPermanent and the rest).
type (
	// Transienter is an error that knows whether retrying can fix it.
	Transienter = failure.Transienter
	// PermanentError marks a message that can never be processed.
	PermanentError = failure.PermanentError
)

// Permanent returns a *PermanentError.
func Permanent(format string, args ...any) error { return failure.Permanent(format, args...) }

// IsPermanent reports whether err is (or wraps) a permanent failure
// (failure.IsPermanent).
func IsPermanent(err error) bool { return failure.IsPermanent(err) }

// IsTransient reports whether err is a transient failure
// (failure.IsTransient).
func IsTransient(err error) bool { return failure.IsTransient(err) }
