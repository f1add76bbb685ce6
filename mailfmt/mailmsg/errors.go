package mailmsg

import (
	"errors"
	"fmt"
)

// Sentinel errors. Callers branch on them with errors.Is.
var (
	// ErrTooLarge reports a message over Options.MaxBytes. The error is a
	// *TooLargeError; Parse also returns the header fields it could read.
	ErrTooLarge = errors.New("mailfmt: message too large")
	// ErrMalformed reports a message whose header section cannot be parsed.
	ErrMalformed = errors.New("mailfmt: malformed message")
	// ErrEmpty reports an empty input.
	ErrEmpty = errors.New("mailfmt: empty message")
	// ErrInvalidTag reports a string that is not a tag of the grammar in the
	// package documentation.
	ErrInvalidTag = errors.New("mailfmt: invalid tag")
	// ErrInvalidMessageID reports a Message-ID that the referee did not
	// assign, or arguments that cannot form one.
	ErrInvalidMessageID = errors.New("mailfmt: invalid message id")
	// ErrInvalidAddress reports an address that cannot be parsed or used.
	ErrInvalidAddress = errors.New("mailfmt: invalid address")
	// ErrCompose reports an Out that cannot be turned into a message (a
	// required field is missing or invalid).
	ErrCompose = errors.New("mailfmt: cannot compose message")
	// ErrNoLookup reports a VerifyDKIM call without a TXT lookup function.
	ErrNoLookup = errors.New("mailfmt: no dns txt lookup given")
)

// TooLargeError is returned by Parse for a message over the size limit.
type TooLargeError struct {
	Size  int // bytes received
	Limit int // Options.MaxBytes in force
}

// Error describes the sizes.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("mailfmt: message too large: %d bytes, limit %d", e.Size, e.Limit)
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }
