package tell

import "github.com/pbem-referee/referee/engine"

// Reply is the answer to a seat's own message: the fate of each line, and
// the answers to informational commands. The apply stage writes it (the
// core's seatMail); the tell stage echoes it.
type Reply struct {
	Rejected bool
	Stale    bool
	Lines    []ReplyLine
	Info     []string
	// Read is the note on how the mail was read (quote, signature left
	// out), also in Info: it asks nothing, so a receipt with it may wait
	// (receipts.go).
	Read string
}

// ReplyLine is one line of the echo.
type ReplyLine struct {
	Status LineStatus
	Text   string
	Cmds   []string
	Errors []*engine.RuleError
}

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
