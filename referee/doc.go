// Package referee is the heart of the product: it turns players' commands
// (from mail or a webhook) into moves at the right time and in the right
// order, and tells every player exactly what they need to know.
//
// Rule (issue 22, receipts.go): a mail that only acknowledges a player's
// message and asks nothing is not worth a mail of its own. It waits in the
// seat's record, rides in the player's next mail when that comes within
// Options.ReceiptWindow, and goes alone at the end of the window otherwise;
// nothing that refuses, answers or announces ever waits, and every order
// is echoed exactly once.
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
//
// A unit of work is all or none (undo.go): an organiser's command, or a
// step of the desk's such as opening a round, that fails after it changed
// something rolls the transaction back, and the unit of work runs again
// without it, answering with the failure.
//
// # Never silent
//
// A seat's mail is read line by line as the player meant it (answers.go,
// mailfmt.AnswerReader, issue 20), and every line is applied, queued,
// refused with a reason, or listed as chat; the reply says which, names
// a typo read as a keyword, asks about a word near several keywords, and
// says what a line not understood may have meant. Every branch of the
// intake answers the seat (TestSeatMailIsNeverSilent): a mail with no
// command is answered the first three times a day and whenever a line
// looks like an answer; a stale resend of an applied mail is told once a
// window. Only the abuse guards are silent: beyond the hourly rate
// (Options.RateLimit, one note), the third identical mail of a day, and
// the fourth mail of a day with nothing answer-like (auto-responders).
package referee
