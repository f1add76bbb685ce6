// Package organise is the organiser's door: it reads an organiser's
// commands (a mail to the organiser's address, or `referee org` on a
// stopped daemon) and answers them, one line a command, in the organiser's
// words.
//
// It owns the organiser's command table (Rows: the games' family here, the
// tournaments' rows taken from the desk, bymail.OrgCommands), one handler
// per keyword; the reading of a script (Script: NEW blocks with their
// PLAYER and RULESET lines, the cap of lines a mail, all or none per
// command through Host.Undo); the reading of every keyword and documented
// sub-keyword in any language (lang.go); the language of the answer
// (MailLang); and every word of the answers: errors are an *Error (a code
// and its parameters, no prose) rendered by the template
// org.error.<code>, results by org.done.<KEYWORD>, usage errors from the
// row's syntax by org.usage (templates/referee/<lang>/org*.tmpl); the
// core's refusals come to it in the same shape (Fail, and Refusal for a
// deadline policy's or a hook's refusal). Its words are read through
// Templates (the Words over the referee's templates and the core's
// renderer, which the core's Host embeds), and it frames an answer mail
// (Templates.Mail: its subject and body; the core sends it).
//
// It must not touch the store, a game's record or state, mail or the
// clock: it reads and changes games only through Host (the core, for one
// unit of work) and Game (one game of it), and the core does the change,
// writes the log and sends the mail. It must not hold a word an organiser
// reads in a Go string or a keyword's alias in a Go map (those are the
// templates'), nor import referee/ (the core imports it).
//
// The rules it keeps:
//   - every keyword of the table, and TOURNAMENT after NEW, open after NEW,
//     listed and off after PUBLISH, is read in en, it, fr and nl, on any
//     line of a mail (templates/organise/<lang>/aliases.txt and args.txt,
//     the common keywords, the tournaments' aliases of
//     templates/referee/<lang>/aliases.txt);
//   - the organiser's commands are read in every language, so the lists
//     of them an answer shows are in the answer's language: the list an
//     unknown keyword or unread lines end with (commandList) shows each
//     keyword as the organiser writes it there (localWord: its first
//     word in templates/organise/<lang>/aliases.txt, then the
//     tournaments' and the common ones'; NEW TOURNAMENT as
//     org.word.new_tournament), and each row of the help
//     (org.help.<KW>) names it, within 80 columns; every word shown
//     reads back as its keyword (TestCommandListInTheReadersWords_Issue25);
//   - the answer is in the language of the mail's words, else of the
//     tournament it names, else English; every error and result in it is
//     the template's, in that language (TestOrganiserErrorPathsEveryLanguage_Issue22);
//   - LIST answers at most ListPage (50) of the organiser's games, in id
//     order; when there are more, a last line says how many and names the
//     LIST <game> that shows the rest (issue 25: long answers paged; the
//     core counts the games past the page from its index's keys,
//     records.OrganiserGames; TestOrganiserListPaged_Issue25, and through
//     Dovecot and Postfix TestOrganiserListPagedThroughDovecotAndPostfix_Issue25;
//     a game a NEW of the same mail created is in its place by id); a page
//     after the last game names where it started and that LIST alone
//     lists from the first, never "no games yet"
//     (TestOrganiserListPastTheLastGame_Issue25);
//   - ROLLBACK keeps every REPLACE (issue 24): the seat stays with the
//     player holding it now, who replays the undone moves; the earlier
//     holders' moves are re-dated (records.RolledBack: one played at most
//     through the move rolled back to, one left with no move is no longer
//     named), so that every mail and page names who played which move;
//     KICK, EXTEND and REPLACE's notes name who holds the seat when the
//     command runs (REPLACE: the player who leaves);
//   - no error's own text reaches an organiser (issue 24): a refusal is
//     worded by its code (org.error.<code>: the door's, the seating's,
//     the hooks', the deadline policies' and the core's, each code in a
//     table: Codes, seating.Codes); a data file (RULESET, ERRATUM) the
//     game refuses is told why, and at which line, in words
//     (org.error.bad_ruleset, from the engine's "why" and "line"), never
//     in the TOML reader's English; any other error is a failure of the
//     core's, told by its class (org.error.internal: package failure's
//     passing or permanent) while its text goes to the log (the desk's
//     Warn). Every answer fits the mail's 80 columns in any language, with
//     hostile values, and carries no Go-ish text
//     (TestEveryRefusalInWords_Issue24, TestCoreFailuresInWords_Issue24);
//   - nothing an organiser writes is silently dropped, nor answered as
//     what it is not (issue 25): a line whose first word is a keyword of
//     the table in any language runs, and a line whose first word is a
//     keyword mistyped (one edit away: the reply reader's, reading.Vocab.Line
//     with the table's words) is refused as its own line
//     (org.error.unknown); a line the reply reader reads as chat (a
//     greeting, thanks, a sign-off, a name, "Sent from Outlook") is no
//     error and is not answered, unless it hides characters
//     (mailmsg.QuoteLine removes them); every other line is no command:
//     the answer ends with org.unread, which quotes each once, as
//     written (mailmsg.QuoteLine: cleaned, cut to 76 columns), at most
//     commands.MaxUnread then how many more (commands.QuoteUnread, the
//     player's rule), and lists the commands once: not again when a
//     mistyped keyword's refusal listed them
//     (TestOrganiserAnswerNamesUnreadLines_Issue25,
//     TestCommandListOnceWithTypoAndUnread_Issue25). Such lines do not
//     count against the cap of command lines. A whole line of comment
//     ("# note", a command commented out) runs nothing and is quoted
//     there too, as a player's is (reading's Mail.Comments); a comment
//     after a command is part of its line, which runs and is answered
//     (TestOrganiserCommentLinesQuoted_Issue25);
//   - a command that names a game is checked (the game exists, it is the
//     organiser's) before it runs, and logged after (addresses and URLs
//     masked) unless its row is Unlogged.
package organise
