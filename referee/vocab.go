package referee

import (
	"github.com/pbem-referee/referee/referee/tell"
)

// The referee's named vocabulary: the kinds and statuses that cross
// packages (the transports, the webhook's answers, the metrics, the stored
// records) as words. Each is a type of its own with its constants here, in
// one place; the words are the ones stored and sent, so records, logs and
// JSON answers read the same as before the names existed.
//
// Game states (Status*), seat states (Seat*) and log entry kinds (Entry*)
// are with the records they describe (records.go).

// RequestKind is the kind of tag a request carries, which is also the kind
// of token its secret names (store.Token.Kind).
type RequestKind string

const (
	// KindSeat: a seat's tag, in a game's thread ("<game>.<seat>.<secret>").
	KindSeat RequestKind = "seat"
	// KindPlayer: a registered player's own tag ("p.<secret>").
	KindPlayer RequestKind = "player"
	// KindOrg: an organiser's tag ("org.<secret>").
	KindOrg RequestKind = "org"
	// KindNone: no tag (a mail to the plain address).
	KindNone RequestKind = ""
)

// OutcomeStatus says what the referee did with an inbound message
// (Outcome.Status).
type OutcomeStatus string

const (
	// OutcomeApplied: commands applied.
	OutcomeApplied OutcomeStatus = "applied"
	// OutcomeQueued: orders accepted and kept for later decisions, none
	// applied yet.
	OutcomeQueued OutcomeStatus = "queued"
	// OutcomeRejected: nothing applied; the sender was told why.
	OutcomeRejected OutcomeStatus = "rejected"
	// OutcomeDuplicate: already processed; nothing done.
	OutcomeDuplicate OutcomeStatus = "duplicate"
	// OutcomeIgnored: an auto-reply, bounce, list or own mail, a forgery
	// beyond its budget, prose: never answered.
	OutcomeIgnored OutcomeStatus = "ignored"
	// OutcomeAnswered: an informational command (STATUS, HELP, LIST...)
	// was answered.
	OutcomeAnswered OutcomeStatus = "answered"
)

// LineStatus is what became of one line of a player's mail (a reply
// line): the tell stage's vocabulary (tell.LineStatus), which the apply
// stage writes.
type LineStatus = tell.LineStatus

const (
	LineDone     = tell.LineDone
	LineRejected = tell.LineRejected
	LineApplied  = tell.LineApplied
	LineAgreed   = tell.LineAgreed
	LinePartial  = tell.LinePartial
	LineQueued   = tell.LineQueued
	LineSealed   = tell.LineSealed
	LineElsePass = tell.LineElsePass
	LineHalted   = tell.LineHalted
	LineSkipped  = tell.LineSkipped
	LineFailed   = tell.LineFailed
	LineDropped  = tell.LineDropped
)
