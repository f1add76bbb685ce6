package referee

import "github.com/pbem-referee/referee/engine"

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

// LineStatus is what became of one line of a player's mail (a reply line):
// the engine's result for an order, or the referee's for its own commands.
type LineStatus string

const (
	// LineDone: a referee command, carried out.
	LineDone LineStatus = "done"
	// LineRejected: refused; the line's errors say why.
	LineRejected LineStatus = "rejected"
	// The engine's results (engine.Table.Submit): the engine's one
	// vocabulary of line outcomes (engine/outcome.go), word for word.
	LineApplied  LineStatus = LineStatus(engine.OutcomeApplied)
	LineAgreed   LineStatus = LineStatus(engine.OutcomeAgreed)
	LinePartial  LineStatus = LineStatus(engine.OutcomePartial)
	LineQueued   LineStatus = LineStatus(engine.OutcomeQueued)
	LineSealed   LineStatus = LineStatus(engine.OutcomeSealed)
	LineElsePass LineStatus = LineStatus(engine.OutcomeElsePass)
	LineHalted   LineStatus = LineStatus(engine.OutcomeHalted)
	LineSkipped  LineStatus = LineStatus(engine.OutcomeSkipped)
	LineFailed   LineStatus = LineStatus(engine.OutcomeFailed)
	LineDropped  LineStatus = LineStatus(engine.OutcomeDropped)
)
