package outcome

import (
	"context"
	"time"
)

// Outcome says what the referee did with an inbound message (a request,
// or a mail the mail-in edge set aside).
type Outcome struct {
	// Status: "applied" (commands applied), "queued" (orders accepted and
	// kept for later decisions, none applied yet), "rejected" (nothing
	// applied; the sender was told why), "duplicate" (already processed;
	// nothing done), "ignored" (auto-reply, bounce, list or own mail: never
	// answered), "answered" (an informational command such as STATUS or
	// HELP was answered).
	Status Status `json:"status"`
	Game   string `json:"game,omitempty"`
	Seat   int    `json:"seat"`
	// Detail is a short explanation for logs and operators (never secrets).
	Detail string `json:"detail,omitempty"`
	// Replies are the Message-IDs of the mails queued in response.
	Replies []string `json:"replies,omitempty"`
	// Reason says, typed, why a request was ignored or refused when the
	// edges answer it differently (the webhook's 429 for RateLimited);
	// Detail says it in words for the log, never to be parsed.
	Reason Reason `json:"reason,omitempty"`
	// StateToken is the game's state token (its move count) once the
	// request was processed, as the same transaction saw it; Started is
	// false when there is none (no game, or not started).
	StateToken int  `json:"state_token,omitempty"`
	Started    bool `json:"started,omitempty"`
}

// Status says what the referee did with an inbound message
// (Outcome.Status).
type Status string

const (
	// Applied: commands applied.
	Applied Status = "applied"
	// Queued: orders accepted and kept for later decisions, none applied
	// yet.
	Queued Status = "queued"
	// Rejected: nothing applied; the sender was told why.
	Rejected Status = "rejected"
	// Duplicate: already processed; nothing done.
	Duplicate Status = "duplicate"
	// Ignored: an auto-reply, bounce, list or own mail, a forgery beyond
	// its budget, prose: never answered.
	Ignored Status = "ignored"
	// Answered: an informational command (STATUS, HELP, LIST...) was
	// answered.
	Answered Status = "answered"
)

// Reason is why a request was not carried out as asked, for the edges to
// act on ("" when nothing needs saying).
type Reason string

const (
	// RateLimited: the sender's budget of answers is spent; nothing was
	// done and the sender may try again later.
	RateLimited Reason = "rate_limited"
	// UnknownSeat: the seat secret authenticates no seat.
	UnknownSeat Reason = "unknown_seat"
	// Revoked: the secret was a seat's but is no longer valid.
	Revoked Reason = "revoked"
	// Sender: the mail is not from the seat's registered address, or
	// failed authentication.
	Sender Reason = "sender"
)

// Kind is the kind of tag a request carries, which is also the kind of
// token its secret names (store.Token.Kind).
type Kind string

const (
	// KindSeat: a seat's tag, in a game's thread ("<game>.<seat>.<secret>").
	KindSeat Kind = "seat"
	// KindPlayer: a registered player's own tag ("p.<secret>").
	KindPlayer Kind = "player"
	// KindOrg: an organiser's tag ("org.<secret>").
	KindOrg Kind = "org"
	// KindNone: no tag (a mail to the plain address).
	KindNone Kind = ""
)

// QuarantineNotifier is implemented by mail handlers (the referee) that
// tell a registered sender when a transport quarantines their message
// without handing it over: too large to fetch, or a poison message that
// stopped the process several times (issue 11, items 1 and 9).
type QuarantineNotifier interface {
	NotifyQuarantined(ctx context.Context, n QuarantineNotice) (Outcome, error)
}

// QuarantineNotice describes a message a transport quarantined.
type QuarantineNotice struct {
	// From and MessageID come from the message's envelope (unverified).
	From      string
	MessageID string
	Source    string
	// Keys are the transport's de-duplication keys of the message.
	Keys []string
	// Reason is "too_large" or "crashed"; Detail the text for operators;
	// Size the message's size and Max the limit (too_large).
	Reason string
	Detail string
	Size   int64
	Max    int64
	// Raw, when given, is the whole message, kept for the operator (a
	// webhook has no quarantine folder; issue 23).
	Raw []byte
}

// Observation describes one processed input, for metrics.
type Observation struct {
	// Source is the transport ("imap", "webhook:mailgun", ...) or "tick".
	Source string
	// Status is the outcome ("applied", "rejected", "duplicate", ...).
	Status string
	// Duration is the time spent, transaction included.
	Duration time.Duration
	// Moves is the number of engine moves applied; Mails and Hooks the
	// outgoing mails and webhook calls queued.
	Moves, Mails, Hooks int
}
