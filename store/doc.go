// Package store is the referee's durable state: one bbolt file. It and its
// file's layout (store/layout) are the only packages that import bbolt.
//
// It owns the file: the buckets and their encodings, the schema and its
// migrations, the transactions (one per input, grouped commits,
// speculations), the write figures (WriteStats), and the few rules that
// let a transport's or a sender's bookkeeping share an input's commit
// (rides, fresh items). It must not know what a game, a mail or a player
// is: records are opaque bytes, and it reads no clock, no network and no
// randomness. Its values' compression is store/codec's; the reading of
// its file page by page and the trim of its mapping store/pagefile's; the
// file below its API (opening, schema version, the migrations that read
// no record, where each bucket is kept, blobs) store/layout's; the order
// of its group commit store/group's.
//
// # Buckets
//
// Every bucket, its keys and its values (values are JSON unless noted).
// From schema 11 (store/layout/schema10.go) the top level holds meta, inbound,
// log.flat, queue.outbox, done.outbox, wake, games.snap, cursors,
// attempts (the buckets a move, a delivery and an intake write) and
// "rest", a bucket whose sub-buckets are every other bucket below, by the
// same names: the top level is one leaf, and a move writes one page of
// headers where it wrote three. Every access to a bucket by name goes
// through bucketOf or createBucket, which find it where the layout keeps
// it.
//
//	meta          "schema_version" -> decimal text
//	games         game id -> the referee's game record (opaque JSON bytes),
//	              or from schema 6 a version and a Fossil delta against
//	              the game's snapshot, or a version alone when the record
//	              is the snapshot (writepath.go); from 2026-12-06 also
//	              0x03, a version and the delta compressed (no schema
//	              change: both forms read); from 2026-12-07 0x04 alone:
//	              the value (any of those forms) is in log.flat under
//	              the game + 0x00 + 0xFF (writepath.go, no schema change:
//	              a value still in games is read there, moved by the
//	              game's next put)
//	games.snap    game id -> the game's snapshot: a whole record (schema 6;
//	              a blob from schema 7), or 0x03 and the record
//	              compressed (store/codec; a whole record starts with '{')
//	games.head    game id -> GameIndex: status, organiser, seat addresses
//	              (gameindex.go, schema 6); with games.by_status,
//	              games.by_address, games.by_org (value NUL game id ->
//	              empty), games.count (status -> 8-byte count; a
//	              transaction's changes written once as it commits,
//	              gameindex.go flushCounts) and
//	              games.joinable (game id -> empty: the games a player
//	              may JOIN; their count in meta "games_joinable"; meta
//	              "game_index" "2" from 2026-12-07, the indexes rebuilt
//	              once where it is "1")
//	log.flat      game id + 0x00 + sequence (8-byte big-endian, from 1)
//	              -> log entry (opaque JSON bytes); append-only, every
//	              game in one bucket (schema 8, flatlog.go; up to schema 7
//	              "log" held a nested bucket per game); and after a
//	              game's entries, game id + 0x00 + 0xFE -> its key in
//	              wake, and game id + 0x00 + 0xFF -> the game's record
//	              value (see games; both from 2026-12-07: "Trees a move
//	              writes" below)
//	inbound       de-duplication key -> InboundRecord (up to 2026-12-05;
//	              still read); and from schema 8 0x00 "v:" VERP bounce id
//	              -> VERPRecord: the outgoing mail (recipient, Message-ID,
//	              time) a bounce to that id may concern (flatlog.go;
//	              de-duplication keys never start with NUL); and from
//	              2026-12-06 0x00 "v:" + the key's cluster + '~' + key ->
//	              the InboundRecord, compact (see "Key layout" below)
//	meta          also "secret:" + name -> a secret key the caller made
//	              (DB.SecretKey; "secret:verp": the VERP ids' MAC key)
//	queue.outbox  id (8-byte big-endian) -> Item's row: mails to send, and
//	              from 2026-12-07 those retired ("A mail's rows" below;
//	              store/rowform's form, JSON before, still read)
//	queue.hooks   id (8-byte big-endian) -> Item's row: webhook calls
//	body.<queue>  up to schema 8: id -> the item's payload, raw bytes,
//	              written once (schema 6; the rows above then hold the
//	              delivery state only; a blob from schema 7), now in
//	              queue.<queue>
//	done.<queue>  id -> Item: delivered or permanently failed items, kept
//	              until Item.KeepUntil (up to 2026-12-07; read, pruned)
//	due.<queue>   up to schema 7 the due index (below), now in queue.<queue>
//	queue.<queue> also id + "p" -> the item's payload, raw bytes, written
//	              once, kept when the item retires, deleted when it is
//	              pruned (schema 9, layout/schema9.go; a blob when large), or
//	              id + "z" -> the payload compressed, when that is
//	              smaller (store/codec; written from 2026-12-06, no
//	              schema change: a payload is read under either key); and
//	              the live items by due time (schema 3; in the queue's
//	              bucket from schema 8, after every item id: flatlog.go):
//	              0xFE + 8-byte big-endian unix nanoseconds and 8-byte id,
//	              each with its bits inverted -> empty (latest due first:
//	              next to the newest rows, queue.go), and, as an older
//	              store wrote them, 0xFF + 8-byte big-endian unix
//	              nanoseconds + 8-byte id; read merged, earliest first
//	players       lower-cased address -> the referee's player record (opaque)
//	organisers    lower-cased address -> the referee's organiser record
//	              (opaque: the language of their last mail; made by the
//	              first write, organisers.go)
//	tokens        secret -> Token (who a secret authenticates); and NUL +
//	              kind + NUL + secret -> empty: the index by kind (schema
//	              9, store/layout/schema9.go) of every kind but "seat"
//	              (players.go unindexedKind; TestTokensByKind)
//	cursors       mailbox key -> Cursor (IMAP UIDVALIDITY, last UID, and the
//	              hand-overs presumed begun of the next message)
//	rulesets      SHA-256 hex -> ruleset data file (raw bytes)
//	wake          8-byte big-endian unix nanoseconds + game id -> empty:
//	              when a game needs attention (deadline, reminder); and
//	              0xFF + game id -> its key in wake (schema 9, layout/schema9.go;
//	              up to schema 8 in "wake.by"; from 2026-12-07 in log.flat,
//	              still read here and moved by the game's next change);
//	              from 2026-12-07 (no schema change) a time key is live
//	              only while its game's key names it: a change leaves the
//	              old one, stale (wake.go, "Stale wake-up keys" below)
//	quarantine    sequence (8-byte big-endian) -> Quarantined: inputs that
//	              can never be processed, kept for the operator (schema 2)
//	tournaments   tournament id -> the tournament record (opaque, schema 4)
//	tournaments.by_game
//	              game id -> the tournament it is played for (schema 4)
//	tournaments.matches
//	              tournament id NUL round (4-byte big-endian) match
//	              (4-byte big-endian) -> one match's record (opaque), not
//	              yet folded into the tournament's record (tourmatch.go;
//	              made by the first write, no schema change: a store
//	              without it has none)
//	ratings       game name NUL lower-cased address -> rating (opaque,
//	              schema 4)
//	attempts      intake key (e.g. "imap:<account>/<mailbox>/<validity>/<uid>")
//	              -> 8-byte big-endian count: hand-overs begun and not yet
//	              finished, so that a message that kills the process is
//	              recognised after the restart (schema 5); from 2026-12-07
//	              a key <stem>/<n> in its stem's row: 0x00 + the stem ->
//	              rowform.Attempts (intake.go)
//	replay        webhook one-time token -> 8-byte big-endian expiry (unix
//	              nanoseconds) + the Message-ID it came with (schema 5)
//	verp          up to schema 7: the VERP ids, now in inbound
//
// # Key layout
//
// A key that a move writes sorts next to the other keys the same move
// writes, or next to the key its game wrote last, never at a place drawn
// at random (a hash, a mailer's Message-ID): bbolt writes every leaf a
// commit touched and the branches above it, so each key at its own place
// costs a leaf and a branch or two (issue 25, BenchmarkWritePerMove).
// log.flat's keys are the game then its sequence; a queue's are its
// sequence; inbound's (from 2026-12-06, no schema change) are clustered by
// input:
//
//   - An input's record is kept under 0x00 "v:" + its cluster + '~' + its
//     key, where the cluster is 16 hex digits of the SHA-256 of the key
//     (InputCluster), once per key of the input.
//   - The VERP id of a mail the input queued (mailmsg.BounceID) is the
//     input's cluster (of its first key) followed by 16 hex digits of an
//     HMAC-SHA256 of the mail's Message-ID under the store's secret key
//     "secret:verp": its VERPRecord (0x00 "v:" + id) sorts in the same run
//     as the input's record, so a move writes one leaf of inbound. A mail
//     queued by no input (a deadline, a tournament's clock) has 10 hex
//     digits of the unix second instead of a cluster: the ids of a tick
//     are together and after the older ones.
//   - The ordered part is public (a cluster is a hash of a key that the
//     sender knows); the MAC part is what makes an id unguessable, and an
//     id is what authenticates a bounce or an auto-reply for the address
//     the mail went to (no seat secret needed). The ids before 2026-12-06
//     were the start of the SHA-256 of a predictable Message-ID: guessable.
//   - Old forms stay found: Seen looks each key up in the new form, then
//     under the key alone (the record of an older store), so a mail seen
//     before the change is a duplicate after it; MarkInbound fails for a
//     key in either form. An old VERP id (16 hex digits, no cluster) is
//     looked up whole like a new one. PruneInbound takes inputs' records
//     of both forms, PruneVERP the VERP ids of both (a key with '~' after
//     a cluster is an input's, never a VERP id's: ids are [a-z0-9]).
//   - A record is stored compact: JSON without HTML escapes, without its
//     keys when it has the one it is stored under, compressed (0x01 +
//     DEFLATE) when that is smaller; an older record is JSON with every
//     key, '{' first. bbolt never splits a leaf of four entries, and
//     four records of 250-300 bytes made every leaf of inbound two pages.
//   - inbound's leaves split full (FillPercent 0.95), as log.flat's
//     (until the short keys below, digests at random places: halves
//     since, inboundFill).
//   - From 2026-12-07 (no schema change) the keys are short (intake.go,
//     "The short keys"): an input's record under 0x00 'w' + the first 16
//     bytes of the SHA-256 of its key (its cluster raw, 0x00, the next 8:
//     19 bytes; the record holds its keys), a VERP id of lower-case hex
//     under 0x00 'w' + its bytes (18 bytes for a mailmsg.BounceID), in
//     its input's run as before. A branch of 1 KiB holds a child per 35
//     bytes where it held one per 60-66 (keys of 45-50 bytes). Seen and
//     VERP look the short key up first, then the forms above; the records
//     of the older forms leave with PruneInbound and PruneVERP.
//   - From 2026-12-07 (issue 24, no schema change) an input is recorded
//     once: its record under its first key's short key, and under each
//     other key's short key only that first short key (19 bytes, 0x00
//     first: a record starts with '{' or 0x01; intake.go inboundPointer),
//     where every key held a copy of the record (150-300 bytes). Seen
//     follows a pointer one step and checks the record holds the key
//     looked up; a record under each key (the form before) reads as
//     before. PruneInbound takes a pointer with its record, and one whose
//     record is gone (TestInboundRecordedOnce_Issue24,
//     TestInboundFormsOldAndNew_Issue25).
//   - From then too, a numbered key (<stem>/<n>, store/rowform.Split: an
//     IMAP message's, "imap:<account>/<mailbox>/<uidvalidity>/<uid>") is
//     under 0x00 'w' + 8 bytes of the SHA-256 of its stem + 0x01 + n (8
//     bytes big-endian), in UID order; Seen looks it up there, then in
//     the digest form. Later that day (issue 24, no schema change) such a
//     key has no pointer when its input has a key that is not numbered
//     (its Message-ID): one place of inbound a mail, where two wrote a
//     leaf and its branches each (why nothing is lost or applied twice:
//     inboundform.Unindexed; store/history.md).
//
// A blob (schema 7, store/layout/blob.go) is a value of 1 KiB or more
// kept alone: a nested bucket under its key whose only entry (key 0x00)
// is the value. Reads take a plain value or a blob.
//
// A tournament's clock shares the wake index under the key "t:<id>" (game
// ids never hold a colon).
//
// A tournament is its record overlaid with its match records (issues 24
// and 25: a game's end used to rewrite the whole record, every entrant,
// round and match, the largest write of a move at 1,000 entrants and
// more). The caller writes a change of its matches alone as match records
// (PutTournamentMatch: a game's result, an adjudication, a forfeit, a
// correction) and reads them with the record (TournamentMatches); a whole
// record (PutTournament) holds them, and deletes the tournament's match
// records in the same transaction (the fold).
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
// groups (store/group), one fsync for several inputs; a group that gathered while
// another was written is written by a goroutine of the store's own, whose
// CPU time no caller's thread sees (DB.MeasureGroupCPU counts it: the
// bench's group_cpu_ms). That goroutine starts at once (issue 25, the
// group commit's hand-over): the caller that led the group before wakes
// its group's callers, then yields to it (runtime.Gosched), so that the
// next group is not written only when that caller next blocks, up to a
// time slice later while it renders its next mail
// (TestNextGroupStartsBeforeTheLeaderGoesOn_Issue25). Every read is tracked, and Tx is
// the type that enforces it: each of its methods either records what it
// read (checked at the commit), or is a write the speculation keeps and
// replays, or makes the speculation wide (it never commits); a new method
// is classified in TestEveryReadIsTracked or that test fails. The callers'
// decoded game records are kept here too (decoded.go: TakeDecoded,
// KeepDecoded), valid for the version they were written as only, and so
// are the tournaments of a round opening in batches (tournament.go:
// TakeDecodedTournament, KeepDecodedTournament: valid for the whole
// record and the match records they were kept with, the latter by a
// digest; a speculation goes wide on them, as on every tournament record),
// and the tournaments the public pages read (tourpages.go: PageTournament,
// KeepPageTournament: valid likewise, but shared by every page read while
// they stay valid, never taken out nor changed; at most PageTournaments).
//
// Rules of the write path (issue 25: one write transaction per player mail
// at intake, one per delivery):
//
//   - A transport's bookkeeping of an input rides in the input's commit:
//     DB.Ride registers writes under one of the input's de-duplication
//     keys, and the transaction that records the input (MarkInbound with
//     that key) runs them, whoever commits it (ride.go). Ride.Done says
//     whether they were committed; when not, the transport writes them
//     itself. The IMAP watcher ends the intake attempt and moves its
//     cursor so, the webhook ends its attempt so.
//   - A hand-over may be presumed begun by the commit before it, never
//     after it: a Cursor's Armed count is a hand-over on record before it
//     starts, and BeginAttemptFrom counts it when the watcher cannot use
//     it (after a restart). A message that kills the process is counted
//     either way. The IMAP watcher also presumes ahead: a look's commit
//     begins the attempts of the next UIDs, which have no mail yet
//     (referee/edge/imapin, "Rolling in"), so that mail rolled in later
//     needs no commit before its hand-over.
//   - Groups form only from inputs in flight together: a transport that
//     hands its inputs over one after the other pays one fsync each. The
//     IMAP watcher hands a fetch's mails from different senders over at
//     once (imapin "Lanes"), so their commits share transactions; each
//     ride may then move the cursor past its own message and the later
//     ones whose rides are committed or in the same transaction
//     (Ride.Committed), never past a message whose record is not
//     committed.
//   - A queued item's first attempt is presumed only in the process that
//     enqueued it (DB.TakeFresh: an in-memory set, empty after a restart,
//     holding an item from its Enqueue on; TestFreshFromItsFirstSight_Issue25)
//     and recorded with its outcome, in one commit; every other attempt is
//     on record before its I/O. So a crash during a delivery loses
//     nothing, and a delivery that kills the process is retried with
//     backoff, never hot-looped.
//   - A write that need not be durable at once rides in the next commit
//     (DB.GroupLater: a delivery's outcome in the intake's commit of the
//     next mail): it starts no commit of its own, and is written
//     LaterWithin (20 ms) after it came when no other commit took it, or
//     at once on DB.Hurry. Its caller bounds what a crash loses meanwhile
//     (referee/edge/dispatch: the items whose outcomes wait stay in its
//     in-flight set, which is bounded; TestLaterRidesInTheNextCommit_Issue25).
//   - A commit that queued items wakes their sender itself (DB.OnQueued,
//     queue.go): once a commit, on the goroutine that wrote it, once it is
//     durable, never for one rolled back; not once the caller that queued
//     the item is woken (TestOnQueuedOnceACommitAfterItIsDurable_Issue25,
//     TestOnQueuedOnceAGroup_Issue25).
//
// # Compression
//
// Which values are compressed (a queued payload, a game's delta and
// snapshot, a log entry, an inbound record, when that is smaller and
// the value is SmallValue bytes or more), where and when (once, when put,
// out of the write transaction where it can be: PackBody, PackBodies,
// a speculation's puts; inflated only where its bytes are read), and the
// codec's forms and dictionaries: store/codec, its doc.go. The prefix
// that says a value's form is the store's (writepath.go, intake.go).
//
// # What a write costs
//
// bbolt copies on write: a commit writes every leaf it changed, the
// branches above them, and a meta page (the free list is not written:
// Close writes it once, and Open reads it, or after a crash rebuilds it
// by walking the file: layout/freelist.go). DB.WriteStats counts those bytes (DiskBytes) and the log
// entries and queue rows the commits added (DataBytes). A move writes an
// append to its game's log, a delta of its game's record, its mails once
// and their rows; the indexes only when what they hold changed. bbolt
// never splits a leaf of four entries or fewer, so a large value is kept
// alone (a blob): writing it writes its own pages, not its neighbours'.
// What is left is a page or two for each bucket a commit touches (a leaf
// and the branch above it): the cost of a move is counted in buckets, and
// a new bucket on the path of a move must pay for itself.
//
// So (schema 8, issue 25): what a move adds goes into a bucket it writes
// anyway, under a prefix that keeps it apart and sorted together, rather
// than into a small bucket of its own: the log is one flat bucket for
// every game (not a bucket per game), the VERP ids live in inbound, each
// queue's due index lives in the queue's bucket, and from schema 9 so do
// its payloads, and a game's wake-up key lives in wake. A move of the
// referee now touches four buckets (inbound, log.flat, queue.outbox,
// wake; and games.snap when the record is rewritten: from 2026-12-07 a
// game's record value and its wake-up key live in log.flat); DB.BucketRoots
// and Touched name them (BenchmarkWritePerMove reports them per move). A
// reader of a shared bucket takes its own keys only (by prefix or length).
//
// From 2026-12-06 (no schema change, every older form still read):
//
//   - A value of text is kept compressed when that is smaller (store/codec,
//     DEFLATE): a queued mail's payload (key id + "z"), a game's snapshot
//     and its delta. A mail of 3.7 KB is kept in about 600 bytes, inline
//     in the leaf of its row, not in four pages of its own; a snapshot of
//     tens of KB in a few pages. DataBytes counts the data uncompressed.
//   - A game's delta is kept while it is stored in a page or less, then
//     the record becomes the snapshot (writepath.go, measured).
//   - A queued item is indexed by latest due (0xFE, queue.go), by its row.
//   - log.flat's leaves split full (FillPercent 0.95): a game's entries
//     arrive in order. An entry is kept compressed when that is smaller
//     (the form of a snapshot: 0x03 first; an entry kept whole is JSON).
//   - The last snapshots inflated are kept with the bytes they came from
//     (snapcache.go), so a move's delta no longer inflates its game's
//     snapshot, and a read of the record neither, while those bytes are
//     the stored ones. A snapshot put is kept as the record the caller
//     gave and the stored form the put made, neither copied: a record
//     put is the store's, its caller does not change it (PutGame; issue
//     24, TestSnapshotKeptWithoutCopies_Issue24).
//
// The cost of a page is its size, not what changed in it: a new store is
// made with pages of 1 KiB (NewPageSize, store/pagefile/pagesize.go),
// which writes a quarter of what the OS page of 4 KiB wrote for every
// touched leaf, branch and meta page, and rounds a large value up to 1 KiB, not 4 KiB
// (BenchmarkWritePerMove: disk/data 7.4-11.0 at 4 KiB, 3.8-5.6 at 1 KiB).
// A move costs pages by the depth of the trees it touches (a leaf and
// every branch above it), not by its bytes. A wake-up set again
// unchanged writes nothing (TestSetWakeUnchangedWritesNothing_Issue25: a
// game with a deadline, a move of a seat whose clock does not change).
// The figures, measured page by page: store/history.md.
//
// # Trees a move writes
//
// The rule (2026-12-07, issue 25): what a move writes for its game goes
// into the one tree its log entries go to, next to them. A key a move
// writes in a tree of its own costs that tree's depth in branches, a leaf,
// and often a leaf of the bucket headers; a key beside the game's newest
// entries costs nothing more than its bytes, in the leaf the append writes
// anyway. So, no schema change, every older form still read:
//
//   - A game's record value (its delta, or the marker of its snapshot,
//     or a small record whole) is in log.flat under the game + 0x00 +
//     0xFF, after its entries; "games" keeps the one byte 0x04 for the
//     game, written at its first put and never again (writepath.go). A
//     value still in "games" (an older store) is read there and moved by
//     the game's next put. A move writes no page of games
//     (TestMoveWritesNoGamesTree_Issue25, TestScalePagesPerMove_Issue25),
//     and its bucket header's leaf no more.
//   - A game's wake-up key (the key of its time in "wake") is in log.flat
//     under the game + 0x00 + 0xFE (wake.go); a change of the wake-up
//     writes in "wake" its old and its new time key only, where the entry
//     0xFF + game (still read, moved at the game's next change) was a
//     third leaf (TestWakeKeptBesideTheLog_Issue25).
//   - log.flat's readers take a game's entries by the key's length (the
//     prefix + 8 bytes); the two marks are one byte after the NUL, and a
//     sequence's first byte is never 0xFE or 0xFF.
//
// Measured: store/history.md.
//
// # The headers, the queue's leaves, inbound's keys
//
// Three cuts (2026-12-07, issue 25), each where the last page-by-page
// reading put the pages of a move:
//
//   - The top-level tree is one leaf (schema 11, layout/schema10.go): it held
//     27 headers in five leaves under a branch, and a move's four
//     buckets' headers were in two of them (three pages a move). Every
//     bucket no frequent commit writes is in "rest"; a move writes one
//     page of headers (TestMoveWritesOneLeafOfHeaders_Issue25). The
//     migration is two steps in two commits: every bucket but meta into
//     rest (the top level, left with two, is merged into one leaf), then
//     the top buckets back (bbolt's MoveBucket moves a bucket as last
//     committed: migrations now commit one by one, each with its version).
//   - A queue's leaves split full (queueFill 0.95, queue.go): items come
//     in id order at the end of the rows; a leaf split in halves was
//     split again by the next move (TestQueueLeavesSplitFull_Issue25:
//     leaves 68% full, 48% split in halves).
//   - inbound's keys are short (above, "Key layout";
//     TestInboundFormsOldAndNew_Issue25).
//
// Measured: store/history.md.
//
// # Stale wake-up keys
//
// A change of a game's wake-up (later, earlier, or none) leaves its old
// time key in "wake" (2026-12-07, issue 25, no schema change: its delete
// wrote the old key's leaf of wake and the branches above it, where the
// move writes the new key's leaf only). The key beside the game's log
// (above) says which time key is live; any other key of the game in
// "wake" is stale:
//
//   - DueWakes returns the games of live keys only, in order; NextWake
//     the first live key's time, looking past at most StaleSkip stale
//     keys (past those, the next key's time: a tick then, early, finds
//     no game due and drops them). Wake reads the key beside the log.
//   - DropStaleWakes deletes the stale keys at or before a time; a
//     transaction that called DropStaleWakesAtCommit runs it as it
//     commits, after its other writes. Each transaction of referee.Tick
//     does, after its games' new wake-ups, so that their due keys leave
//     in the leaf the tick writes anyway; a tick with no game due drops
//     them in a transaction of its own only once StaleSkip stale keys
//     are due (TickWakes says so), so they cost no commit until then.
//   - A key of the older form (0xFF + the game in "wake", or a store
//     without log.flat) is deleted at once, as before; so is any key of
//     a "wake" of one leaf as last committed (its root a leaf, or
//     inline: a small store), which the new key's put writes anyway and
//     which stale keys would make a tree, a branch more a move
//     (TestSmallWakeKeepsNoStaleKeys_Issue25; BenchmarkWritePerMove writes the bytes it wrote before, exactly:
//     13,312 / 11,264 / 9,216 / 14,336 B a move; the wake of referee
//     bench's mail run is one leaf too).
//   - A game set back to a time it had makes that key live again; a
//     stale key waits for its time, so "wake" holds the live keys and
//     the stale ones not yet due: a game's moves between two ticks.
//
// Proved against a reference (TestStaleWakeKeysLeftForTheTick_Issue25:
// moves later, earlier, back, unchanged, before 1970, none, by updates
// and speculations, rolled back; ticks; crashes; every key of "wake",
// DueWakes, NextWake and StaleWakes after each step;
// TestNextWakeLooksPastStaleSkip_Issue25 for the bound) and through the
// referee's tick (TestTickWakesByTheLiveKeyAndDropsStale_Issue25); a
// move writes one leaf of wake (TestWakeKeptBesideTheLog_Issue25: 25
// failures with the old delete). Measured: store/history.md.
//
// Rule (issue 25: the ticker's questions read nothing): the stale keys are
// also kept in memory, a set kept by the commits of Update and Commit in
// their order (wakeset.go); DueWakes, NextWake, StaleWakes and TickWakes
// use it when it is of the state their transaction reads, else read the
// key beside the game's log (BenchmarkTickKick, 20,000 games: 1,538 ->
// 6 cursors a kick; TestStaleSetTakesCommitsInOrder_Issue25,
// TestStaleSetNotUsedForAnOlderSnapshot_Issue25). Open reads no key of
// "wake": the set is built by the first read transaction that asks (the
// first tick; again after a drop), and the commits handed over while it
// reads wait for it; a reader of a state older than a commit handed over
// builds nothing (TestStaleSetBuiltWhileCommitsHandOver_Issue25).
// BenchmarkOpenWithWakes (100,000 games): 218,006 -> 4 cursors an Open.
//
// # Where a player mail's pages go
//
// DB.StartPageCensus counts the pages every commit writes, per top-level
// bucket and kind (store/pagefile: its doc.go has the census's figures).
//
// # A mail's rows
//
// The rule (2026-12-07, issue 24: the store's bytes a mail under 20 KiB):
// a mail's bookkeeping rows are small and go where its commit writes
// anyway; every older form still read, and schema 12 (a migration that
// moves nothing: store/layout/schema12.go) so that a referee built before
// these forms refuses the file at Open instead of failing at a row
// (TestBinaryRowsRefusedByAnOlderReferee_Issue24):
//
//   - A delivery retires its item in place: Finish rewrites its row in
//     queue.<queue>, where it moved it into done.<queue> (a leaf and its
//     branches a delivery; now an older store's, read and pruned, never
//     written); an attempt or retry indexes it as an enqueue does (0xFE).
//     A row is store/rowform's binary form, 140-170 bytes (its JSON was
//     450-480): the leaf a commit appends its mails to holds the rows
//     retired since (TestRetiredInPlaceAgainstAModel_Issue24).
//   - A mailbox's intake attempts are one row: the IMAP watcher's UIDs
//     presumed ahead (20) were a row each, 45-50 bytes of key, two or
//     three leaves under a branch; their row is 40-100 bytes and
//     "attempts" stays inline in the top-level leaf, which every commit
//     writes (TestMailCommitWritesNoDoneNorAttemptsPages_Issue24,
//     TestAttemptsAgainstAModel_Issue24).
//
// Measured (referee bench --sizes none, bytes exact, 630 player mails;
// 4 + 4 runs alternated, load 40, medians): 23,893 -> 19,791 B a mail at
// 0.79 commits a mail; with --pages 23.3 -> 18.9 pages (done.outbox 2.45
// -> 0, attempts 1.96 -> 0, queue.outbox 7.11 -> 7.27: its tree holds the
// retired rows, a level deeper). A commit costs ~7.3 KB more a mail per
// commit a mail (meta, the top leaf, its trees' paths): 20,751 B at 0.92.
//
// # The top level kept one leaf
//
// Inline buckets (up to a quarter of a page) split a new store's top
// leaf, and bbolt merges leaves only after a delete: a commit wrote 2.9
// pages of headers for one. So (no schema change) a commit that finds the
// top level a branch whose headers fit in 7/8 of a page is followed by
// the merge of the migrations to schema 11, two commits (headers.go; a
// crash between them leaves the top buckets in rest, found by bucketOf
// and by Open, and the next commit moves them back). The check costs a
// commit a look at the root page (issue 25: it walked rest's headers),
// and a commit takes the census's mutex only while a census runs
// (TestTopLevelMergedBackIntoOneLeaf_Issue25,
// TestCommitTakesTheCensusLockOnlyWhenOne_Issue25; BenchmarkSmallCommit:
// 7 -> 5 cursors, 80 -> 71 allocations a commit).
//
// The page size is the file's, fixed when it is made: a store made with
// pages of 4 KiB keeps them and works as before; Compact rewrites it with
// pages of NewPageSize.
//
// # Memory
//
// What the store promises about the process's memory (issue 25: 100,000
// live games served under 300 MB):
//
//   - The file is read through bbolt's one read-only shared mapping; on
//     Linux the store keeps the process's resident share of it under
//     Options.MappedLimit (default DefaultMappedLimit) by dropping the
//     mapping's pages after a transaction (mapping.go, store/pagefile:
//     its doc.go, "Memory").
//   - The free list is read from the file at Open, not rebuilt by walking
//     every page, unless the process before crashed (layout/freelist.go).
//   - The heap holds bounded caches only: the last snapshots inflated
//     (snapcache.go, store/kept) and the decoded records the callers keep
//     (decoded.go, store/kept), each of a fixed number of entries; no
//     read keeps a whole bucket in memory.
//
// Bytes returned by a Tx are copies and stay valid after the transaction.
package store
