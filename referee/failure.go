package referee

// One shape for permanent versus transient failures, for every transport
// (imapin, webhook, smtpout, hookout and the durable queue under them):
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
// The transports ask IsPermanent or IsTransient and never look inside the
// error: a mail is quarantined, a webhook answered 4xx, an outbox item
// retired, exactly when IsPermanent is true.

// Transienter is an error that knows whether retrying can fix it.
type Transienter interface {
	error
	// Transient reports whether a later attempt may succeed.
	Transient() bool
}

// Transient implements Transienter: a *PermanentError never succeeds.
func (e *PermanentError) Transient() bool { return false }

// IsTransient reports whether err is a transient failure: not nil, and not
// marked permanent by any error in its chain.
func IsTransient(err error) bool {
	return err != nil && !IsPermanent(err)
}

// permanentInChain reports whether an error of err's chain (Unwrap, and
// every branch of errors.Join) is a Transienter that is not transient.
func permanentInChain(err error) bool {
	for err != nil {
		if t, ok := err.(Transienter); ok && !t.Transient() {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if permanentInChain(e) {
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
