// Package imapin is the referee's IMAP intake: a Watcher that reads new mail
// from one mailbox over a dedicated IMAP connection, hands every message to
// the referee (mailin.Handler) exactly once in effect, and then files
// it away.
//
// It owns the intake of one mailbox: its connection, its cursor and
// intake attempts in the store, and the filing of each message.
// It must not read what a message says (that is mailin's and the
// referee's: its lanes take a mail's keys from mailin's one reading) nor
// write anything of the store but its cursor and attempts.
//
// # Order of operations
//
// For each new message, in UID order:
//
//  1. the raw message is fetched with BODY.PEEK[] (the \Seen flag is not
//     touched), and the hand-over is on record in the store: usually
//     already, presumed by the commit of the message before (the cursor's
//     Armed count, see below) or by a look's commit ahead of its mail
//     ("Rolling in"), else by a commit of its own;
//  2. HandleMail is called; it commits the de-duplication record, the game
//     changes and the outbox rows in one store transaction and then
//     returns, and the end of the attempt and the mailbox cursor
//     (UIDVALIDITY and last UID) past the message ride in that same
//     transaction (store.DB.Ride): one write transaction per message
//     (issue 25). When the handler wrote nothing (a duplicate) the cursor
//     is written with the next message's attempt, or before filing;
//  3. the message is moved to the processed folder (or, after a permanent
//     error, to the quarantine folder, with the reason logged).
//
// Rule (the presumed hand-over): every cursor the Watcher moves says that
// the hand-over of the first message after it has begun once
// (store.Cursor.Armed = 1), before it has. The Watcher uses that
// presumption for the next hand-over only if it wrote it in this process
// and no hand-over used it since; otherwise (after a restart, a transient
// error, a message skipped) the attempt is put on record by a commit of
// its own, counting the presumption (store.Tx.BeginAttemptFrom). So a
// message that kills the process right after the cursor moved is still
// counted; a graceful stop takes the unused presumption back, and only a
// crash while idle counts one hand-over that never began.
//
// A crash before 2 commits makes the Watcher fetch the message again after
// a restart, with its attempt counted. With a handler that does not record
// the message in the store, a crash after 2 and before the cursor is
// written makes it fetch the message again too; the referee recognises it
// (by its Message-ID and by the
// "imap:<account>/<mailbox>/<uidvalidity>/<uid>" key the Watcher passes)
// and reports a duplicate, so nothing is applied twice. A crash between 2
// and 3 leaves the message in the mailbox below the cursor; the Watcher's
// sweep (at every connection and every safety re-sync) hands such leftovers
// to the referee again, which again recognises them, and then files them.
// A transient HandleMail error stops the batch: the message and those after
// it are retried later, with backoff, in the same order.
//
// A poison message, one whose handling kills the process (out of memory, a
// crash in a library) or panics, would otherwise block the intake forever:
// its attempt count survives the crash, and once handling began
// Options.MaxCrashes times without finishing the message is quarantined
// without being handed over again, its sender is told through
// referee.QuarantineNotifier, and the intake moves on. An oversized message
// (Options.MaxMessageSize) is quarantined unread and its sender told the
// same way. A message whose hand-over fails Options.MaxAttempts times in a
// row (default 5), whatever the error, is quarantined the same way, its
// sender and the operator told (issue 23: no input stalls the intake; the
// operator by mail when operator.address is set, see referee/edge/opsmail);
// failures to record the attempt itself (the store) do not count.
// FuzzWholeMail checks the rule over generated whole mails through this
// Watcher and the webhook, in-process, into a real referee.
//
// # Lanes
//
// Rule (issue 25: the commits of one fetch share transactions): the
// messages of one fetch are handed over at once in lanes, at most
// Options.Lanes at a time. Two messages share a lane when they share a
// sender (the From address) or name one game where the referee's tag
// can be (its plus address in Delivered-To, To, Cc and the like, the
// subject's tag, the referee's Message-IDs in In-Reply-To and
// References), directly or through other messages of the fetch
// (mailin.Parsed.LaneKeys, groupLanes; see "One reading" below). A lane's
// messages go one after the other in UID order, and a transient failure
// stops its lane only, so that neither a sender's later mail nor a later
// mail about the same game (another seat's, or the same person's from
// another address) is ever applied before an earlier one (mails of one
// fetch tied by neither have no order to keep: they
// raced through the mail servers anyway). Before the first hand-over
// every message of the lanes is on record in one commit (the attempts,
// the cursor's presumption counted by the first); each lane's commit ends
// its attempt and moves the cursor past its message and the later ones
// already committed, never past one that is not, so that rule 1 and the
// crash order above hold for every message. After a crash (a message of
// the fetch with an unfinished hand-over on record) the fetch is handed
// over one message at a time, so that a poison message counts alone.
// The messages are filed afterwards in UID order, as above. Options.Lanes
// 1 hands every message over one at a time.
//
// # Rolling in
//
// Rule (issue 25: the intake wait): while the lanes of a look run, newer
// mail does not wait for the slowest of them. Every kick (the server's
// news of new mail during IDLE, or a lane finishing a message) makes the
// Watcher search past the look's highest UID, fetch what came, and hand
// each message at once to the running lane it is tied to (its sender's or
// its game's, by the lane keys above), behind that lane's earlier
// messages, or to a new lane. The look so grows, in UID order, to at most
// Options.FetchBatch*4 messages; it is filed when every lane is done.
// The crash order is the one above, message by message:
//
//   - The hand-overs of the messages rolled in are on record before any
//     of them is handed over. A message with a hand-over already on
//     record (after a crash) is not rolled in: the look ends before it
//     and a later look hands it over alone.
//     Rule (issue 25, the commits of a mail: the presumption written
//     ahead): the commit that puts a look's hand-overs on record
//     (beginAll) also puts on record the hand-overs of the next
//     Options.FetchBatch UIDs above the look, which have no mail yet
//     (ahead.go), so that the mails rolled in with those UIDs are handed
//     over with no commit of their own. Each mail's commit presumes, in
//     turn, the window above the highest UID its look has taken, while
//     the look rolls mail in (its ride: ahead.go laneCursor.presume): a
//     mail rolled in with a UID a committed ride presumed pays no commit
//     either (TestMailPastTheWindowRidesAPresumption_Issue25; in the
//     bench, beginMore commits went from 33-34 a run, referee and echo,
//     to none, and the referee's commits a player mail from 0.78-0.83 to
//     0.74-0.78, at load 11-19). Only a mail rolled in beyond every
//     window standing pays one (beginMore, which presumes the window
//     above it in turn), and the presumptions stand at most
//     Options.FetchBatch UIDs above the highest the look has taken
//     (a ride run again, its transaction retried, presumes again; one
//     not committed presumed nothing). The Watcher keeps the keys it so presumed and has not used:
//     in its process a presumption is never counted as a hand-over (the
//     commit that begins such a mail's hand-over another way takes the
//     presumption back first), and a graceful stop takes the unused ones
//     back. So does the next look for the UIDs the server says never
//     come (ahead.go dropGone): a UID below the highest one it lists
//     above the cursor and not listed (expunged before the Watcher saw
//     it; a later mail gets a higher UID), and every UID presumed under
//     another UIDVALIDITY than the mailbox's; one commit, only when
//     there are some (TestPresumptionsOfUIDsGoneTakenBack_Issue25,
//     TestDropGoneAgainstAModel_Issue25). A dead process's too: the
//     first look of a Watcher reads the hand-overs of its mailbox on
//     record (store.Tx.AttemptKeys; ahead.go readDead), and that look
//     and the later ones take back those of another UIDVALIDITY and,
//     above the cursor, those of UIDs that never come by the same rule,
//     while one whose mail comes is counted by its hand-over as below;
//     below the cursor a record is a leftover's hand-over, kept for its
//     crash count (TestDropGoneOfADeadProcessAgainstAModel_Issue25).
//     After a crash every presumption still standing counts as a
//     hand-over begun: a mail that kills the process in a hand-over so
//     presumed is counted (TestRollingCrashAtEveryStep fails at every
//     step without the window's records: "handed over with no hand-over
//     on record"), and each mail that comes later with a UID of the
//     window is counted one hand-over that never began (at most
//     FetchBatch mails a crash, one each; with MaxCrashes 3, three such
//     crashes in a row quarantine it;
//     TestPresumedAheadCountedOnlyAfterACrash_Issue25). In the bench the
//     referee's store commits a player mail went from 1.06-1.08 (with
//     the delivery outcomes riding, referee/edge/dispatch) to 0.76-0.82,
//     and the reaction's intake wait's median from about 48 to 17-26 ms
//     at load 22-30. (Before: beginMore was a commit of its own for
//     every batch rolled in, 449 calls a 1,000 player mails, each before
//     its mails' hand-overs; folding it into the mail's own intake commit
//     fails every step of TestRollingCrashAtEveryStep.)
//   - A message rolled in joins the cursor's list of the look only with
//     its ride ready, after every message of the look before it; a ride
//     moves the cursor past its message and the later ones whose records
//     are committed, never past one whose record is not. So the cursor
//     never says a message is done before it is, and a crash at any
//     point leaves every message either recorded (its hand-over again is
//     a duplicate, filed by the sweep) or above the cursor (handed over
//     again, its attempt counted).
//   - Order: a message tied to two lanes of the look (it would join
//     them), one set aside (too large, failed MaxAttempts times, no
//     body) and every message after it end the rolling: the next look
//     takes them when every lane is done. A lane stopped by a transient
//     failure ends the rolling too. So a sender's or a game's mails are
//     handed over in UID order, within a look and across looks.
//   - Rolling is for new mail only (not the sweep below the cursor) and
//     not after a crash (a look handed over one message at a time).
//
// The rolling waits take the kicks of new mail: the look ends with a kick
// of its own, so that mail which came as it ended is looked at at once.
// TestRollingCrashAtEveryStep checks the rule over generated arrivals of
// four senders' mails about three games, in waves while earlier mail is
// handled, with a crash at every step against a model.
//
// # One reading
//
// Rule (issue 25: a mail is read once, in one place): a message handed
// over in a lane is parsed once, by the handler's mailin.Reader.Parse
// (the message and the referee's tag), its lane keys taken from that
// reading and the same reading handed over (HandleParsed); nothing reads
// the IMAP envelope or parses the mail again. A look handed over one
// message at a time takes the readings already made, else hands the raw
// mail over (HandleMail: one reading, there). A handler that reads no
// mail in two steps (not a Reader, or a wrapper whose Parse returns nil:
// a test's, the bench's echo) gets the raw mail, its lane keys taken from
// the IMAP envelope (envelopeKeys: the same keys but References'), so
// that nothing here reads a mail the handler reads again.
//
// The readings of a look's mails are made before their hand-overs are on
// record (the lanes need their keys first), so the crash order above
// needs a guard: a look is read for its lanes only under the cursor's
// presumption (Armed) that this process wrote and no hand-over used;
// when none stands the Watcher writes one first (Watcher.arm, a commit
// of its own, at the first look after a start or a transient failure),
// unless a message of the look has a hand-over on record. A mail whose
// reading kills the process so leaves a presumption no process of its
// own wrote, and after the restart the looks go one message at a time
// (Watcher.unread, until a sync hands over all it found), each mail read
// in its hand-over with its attempt on record, so that a poison mail is
// counted alone: quarantined after MaxCrashes hand-overs, its reading by
// the lanes one crash more (TestReadingThatKillsIsCountedAlone; with the
// guard left out the mail is read again after every restart and never
// counted). A reading that panics is
// caught: that look goes one message at a time. Mails rolled in are read
// while the look's hand-overs are on record or its rides have written
// the presumption, so the same holds for them. TestEveryMailReadOnce
// (here) plays three games to the end through the Watcher and fails when
// a mail is parsed twice or its text read twice.
//
// # IMAP details
//
//   - UID SEARCH UID last+1:* returns the last message even when there is
//     nothing newer (RFC 3501 "n:*" semantics), so the Watcher filters the
//     UIDs itself.
//   - A change of UIDVALIDITY resets the cursor and the mailbox is scanned
//     again; de-duplication in the referee makes that safe.
//   - Messages are moved with MOVE when the server has it, or with COPY,
//     STORE \Deleted and UID EXPUNGE when it has UIDPLUS. Without either the
//     Watcher never expunges (a plain EXPUNGE would remove every \Deleted
//     message of the mailbox): it marks processed messages \Seen and copies
//     quarantined ones, leaving them in place; the cursor alone then says
//     what was processed.
//   - With IDLE (if the server offers it and Options.Idle allows it) new
//     mail wakes the Watcher at once; the unilateral-data handler only
//     kicks a buffered channel, and IDLE is always closed and waited for
//     before the next command. Without IDLE the Watcher polls. Either way a
//     safety re-sync runs every Options.ResyncInterval.
//   - Any connection error closes the connection; the Watcher reconnects
//     with exponential backoff and jitter.
//
// The password is never logged, and the IMAP protocol trace (which would
// contain it) is never enabled.
package imapin
