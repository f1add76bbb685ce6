// Package ledger is the part of the core's API that reads or writes the
// store's own books and no record of the core: the counts the metrics
// export (queues, games by status from the store's counters), a queue's
// size, the benchmark echo's raw reply queued with its input marked as
// processed, and the webhook's one-time replay tokens; and the outbox
// contract (the queues' names and the envelope sender's Meta key) that
// the core, the senders and the echo share.
//
// The core embeds Queries in the Referee (referee.Referee.Counts, ...)
// and re-exports the names (referee.Counts, referee.RawReply,
// referee.OutboxQueue, ...), so that the edges, the wiring and the tools
// ask the core as before.
//
// It owns these store-only answers, each one transaction. It must not
// decode a game, seat, player or log record (package referee/records and
// the core do), decide anything about a game, or render a word.
package ledger
