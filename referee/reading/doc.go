// Package reading is the referee's reading room: it reads the text of one
// player's mail once, into one structure (Mail), and every later stage of
// the core uses that structure; nothing parses a mail's text again.
//
// # What it owns, what it must not touch
//
// It owns the reading of a mail's own text, as the edge extracted it
// (mailfmt.Keywords.MailCommands: MIME, quotes, signatures, greetings and sign-offs
// already taken off and listed in referee.ReadInfo): the script of orders
// (engine.ParseScript), the prose lines (mailfmt.Keywords.SplitProse, with
// the keywords the core gives: cmdtable.KeywordSet), each line as
// the player meant it (mailfmt.AnswerReader: an option number, a copied
// menu line, a keyword, a typo of one, chat, a word near several
// keywords), the words of every language mapped to the engine's (keyword
// aliases, argument words, a written ELSE PASS), the text kept in the
// game's log and the digest that recognises a resend or a loop (each
// computed once, by the guards' rules, referee/guard), and the webhook's
// de-duplication key of a command text. It also reads a
// bot's answer lines (Script), so that the core calls no parser itself.
//
// It must not touch the store, the clock, the network, the game's state
// or the reply: it returns structured data (orders, lines, notes with
// their keywords), never prose; the core renders the notes in the
// reader's language (templates/referee/*/answer.*) and decides what to do
// with every line. It knows a game only through the Vocab the core gives
// it (the game's keywords, the referee's, the template set's aliases and
// words).
//
// # One reading
//
// Rule (issue 25): a mail's text is read once, in one place. The core
// makes one Mail per request (referee.Process) and hands it down; every
// reading of the text goes through the Mail, which reads each form at
// most once (a seat's mail answered after a speculation and again in the
// write transaction, or a unit of work run again by undo, reads nothing
// twice) and gives each caller a copy of what it read, so that no stage
// changes what the next one sees. No form is made by reading another
// back: a seat's answer lines, each resolved once by the answer reader,
// go to the engine's script reader line by line (engine.Script), never
// joined into a text to be split and parsed again
// (TestOrdersReadOnceAsJoined and FuzzOrdersReadOnceAsJoined compare
// them with the old joined path, kept in the test as the oracle). A mail
// read before Process (an auto-reply by its Subject alone, read for a
// command by referee.Referee.HasCommand) is read through the request's
// one Mail, which Process then uses. Mail.Reads counts the parser runs;
// ReadHook (tests only) is told of every run of every Mail:
// TestEveryMailReadOnce (referee/edge/mailin) plays whole games by mail
// and fails when one mail's text is read by a second Mail or a form of it
// twice; TestOneReading (referee) fails when a request reads a form twice, and
// TestOnlyReadingParses (this package) fails when a file of referee/ or
// its sub-packages outside this package calls a text parser
// (engine.ParseScript or Script, mailfmt.NewAnswerReader, this package's
// Reader), or when a file other than the mail edge's (referee/edge/mailin,
// which extracts the player's own text from a mail's bytes) calls
// mailfmt.Commands or mailfmt.ExtractCommands (or the Keywords methods
// MailCommands and ExtractCommands; SplitProse and IsProse nowhere).
//
// # Answers
//
// Every line of a seat's mail is read by mailfmt.AnswerReader with the
// game's keywords, the referee's, and the answer words of every language
// (templates/referee/<lang>/answers.txt). Each line then is, and the reply
// says which (issue 20):
//
//   - a command or an option number, given to the engine and echoed as
//     applied, queued or refused with its reason; a keyword read from a
//     typo ("paas") is a Note (NoteReadAs);
//   - chat ("Hi!", "thanks", a sentence), listed as ignored, and so is a
//     whole line of comment ("# my note": the engine reads nothing in it;
//     issue 25, TestCommentLinesListedAsIgnored_Issue25; a player's
//     answer quotes it with the lines no command acted on: Mail.Comments,
//     TestPlayerCommentLinesQuoted_Issue25; both read it by one test,
//     isComment); a chat line
//     that holds what may be an answer is a Note (NoteHint: `line 3 "I
//     take option 2 please": did you mean 2?`);
//   - a word one edit from several keywords: left to the engine, which
//     refuses it, and a Note (NoteAsk) asks which was meant.
//
// A copied menu line ("2) PLACE HP1 SEED") is option 2 only when option 2
// is that command: the order carries the copied command (Order.Copied),
// and when the number and the text disagree, neither is played
// (engine.CodeCopiedOption). The words of the player's language are read
// as the engine's (PIAZZA MH1 SEME is PLACE MH1 SEED, ALTRIMENTI PASSA is
// ELSE PASS; issue 12.7), and the echo quotes the line as the player
// wrote it.
//
// TestSeatReadingGolden (referee) reads 4,800 generated mails (5 games x
// 4 languages x 30 answer forms x 8 layouts) and compares every order,
// ignored line and note with the reading from before this package.
package reading
