// Package spec runs the core's units of work tentatively: on a snapshot
// of the store first (a speculation, Speculate), or again without a step
// that failed after it changed something (Redo). Either run can be
// dropped, so it owns the referee's memory that a run touches besides the
// store: the random source, whose bytes a dropped run gives back to be
// drawn again (Random, Tape), and the rate limiters, which a speculation
// only looks at, noting each decision, and which count them only when its
// commit holds the write lock (Limiter, View.Count).
//
// Speculation (issue 13.3: the templates and the MIME composition out of
// the write lock). A seat's request is first processed on a snapshot of
// the store (store.DB.Speculate: a read transaction, which does not block
// the other games), with everything the unit of work does: apply, tell
// (the mail view renders) and compose. Then one write transaction commits
// its writes if nothing it read has changed since (store.DB.Commit); when
// something did, or the work touched what a speculation cannot check
// (ErrWide), it is done again the usual way, in the write transaction.
// Either way the input is applied once: the speculation writes nothing
// until its commit, which is the same single transaction as before (game,
// log, outbox and de-duplication record together). Kept after the lean
// write path (issue 25), measured: four games moving at once with fsync
// (BenchmarkProcessMoveConcurrent) take 6.1-6.6 ms a move speculative
// against 9.7-10.8 ms locked, the same allocations; the store enforces
// its rule (every read tracked: store.Tx, checked by store's
// TestEveryReadIsTracked).
//
// All or none (issue 25: a START that failed midway left 14 games running
// and the tournament still in sign-up). bbolt has no savepoints, so a unit
// of work cannot take back half of itself: instead, an operation that
// fails after it changed something returns an Undoer (its Undone names
// the operation), the whole transaction rolls back, and Redo runs the
// unit of work again from the start with that operation marked undone:
// this time it answers with the failure and changes nothing. The other commands of the mail run again as
// they ran (the random bytes drawn are read again, the clock is the
// same), so their effects are committed once.
//
// It must not know what a unit of work does (the core's work is a
// function it is given), decide anything about a game or a mail, or
// write to the store but through store.DB.Commit.
package spec
