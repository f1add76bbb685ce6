// Package store is the referee's durable state: one bbolt file. It is the
// only package that imports bbolt.
//
// It owns the file: the buckets and their encodings, the schema and its
// migrations, the transactions (one per input, grouped commits,
// speculations), the write figures (WriteStats), and the few rules that
// let a transport's or a sender's bookkeeping share an input's commit
// (rides, fresh items). It must not know what a game, a mail or a player
// is: records are opaque bytes, and it reads no clock, no network and no
// randomness. Its values' compression is store/codec's; the reading of
// its file page by page and the trim of its mapping store/pagefile's.
//
// # Buckets
//
// Every bucket, its keys and its values (values are JSON unless noted).
// From schema 11 (schema10.go) the top level holds meta, inbound,
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
//	              empty), games.count (status -> 8-byte count) and
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
//	              pruned (schema 9, schema9.go; a blob when large), or
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
//	              9, schema9.go)
//	cursors       mailbox key -> Cursor (IMAP UIDVALIDITY, last UID, and the
//	              hand-overs presumed begun of the next message)
//	rulesets      SHA-256 hex -> ruleset data file (raw bytes)
//	wake          8-byte big-endian unix nanoseconds + game id -> empty:
//	              when a game needs attention (deadline, reminder); and
//	              0xFF + game id -> its key in wake (schema 9, schema9.go;
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
//
// A blob (schema 7, blob.go) is a value of 1 KiB or more kept alone: a
// nested bucket under its key whose only entry (key 0x00) is the value.
// Reads take a plain value or a blob.
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
// groups, one fsync for several inputs; a group that gathered while
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
// by walking the file: freelist.go). DB.WriteStats counts those bytes (DiskBytes) and the log
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
// Measured by BenchmarkWritePerMove (300 moves, disk/data; pages written
// per bucket per move in its log, DB.PageOwners): brewcrafters 4.63 ->
// 3.68, dicebrewing 5.27 -> 4.18, fromage 3.79 -> 2.94, heavenale 5.58
// -> 3.92; a delivery 15.7-16.7 KB -> 14.1-15.1 KB. Then (the key layout
// above, log entries compressed): brewcrafters 3.69 -> 3.15, dicebrewing
// 4.19 -> 3.63, fromage 2.90 -> 2.51, heavenale 3.92 -> 3.44; inbound
// 6.5 -> 3.8 pages a move (dicebrewing: 3.5 leaves, often of two pages,
// and 2.9 branches -> 1.6 and 2.2), log.flat 4.5 -> 4.0. What a move still
// writes (dicebrewing, pages): queue.outbox 6.9 (a mail compresses to
// 1.1-2.3 KB: a blob of two or three pages), log.flat 4.0, the bucket
// headers 4, inbound 3.8, games 1.8, and the meta page.
//
// The cost of a page is its size, not what changed in it: a new store is
// made with pages of 1 KiB (NewPageSize, store/pagefile/pagesize.go),
// which writes a quarter of what the OS page of 4 KiB wrote for every
// touched leaf, branch and meta page, and rounds a large value up to 1 KiB, not 4 KiB
// (BenchmarkWritePerMove: disk/data 7.4-11.0 at 4 KiB, 3.8-5.6 at 1 KiB).
// At scale (referee bench --no-mail --bulk, 1,000 moves, each in a game
// drawn at random, most at their first decision): a move writes 29.1-30.8
// KB for 3.8 KB of log entries and outbox rows at 100,000 live games
// (7.7-8.0x), and 26.6 KB for 4.3 KB at 1,000 games (6.2x); BenchmarkWritePerMove
// (300 moves in a row of one game) 2.5-3.4x. Why, measured page by page
// (2026-12-07, referee bench --pages: every page of the file read before
// and after each timed move, DB.PageReading and pagefile.Written; the pages
// found are all the pages the commits wrote, DiskBytes / page size):
//
//   - The cost of a move is the depth of the trees it touches. A commit
//     writes the leaf it changed and every branch above it, and a page
//     of 1 KiB holds 12-33 children in a branch (16 bytes and the
//     child's first key each; inbound's keys of 45-50 bytes: 7-15). So
//     the trees are 3-5 levels deep from 1,000 games on (log.flat 4,
//     queue.outbox 4-5, inbound 3-5, games 3, wake 2) and a level more
//     only every 15-30 times as many games: the figure is near flat from
//     1,000 to 100,000 games, and it is the depth. Branch pages were 11 of
//     the 26 a move wrote at 1,000 games (bulk: log.flat 3.3, inbound 2.3,
//     games 2.0, queue.outbox 1.6, wake 0.8, the bucket headers' 1), 13
//     of 28 in a store whose 1,000 games the referee made itself (NEW and
//     JOIN inputs: 7.2x; its inbound holds every JOIN, 5 levels, and its
//     outbox every invitation unsent, 5 levels). BenchmarkWritePerMove's
//     store holds a few games: its trees are 1-2 levels deep.
//   - The bucket headers (the tree of the top-level buckets) are 5 leaves
//     of 3-9 headers each: a leaf splits when an inline bucket in it grows
//     and is never merged back (bbolt merges only after a delete). A move
//     touches buckets in three of them: 3 leaves and the branch a move.
//   - A touched leaf is written as 1.5-1.8 pages: entries are a quarter
//     to a third of a page (a log entry compressed, an inbound record, a
//     delta), a leaf holds 2-4 and is mostly full, so the entry a move
//     adds splits it (0.5-0.9 leaves added per bucket a move) or makes it
//     two pages (bbolt never splits a leaf of four entries).
//   - wake: 2.5 pages a move (1.7 leaves): a move holds the next mail of
//     the game (records.Seat.HeldDue), so its wake-up moves every move:
//     its old key, its new key and its entry by game are in three leaves.
//   - BenchmarkWritePerMove's moves write about as many pages (2026-12-07,
//     300 moves: brewcrafters 23.6, dicebrewing 21.7; its trees reach 3
//     levels too: branches of inbound 2.3, log.flat 1.9, queue.outbox
//     2.0) for more data (7.7 and 6.1 KB a move: later decisions, longer
//     entries and mails). What the bench's moves write that those do not
//     is wake (2.5 pages) and the branches of games (2.0: one game's
//     tree there is a leaf); the rest of the difference in the ratio is
//     their data: 4.3 KB a move, most at a game's first decision. A move
//     costs pages by the trees it touches, not by its bytes.
//   - Not the cause: a fresh game's first move (it writes a delta; a
//     snapshot 0.03 times a move), games.snap (0.1 page a move), the free
//     list (not written by a commit), the bulk loader's copies (the
//     store the referee made itself writes more, not less).
//
// So the floor of a move that touches log.flat, games, inbound,
// queue.outbox and wake, one commit each, is the sum of their depths plus
// the header leaves and the meta page: 19-20 pages at 1,000 games, about
// 25 at 100,000, against 15-17 KB for 4x of its data. Tried and left: the
// leaves of log.flat and inbound split at half (bbolt's default) instead
// of full, 1.4% and 0.7% less a move at 1,000 games, and more in a row of
// one game; the tree of the headers filled whole, no change (its leaves
// are not merged). Done: a wake-up set again unchanged writes nothing
// (TestSetWakeUnchangedWritesNothing_Issue25: a game with a deadline, a
// move of a seat whose clock does not change).
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
// Measured (referee bench --no-mail --bulk --sizes 1000 --moves 300
// --pages, pages a move; bytes and pages are exact whatever the load):
// before 24.8 pages, 25,425 B for 4,266 B of data (5.96x); the record
// beside the log 20.6 pages, 21,077 B (4.94x): games 3.8 -> 0, the header
// leaves 3 -> 2, log.flat's leaves 1.87 -> 2.45 (a leaf with the record
// in it is larger); the wake-up key beside it too 19.75 pages, 20,227 B
// (4.74x): wake's leaves 1.68 -> 0.90. At 10,000 games (--moves 100,
// no --pages) 24,227 -> 19,107 B for 3,844 B (6.30x -> 4.97x).
// BenchmarkWritePerMove (150 moves, disk/data; a bucket fewer a move):
// brewcrafters 2.95 -> 2.79, dicebrewing 3.96 -> 3.74, fromage 2.16 ->
// 1.97, heavenale 3.23 -> 3.09. What a move still writes at 1,000
// games: log.flat 5.8 (branches 3.3: 4 levels), queue.outbox 4.8 (a mail
// of two or three pages, branches 1.6), inbound 3.6 (branches 2.15), the
// bucket headers 3, wake 1.6, the meta page. Not done: inbound's keys
// made short (a digest; branches of 20 children where they hold 12:
// a level less only from about 10,000 games), commits that several
// moves share (Group: the branches above their leaves written once).
//
// # The headers, the queue's leaves, inbound's keys
//
// Three cuts (2026-12-07, issue 25), each where the last page-by-page
// reading put the pages of a move:
//
//   - The top-level tree is one leaf (schema 11, schema10.go): it held
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
// Measured (referee bench --no-mail --bulk, bytes a move for the data
// bytes a move, exact whatever the load; pages a move with --pages):
// at 1,000 games (--moves 300 --pages) 20,097 B, 19.63 pages for 4,266 B
// (4.71x) before; the headers one leaf 18,094 B, 17.67 pages (4.24x:
// headers 3 -> 1); the queue's leaves full 17,742 B, 17.33 pages (4.16x:
// queue.outbox leaves 1.74 -> 1.47, splits 0.95 -> 0.68 a move); inbound's
// keys short 17,547-17,578 B, 17.14-17.17 pages (4.11-4.12x: inbound's
// branches 2.12 -> 1.94; two runs). At 10,000 games (--moves 100) 19,189 B for
// 3,844 B (4.99x) before; the headers one leaf 16,957 B (4.41x); all
// three 16,281-16,445 B (4.24-4.28x; two runs: a run's layout varies by
// 100-150 B a move, its data bytes not). BenchmarkWritePerMove (150
// moves, disk/data, the three cuts; was 2.79, 3.74, 1.97, 3.09 with the
// record beside the log): brewcrafters 2.41, dicebrewing 3.20, fromage
// 1.69, heavenale 2.66; the queue's fill alone 2.8-3.5% of a move's
// bytes in each game and 2.3-6.9% of a delivery's. Not yet 4x at scale:
// what a move writes at 1,000 games is now log.flat 5.65 pages (branches
// 3.28: 4 levels; a leaf split nearly every move of the bench, whose
// games were loaded in full leaves), queue.outbox 4.45 (a mail's blob
// 2), inbound 3.4, wake 1.6, the headers' leaf and the meta page.
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
// failures with the old delete). Measured (referee bench --no-mail
// --bulk, bytes a move for the data bytes a move, exact up to the page
// layout of a run, two runs each): at 1,000 games (--moves 300 --pages)
// 17,571-18,046 B for 4,266 B (4.12-4.23x) -> 17,408-17,428 B
// (4.08-4.09x, three runs): wake 1.62 -> 1.48 pages a move (leaves
// 0.90 -> 0.81, branches 0.72 -> 0.67). At 10,000 games (--moves 100)
// 16,465-16,640 B for 3,844 B before (three runs), 16,465-16,629 B
// after (4.28-4.33x): no change beyond a run's layout. The cut saves a page where a move's old and new keys
// are in different leaves, which the bench's moves, 100 or 300 in games
// drawn at random, each its game's first or second since the load,
// seldom are; not yet 4x at scale.
//
// Rule (issue 25: the ticker's questions read nothing): the stale keys are
// also kept in memory, a set built once at Open (one read a key of "wake")
// and kept by the commits of Update and Commit, each handing over the keys
// it made stale, live again or deleted, in the order of the commits
// (wakeset.go). DueWakes, NextWake, StaleWakes and TickWakes tell a stale
// key from a live one by the set when it is of the state their
// transaction reads (a writer's: plus its own changes), and by the key
// beside the game's log otherwise (a snapshot older or newer than the
// set; a commit that never handed its changes over). The daemon asks
// TickWakes and NextWake after every commit: in a "wake" of 20,000 games
// with StaleSkip - 1 stale keys due, 1,538 cursors a kick (two a stale
// key, three times) -> 6 (BenchmarkTickKick, bbolt's count, exact; 1.04-1.16
// ms -> 0.11-0.14 ms at load 12). The set is checked against the
// reference after every step of TestStaleWakeKeysLeftForTheTick_Issue25,
// the order of commits by TestStaleSetTakesCommitsInOrder_Issue25, and an
// older snapshot by TestStaleSetNotUsedForAnOlderSnapshot_Issue25.
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
// anyway; no schema change, every older form still read:
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
// A bucket of a few entries is kept inline, in the leaf of the top level
// (up to a quarter of a page): in a new store the top buckets start so,
// the leaf grows past a page and splits, and bbolt merges leaves only
// after a delete, so the top level stayed a branch and two or three
// leaves after the buckets had left it, and a commit wrote 2.9 pages of
// headers for one. From 2026-12-07 (no schema change) a commit that finds
// the top level a branch whose headers fit in 7/8 of a page, or a top
// bucket in rest, is followed by the merge of the migrations to schema
// 11, in two commits of their own (headers.go; a crash between them
// leaves the top buckets in rest, where bucketOf finds them and the next
// commit moves them back: TestTopLevelMergedBackIntoOneLeaf_Issue25).
// It happens about once in a new store (the bench's mail run: once).
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
//     every page, unless the process before crashed (freelist.go).
//   - The heap holds bounded caches only: the last snapshots inflated
//     (snapcache.go) and the decoded records the callers keep
//     (decoded.go), each of a fixed number of entries; no read keeps a
//     whole bucket in memory.
//
// Bytes returned by a Tx are copies and stay valid after the transaction.
package store
