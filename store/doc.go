// Package store is the referee's durable state: one bbolt file. It is the
// only package that imports bbolt.
//
// # Buckets
//
// Every bucket, its keys and its values (values are JSON unless noted):
//
//	meta          "schema_version" -> decimal text
//	games         game id -> the referee's game record (opaque JSON bytes)
//	log           nested bucket per game id: sequence (8-byte big-endian,
//	              from 1) -> log entry (opaque JSON bytes); append-only
//	inbound       de-duplication key -> InboundRecord
//	queue.outbox  id (8-byte big-endian) -> Item: mails waiting to be sent
//	queue.hooks   id (8-byte big-endian) -> Item: outgoing webhook calls
//	done.<queue>  id -> Item: delivered or permanently failed items, kept
//	              until Item.KeepUntil
//	due.<queue>   8-byte big-endian unix nanoseconds + 8-byte id -> empty:
//	              the live items by due time (schema 3)
//	players       lower-cased address -> the referee's player record (opaque)
//	tokens        secret -> Token (who a secret authenticates)
//	cursors       mailbox key -> Cursor (IMAP UIDVALIDITY and last UID)
//	rulesets      SHA-256 hex -> ruleset data file (raw bytes)
//	wake          8-byte big-endian unix nanoseconds + game id -> empty:
//	              when a game needs attention (deadline, reminder)
//	wake.by       game id -> its key in wake
//	quarantine    sequence (8-byte big-endian) -> Quarantined: inputs that
//	              can never be processed, kept for the operator (schema 2)
//	tournaments   tournament id -> the tournament record (opaque, schema 4)
//	tournaments.by_game
//	              game id -> the tournament it is played for (schema 4)
//	ratings       game name NUL lower-cased address -> rating (opaque,
//	              schema 4)
//	attempts      intake key (e.g. "imap:<account>/<mailbox>/<validity>/<uid>")
//	              -> 8-byte big-endian count: hand-overs begun and not yet
//	              finished, so that a message that kills the process is
//	              recognised after the restart (schema 5)
//	replay        webhook one-time token -> 8-byte big-endian expiry (unix
//	              nanoseconds) + the Message-ID it came with (schema 5)
//	verp          VERP bounce id -> VERPRecord: the outgoing mail (recipient,
//	              Message-ID, time) a bounce to that id may concern (schema 5)
//
// A tournament's clock shares the wake index under the key "t:<id>" (game
// ids never hold a colon).
//
// # Transactions
//
// The referee processes each input (a mail, a webhook call, a deadline) in
// exactly one write transaction (DB.Update): the de-duplication record, the
// new game state, the log entries and the outbox rows are committed together
// or not at all. Network I/O never happens inside a transaction.
//
// A speculation (spec.go: DB.Speculate, DB.Commit) does the work of an
// input on a snapshot, outside the write lock, and still writes it in one
// write transaction: only if nothing it read has changed, else not at all
// (ErrConflict). Speculations that wait for the lock are committed in
// groups, one fsync for several inputs.
//
// Bytes returned by a Tx are copies and stay valid after the transaction.
package store
