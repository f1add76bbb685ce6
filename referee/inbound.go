package referee

import "context"

// Outcome says what the referee did with an inbound message (a request,
// or a mail the mail-in edge set aside).
type Outcome struct {
	// Status: "applied" (commands applied), "queued" (orders accepted and
	// kept for later decisions, none applied yet), "rejected" (nothing
	// applied; the sender was told why), "duplicate" (already processed;
	// nothing done), "ignored" (auto-reply, bounce, list or own mail: never
	// answered), "answered" (an informational command such as STATUS or
	// HELP was answered).
	Status OutcomeStatus `json:"status"`
	Game   string        `json:"game,omitempty"`
	Seat   int           `json:"seat"`
	// Detail is a short explanation for logs and operators (never secrets).
	Detail string `json:"detail,omitempty"`
	// Replies are the Message-IDs of the mails queued in response.
	Replies []string `json:"replies,omitempty"`
	// Reason says, typed, why a request was ignored or refused when the
	// edges answer it differently (the webhook's 429 for RateLimited);
	// Detail says it in words for the log, never to be parsed.
	Reason OutcomeReason `json:"reason,omitempty"`
	// StateToken is the game's state token (its move count) once the
	// request was processed, as the same transaction saw it; Started is
	// false when there is none (no game, or not started).
	StateToken int  `json:"state_token,omitempty"`
	Started    bool `json:"started,omitempty"`
}

// OutcomeReason is why a request was not carried out as asked, for the
// edges to act on ("" when nothing needs saying).
type OutcomeReason string

const (
	// ReasonRateLimited: the sender's budget of answers is spent; nothing
	// was done and the sender may try again later.
	ReasonRateLimited OutcomeReason = "rate_limited"
	// ReasonUnknownSeat: the seat secret authenticates no seat.
	ReasonUnknownSeat OutcomeReason = "unknown_seat"
	// ReasonRevoked: the secret was a seat's but is no longer valid.
	ReasonRevoked OutcomeReason = "revoked"
	// ReasonSender: the mail is not from the seat's registered address,
	// or failed authentication.
	ReasonSender OutcomeReason = "sender"
)

// The outbox contract between the referee, which writes mails into the
// store's "outbox" queue in the transaction of the change that caused them,
// and the SMTP sender, which delivers them after commit:
//
//	store.Item.Key          the Message-ID, with angle brackets (stable across retries)
//	store.Item.To           the one recipient (envelope RCPT TO)
//	store.Item.Meta["from"] the envelope sender (MAIL FROM; a VERP bounce address)
//	store.Item.Payload      the complete message (mailfmt.Compose output)
//	store.Item.Game, Kind   for operators and metrics
const (
	// OutboxQueue is the store queue of outgoing mail.
	OutboxQueue = "outbox"
	// HooksQueue is the store queue of outgoing webhook calls.
	HooksQueue = "hooks"
	// MetaFrom is the Item.Meta key of the envelope sender.
	MetaFrom = "from"
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
