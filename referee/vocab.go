package referee

import (
	"github.com/pbem-referee/referee/referee/ledger"
	"github.com/pbem-referee/referee/referee/outcome"
)

// The referee's named vocabulary: the kinds and statuses that cross
// packages as words. The answer to an inbound message and its words
// (Outcome, its status and reason, the kind of tag a request carries, the
// quarantine notice) are package referee/outcome's; the names below keep
// the core's API (referee.Outcome, referee.OutcomeApplied, referee.KindSeat
// and the rest). Game states (Status*), seat states (Seat*) and log entry
// kinds (Entry*) are with the records they describe (records.go).
type (
	Outcome            = outcome.Outcome
	OutcomeStatus      = outcome.Status
	OutcomeReason      = outcome.Reason
	RequestKind        = outcome.Kind
	QuarantineNotifier = outcome.QuarantineNotifier
	QuarantineNotice   = outcome.QuarantineNotice
	Bounce             = outcome.Bounce
	AutoReply          = outcome.AutoReply
	SetAside           = outcome.SetAside
	Observation        = outcome.Observation
)

const (
	OutcomeApplied   = outcome.Applied
	OutcomeQueued    = outcome.Queued
	OutcomeRejected  = outcome.Rejected
	OutcomeDuplicate = outcome.Duplicate
	OutcomeIgnored   = outcome.Ignored
	OutcomeAnswered  = outcome.Answered

	ReasonRateLimited = outcome.RateLimited
	ReasonUnknownSeat = outcome.UnknownSeat
	ReasonRevoked     = outcome.Revoked
	ReasonSender      = outcome.Sender

	KindSeat   = outcome.KindSeat
	KindPlayer = outcome.KindPlayer
	KindOrg    = outcome.KindOrg
	KindNone   = outcome.KindNone

	AsideIgnored     = outcome.AsideIgnored
	AsideTooLarge    = outcome.AsideTooLarge
	AsideUnparseable = outcome.AsideUnparseable
	AsideList        = outcome.AsideList
)

// The outbox contract (the queues' names, the envelope sender's Meta key)
// and the store-only answers (Counts, QueueSize, QueueReply,
// UseReplayToken, on the Referee through ledger.Queries) are package
// referee/ledger's.
const (
	OutboxQueue = ledger.OutboxQueue
	HooksQueue  = ledger.HooksQueue
	MetaFrom    = ledger.MetaFrom
)

type (
	Counts   = ledger.Counts
	RawReply = ledger.RawReply
	// storeQueries is embedded in the Referee (bind).
	storeQueries = ledger.Queries
)
