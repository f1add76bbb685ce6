// Package referee is the heart of the product: it turns players' commands
// (from mail or a webhook) into moves at the right time and in the right
// order, and tells every player exactly what they need to know.
//
// # What it owns, what it must not touch
//
// It owns the records of games, seats, players and organisers, the game
// log, the order in which commands are applied, every mail's content and
// the outbox rows, all written in one store transaction per request. It
// must not touch the network or the mail protocols (the edges do: it
// takes a Request and leaves mail bytes in the outbox queue), read the
// wall clock (Options.Clock) or global randomness (Options.Random), hold
// a player-facing word in Go (templates/ does), know a game's rules
// (engine/<game> does, behind engine.Table) or compute a tournament
// (referee/tournament and its desk, referee/tournament/bymail, do).
//
// # A tour: one mail through the core
//
// Follow a seat's reply "PLACE MH1 SEED" from the moment an edge (mailin
// for mail, webhook for HTTP) has read it into a Request: the mail's own
// text in Request.Text, how it was read in Request.Read, its tag as Kind,
// Game, Seat and Secret, its de-duplication Keys.
//
//  1. Process (referee.go) is the one door. It tries the request as a
//     speculation on a snapshot first (speculate.go calls package
//     referee/spec: a seat's mail that touches one game commits without
//     the write lock when nothing it read changed), else runs it in a
//     write transaction; undo.go has spec.Redo run a unit of work again
//     without a step that failed after it changed something. Either way
//     the work is processTx.
//  2. processTx (referee.go) drops a request already seen (its Keys),
//     makes the unit of work (work, work.go) and dispatches on the tag
//     (work.request, request.go): a seat's, a player's (playerWork), an
//     organiser's (orgWork: the commands are the organiser's door's,
//     package referee/organise) or an untagged mail.
//  3. Apply. Process has made the request's one reading of its text
//     (Request.read, readnotes.go: a reading.Mail, package
//     referee/reading), which every stage and every rerun of the unit of
//     work uses; nothing else parses the text. seatRequest authenticates
//     the seat (records.AuthSeat: the same rule as the webhook's
//     SeatForSecret), checks the sender, drops a resend (the Mail's
//     Digest), logs the input (its Logged text) and hands the mail to the
//     seat's room, seatMail (request.go): readAnswers takes the Mail's
//     Answers, every line as the player meant it in the engine's words,
//     with the notes about single lines as data that answerNotes renders
//     in the reader's language (readnotes.go); the referee's own commands
//     run first, one handler per keyword from the command table
//     (package referee/cmdtable; the handlers are the seat's door's,
//     package referee/commands, seatHost in commands_seat.go their host;
//     HELP, of a word or a card too, is package referee/query's), and the game's
//     orders go to the engine together (gameWork.submit, work.go:
//     engine.Table.Submit, each step logged). What changed for each seat
//     is one seatChange record (work.go): its reply, whether it acted, is
//     forced a mail, asked STATUS, is quiet.
//  4. Settle. work.flush (work.go) walks every game the unit touched:
//     settling (settle.go, package referee/settle through roomGame,
//     lifecycle.go) lets bots play until a human must act, ends a
//     finished game, and starts, keeps or stops each seat's clock (the
//     rules: package referee/lifecycle); a game
//     that ended is reported to the tournament desk (desk.go).
//  5. Tell. teller.mail (mail.go) hands package referee/tell plain values
//     (tell.Input): the game's names and seats, its table, its log since
//     the oldest seat's last mail (the entries this unit of work wrote as
//     they are in memory, gameWork.logged: nothing it wrote is read back
//     and decoded; older entries a seat has not seen come from the store
//     only when that seat gets a mail; the published log of a game that
//     ended is rebuilt the same way, teller.wholeLog in mail.go), what
//     changed for each seat and the notes. tell.Teller.Mails (pure: no store, no clock) decides who
//     gets a mail and renders it with the templates, in each reader's
//     language, within 80 columns; it returns the mails and the seats as
//     told, which mail.go copies back. teller.queueHooks queues the
//     webhooks (their lines: tell.Renderer.Hooks).
//  6. Persist. flush completes and composes each mail once (outgoing.go:
//     enqueue; the tag is a mailmsg.Tag value, never text parsed back)
//     and writes the game's record, its wake time, the outbox rows and
//     their VERP records in the same transaction (package
//     referee/records, re-exported in records.go; outgoing.go); processTx then puts the game's state token in the
//     Outcome (outcomeState) and records the request as processed; the
//     edge's own bookkeeping (the end of the intake attempt, the IMAP
//     cursor) rides in that commit (store.DB.Ride): one write
//     transaction per mail.
//  7. Back in Process: the commit made, the store keeps the decoded games
//     (store.Tx.KeepDecoded), the senders are kicked (Options.Kick) and the
//     request observed (Options.Observe). The Outcome goes back to the
//     edge: a typed Status and Reason, the Message-IDs queued, the state
//     token. The senders (edge/smtpout, edge/hookout) deliver from the
//     outbox after the commit, one commit per delivery (store.DB.TakeFresh).
//
// Tick (tick.go) is the same walk for deadlines, reminders and digests
// (settle.Tick): a unit of work per batch of due games, through settling,
// tell and persist. Every failure of its transactions is returned (the
// daemon logs it): a game's, once every other game was handled, and that
// of the drop of stale wake-up keys a tick with no game due commits alone
// (TestTickReportsAFailedStaleDrop_Issue25).
//
// # The rooms
//
// Each type has the methods of one job, and its methods live in the files
// of that job (TestLayoutRoomsInTheirFiles_Issue25, layout_test.go, with
// at most 30 methods a type, 800 lines a file):
//
//   - Referee (referee.go): Process, Tick and the unit of work. Its API
//     rooms, embedded: queries (query.go, export.go: what the edges ask),
//     pageQueries (the public pages' data: package referee/query's Pages,
//     on a snapshot of the core that gamepages.go gives it), organisers
//     (organiser.go, lifecycle.go: the organisers' door on a stopped
//     daemon) and asides (intake.go, abuse.go: bounces, auto-replies,
//     mail set aside).
//   - The records (the stored game, seat, player, log entry and their
//     bytes) are package referee/records', re-exported under their names
//     (records.go); the tentative runs of a unit of work (speculation,
//     all or none) and the memory they touch besides the store (random
//     bytes, rate limits) are package referee/spec's.
//   - The pure rules the core applies are sub-packages: referee/guard
//     (the abuse guards, applied in abuse.go and request.go),
//     referee/deadline (the deadline policy), referee/lifecycle (a
//     game's life over its record: seat order, the seats' clocks, what a
//     tick finds due, the next wake, missed moves, the end; applied in
//     package referee/settle) and referee/hooks (the webhooks' contract,
//     queued in hooks.go).
//   - The rooms that change a game through a narrow interface the core
//     implements (lifecycle.go: seatingHost, roomGame): referee/seating
//     (a game's seats from creation to start: NEW's game, INVITE, JOIN,
//     DECLINE, the start; the desk's games, seated at once) and
//     referee/settle (the end of apply: bots, the end, the clocks, a
//     tick's deadlines, the organiser's close).
//   - work (work.go): one transaction: the games it touched, the mails it
//     composed; orgWork and playerWork are the organiser's and the
//     player's requests in it.
//   - gameWork (work.go, lifecycle.go, organiser.go): one game in a unit
//     of work, the apply stage; seatMail, settling and teller are the
//     stages above; teller's mails are package referee/tell's (mail.go is
//     the door: plain values in, mails and seats as told out).
//
// # Receipts
//
// Rule (issue 22, referee/tell/receipts.go): a mail that only
// acknowledges a player's message and asks nothing is not worth a mail of
// its own. It waits in the seat's record, rides in the player's next mail
// when that comes within Options.ReceiptWindow, and goes alone at the end
// of the window otherwise; nothing that refuses, answers or announces ever
// waits, and every order is echoed exactly once.
//
// # Boundaries
//
// It is transport-agnostic: it takes authenticated inbound commands and
// produces outbound messages for the outbox, with an injected clock, so it is
// tested without any mail server.
//
// Tournaments by mail are not the core's: they are the desk's, package
// referee/tournament/bymail, behind a narrow interface (desk.go). The core
// hands the desk the tournament rows of its command table, the clock of a
// tournament's wake entry and every game that ends with a result; the desk
// opens, closes and reads games, registers players and queues mail only
// through bymail.Host, which deskHost implements for one unit of work.
// A tournament round is drawn outside the write lock (issue 24): a unit
// of work that completes a round leaves the next one due, and once it
// commits the core draws it on a snapshot (a read transaction) and opens
// it in a unit of work of its own (desk.go, openDue; a START's round 1 is
// drawn before its mail's transaction, predrawOrg).
//
// The organiser's commands are not the core's either: they are the
// organiser's door's, package referee/organise (the table, one handler a
// keyword, every keyword in any language, every answer in the
// organiser's words). The door changes games only through organise.Host
// and organise.Game, which orgHost and orgGame (orghost.go) implement for
// one unit of work; the core does the change.
// Rule (issue 22): every word the core sends an organiser is in the
// organiser's language: its answers and refusals to a command (HOOK,
// UNHOOK, PUBLISH, a policy: a code and its parameters, organise.Fail
// and organise.Refusal, worded by templates in the mail's language), and
// the notes it sends on its own (org.org_*, toOrganiser) in the language
// recorded with the game (Game.OrgLang: that of the organiser's last
// command mail creating or naming it), else its tournament's, else that
// of the organiser's last mail of any kind (kept with the organiser's
// address, the store's organisers bucket, in that mail's transaction:
// recordOrgLang), else English.
//
// The seat's and the player's commands are the seat's door's, package
// referee/commands (their rows, one handler a keyword, the reading of
// their arguments, usage errors from the row). A handler reads and changes
// a seat only through commands.Seat, a player only through
// commands.Player, which seatHost (commands_seat.go) and playerHost
// (commands_player.go) implement for one unit of work; the core does the
// change, logs and announces.
//
// A unit of work is all or none (undo.go, spec.Redo): an organiser's
// command, or a step of the desk's such as opening a round, that fails
// after it changed something rolls the transaction back, and the unit of
// work runs again without it, answering with the failure.
//
// # Never silent
//
// A seat's mail is read once, line by line as the player meant it, by
// the reading room (referee/reading over mailfmt.AnswerReader, issues 20
// and 25), and every line is applied, queued,
// refused with a reason, or listed as chat; the reply says which, names
// a typo read as a keyword, asks about a word near several keywords, and
// says what a line not understood may have meant. Every branch of the
// intake answers the seat (TestSeatMailIsNeverSilent): a mail with no
// command is answered the first three times a day and whenever a line
// looks like an answer; a stale resend of an applied mail is told once a
// window. Only the abuse guards are silent: beyond the hourly rate
// (Options.RateLimit, one note), the third identical mail of a day, and
// the fourth mail of a day with nothing answer-like (auto-responders).
// A player's and an organiser's answer quote each line no command acted on, chat aside (commands.Unread,
// org.unread); a template that fails reads as templates.Set.Internal, its error logged (Renderer.text).
package referee
