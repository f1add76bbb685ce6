// Package commands is the seat's and the player's door: the referee's own
// commands a seat writes in a game's thread (HELP, STATUS, RULE, LOG,
// OBSERVE, LIST; CLEAR, UNDO, SAY, VACATION, YES, NOTIFY, LANG, FORMAT,
// RESIGN, JOIN, DECLINE, REGISTER) and a registered player writes to their
// own address (LIST, JOIN, OBSERVE, LANG, HELP and the tournaments' rows).
//
// It owns the rows of those families (SeatRows, PlayerRows: keyword,
// syntax, help template, place in the help list, the errors a command may
// answer with), one handler per keyword, the reading of each command's
// arguments (SAY's recipients and text, VACATION's dates, the settings'
// values, HELP's topic and the card it names: FindCards), and the usage
// error of a command, generated from its row (Usage), never written by
// hand.
//
// It must not touch the store, a game's record or state, the log, mail or
// the clock: a handler reads and changes the seat only through Seat (the
// core, for one seat's command in one unit of work) and the player only
// through Player; the core does the change, writes the log and sends the
// mail. It must not render a word (the host renders templates by name) nor
// import referee/ (the core imports it and keeps the table of every
// audience, package referee/cmdtable).
//
// The rules it keeps:
//   - a command's answer is its line, done, or rejected with error codes
//     (engine.RuleError, rendered by the core as error.<code>); a usage
//     error quotes the row's Usage (TestUsageFromTheRow);
//   - a command changes the seat only when its arguments are read whole:
//     a bad NOTIFY, LANG, FORMAT, VACATION or SAY changes nothing
//     (TestSeatSettingsAllOrNone);
//   - a player's answer at their own address names every line of the
//     mail that no command acted on and that the answer reader does not
//     read as chat, and every whole line of comment ("# my note",
//     reading's Mail.Comments; TestPlayerCommentLinesQuoted_Issue25)
//     (chat: greetings, thanks, sign-offs; what the mail edge took
//     off as greeting, sign-off or signature never reaches it): each as
//     written, cleaned and cut to 80 columns with its prefix
//     (mailmsg.QuoteLine), once, at most MaxUnread, then how many more,
//     in the reader's language (info.unread), then the help once (Unread;
//     issue 25, TestPlayerAnswerNamesUnreadLines_Issue25 in
//     referee/edge/mailin). Lines beyond the player's cap of questions a
//     mail (guard.Capped.Player) are counted (info.too_many_info), not
//     named; chat neither takes a place under the cap nor is counted
//     beyond it (TestPlayerCapCountsNoChat_Issue25);
//   - HELP <word> answers the word's command help and the card it names,
//     the word read in the reader's language, then in any (TestHelpTopics).
package commands
