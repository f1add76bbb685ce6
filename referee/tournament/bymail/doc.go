// Package bymail is the tournament desk: tournaments run by mail. It owns
// the organiser's tournament commands (NEW TOURNAMENT, ENTER, START,
// STANDINGS, WITHDRAW, LATE, EXTEND, REPLACE, PUBLISH, SCHEDULE, FORFEIT,
// ADJUDICATE, HELP TOURNAMENT, and the corrections RESULT, DOUBLEFORFEIT,
// SWAP, BYE, REPAIR), the players' (JOIN, WITHDRAW and
// STANDINGS of a tournament, RATING), the rounds (drawn by package
// tournament, their games opened through the core), the results as games
// end, the clock of sign-up, rounds and deadlines, the entrants' and the
// organiser's tournament mails, the ratings, and the data of a
// tournament's public page.
//
// It works through a narrow interface, both ways:
//   - the core (package referee) calls Org and PlayerCommand for the
//     tournament rows of its command table, Tick when a tournament's wake
//     entry (WakePrefix) comes due, GameEnded when a game ends with a
//     result, and Page, GamePage, Listed, Record and OrgLang for the pages
//     and the organiser's language;
//   - the desk reaches games, players, mail and words only through Host,
//     which the core implements for one unit of work (one store
//     transaction): OpenGame, CloseGame, Adjudicate, ReplaceSeat, Game,
//     EnsurePlayer, MailEntrant, MailOrganiser, Render, and Records (the
//     store's tournament, rating and wake records of that transaction).
//     An entrant's mail is tagged with their own secret: the desk asks
//     ReplyTo for the address's Reply (reply address, zone and tag) and
//     queues the mail (MailEntrant) carrying it; the core tags it with
//     the Reply's tag, without reading the player again (issue 24), and
//     leaves untagged a mail whose Reply is not of its address
//     (TestTournamentMailTaggedWithTheEntrantsSecret_Issue24,
//     TestMailEntrantTaggedByTheReplyOfItsAddress_Issue24).
//
// It must not touch a game's record or table (the core's), the store
// itself (only the Records it is handed), templates outside the
// "tournament" scope (a game's refusal is worded by the core,
// Host.RuleText), nor the pure algorithms of package tournament
// (pairings, standings, tie-breaks, ratings, calendar), which it calls;
// it must not write a word a reader reads in Go (every word is a template
// of templates/tournament/<lang>/), and it keeps no state between calls.
//
// Who played (issue 24): a REPLACE ends the old holder's rounds with the
// last one whose game they finished; when the open game passes on after a
// move, they played it in part (tournament.Stint.Into, an optional field:
// older records read as none), and the round's table on the page names
// them, then the substitute (PageMatch.Part), each linking their own
// page (PageMatch.PartURLs, PlayerURLs: who played that round, never the
// place's page unless it never changed hands); so do the crosstable's
// cell (CrossPageCell.Players), the place's page, whose game row names
// who began it, then the substitute, each linking their own page
// (PlayerGame.Played, PlayedURLs), and whose mark
// says the departed holder began that round (PageStint.Into), and every
// opponent's page (PageName.Part): TestPlayerPagesNameHandedOnGames_Issue24.
// Every entrant's mail that names who played a game names every holder who
// played it, first to last, each substitute marked (templates
// tour.played, tour.result; heldName by stint, never by name): the
// standings, whole or a round mail's excerpt, add a line for each game of
// a place shown that was handed on after a move (handedOn), and a
// corrected result (RESULT's audit line, mailed to the game's players)
// names each seat of that round by who played it then (resultOf), not by
// the place's holder now (TestMailsNameHandedOnGames_Issue24; the lines
// fit 80 columns in four languages, TestEveryEntrantMailFits).
// A page of a place is the place's: its holders share it, each named with
// the rounds they played.
// A page per person (issue 24, playerpages_person.go): every holder of
// every place - its first, each substitute, the one holding it now - has
// a page of their own at /t/<id>-<key>/p/<n>/<k> (k the holder's number in
// the place's line of holders, which REPLACE only appends to, so the
// address stays; no address in it), listing the games THEY played, whole
// or in part, for which place, each opponent named as who played that
// game, their rating before and after each rated game they finished, and
// the places they held (substitute, replaced in round N); holders of
// several places at one address are one person. A place that never
// changed hands has one holder, whose page is the place's (/p/<n> stays).
// Who played a round is read by position in the place's line of holders,
// never by name: tournament.Entrant.PlayedHolders gives their numbers
// (the k of the addresses), Holders each earlier holder's own number
// (Held.K: two equal stints, one who came back and was replaced again at
// the same point, link their own pages), and every page and mail here
// calls them rather than walking the stints. The place's page and the crosstable link
// each earlier holder's page (PageStint.URL), a handed-on crosstable
// cell each person who played that game, first to last, as the exports
// name them (CrossPageCell.Players and PlayedURLs: CrossCell.Players;
// TestCrosstableLinksEveryoneWhoPlayed_Issue24), and
// every opponent line and every seat of a round's table each person who
// played that game, first to last (playedName: PageName.Part, PartURLs,
// then Name, URL; TestPersonPagesListTheirGames_Issue24). The desk decides a game's
// seats by seat, never by name: at a late=forfeit deadline the seats the
// game waits for (GameInfo.WaitingSeats) lose, as a substitute may share
// another holder's name (TestLateForfeitLosersBySeat_Issue24).
//
// The director's failures (errors.go, issue 24) are data until they reach
// the organiser: an Error (a key and its values) or a tournament.Fault (a
// code and its values), worded by desk.word as err.<key> or err.t.<code>
// in the answer's language (Host.AnswerLang, else the tournament's
// organiser's), wrapped to the answer's width. The core's own failures
// (a store error, a game that could not open) are told by their class
// (err.internal, err.table_failed: package failure's permanent or
// passing, err.cause) and the table whose game failed, never by their
// own words, which go to the log (Host.Warn): whatever a Go value or an
// error's text carries never reaches an organiser's answer or mail
// (TestCoreFailuresToldInWords: START's first batch, sign-up closing at
// its date, ENTER). A usage error ("usage: <syntax>", worded by the
// organiser's door) and an undo (desk.undo) pass as they are.
// A player's tournament command (JOIN, WITHDRAW, STANDINGS, RATING at
// their own address) that fails is all or none too (issue 24): the unit
// of work is undone (Host.Undo) and, run again, the command is answered
// in the player's language with error.failed around the failure's words
// (a refusal by its err.<key> or err.t.<code>, a failure of the core's by
// its class, its own text to the log), never the error's text, within 80
// columns (TestPlayerRefusalsInWords_Issue24 walks every key and code in
// 4 languages with hostile values; TestPlayerCoreFailuresInWords_Issue24).
// A game's options NEW TOURNAMENT checks are refused in the game's words
// only when the engine refuses them (an engine.RuleError); any other
// error there is the core's failure (err.internal).
// Every organiser text of a tournament (orgText) fits 80 columns
// whatever its ids, names, addresses, numbers and dates: a line a long
// value pushes past is folded (TestEveryOrganiserMailFits).
//
// Every entrant's tournament mail and answer fits 80 columns too
// (TestEveryEntrantMailFits: every define of tournament.tmpl, whatever its
// ids, names, addresses, numbers and dates): the answers and the
// substitute lines wrap in their templates, and fitLines lays out a mail's
// body, the standings and a player's answer (a line past 80 gives up its
// columns' padding from the right, then folds; lines that fit are
// unchanged). A standings name is cut at 18 runes, never inside a letter.
//
// Ratings history (issue 24): when a tournament game is rated (its end,
// or an adjudication scored at once) the players' new ratings are stored
// with its match (Match.Ratings, as standings show them), so a player
// page's history is read, not recomputed; a record from before they were
// stored is recomputed from its rated games. The ratings the players came
// to the game with are stored beside them (Match.RatingsBefore, read as
// the game was rated: a rating from games elsewhere, or a newcomer's), so
// a person's page shows before -> after for every rated game they
// finished, their first in the event too; a match stored before
// RatingsBefore existed shows the after alone, never a before guessed
// from their previous game (another rated game of theirs elsewhere may
// lie between; TestTournamentRatingHistoryStored,
// TestPersonPagesListTheirGames_Issue24). A place's history starts
// (Round 0) at the rating its first rated game began from (a player who
// arrived rated starts there, never at a newcomer's; a round before it, a
// bye, shows that start), then its rating after each complete round, and
// names the rating a round's game began from when it is not the row
// before's (a substitute, or games elsewhere in between); a record without
// RatingsBefore starts at a newcomer's (ratingHistory;
// TestRatingHistoryStartsWhereThePlaceStarted_Issue24).
//
// REPAIR (repair.go) draws the open round again while none of its games
// has a move: the round leaves the record (tournament.Withdraw), the old
// games stop and the new ones open, all or none, and each entrant gets one
// tournament mail: the round mail, carrying the audit line for the players
// whose game changed or stopped (a stopped game says nothing in its own
// thread; its new game's own mail follows, as every round's).
//
// NEW TOURNAMENT seed=<text> (issue 24) takes the draws' seed from the
// organiser, to reproduce a draw (Tournament.SeedGiven, said in the
// answer); without it the seed is random. Either way it is revealed at the
// end and every round replays from it.
//
// Rules it keeps (issue 24): every game with a result moves its players'
// ratings, an adjudicated one too - finished by the bots (GameEnded) or
// scored as it stands at once (adjudicateGame, which rates it there since
// no game end follows) - through tournament.RateMatch, which counts it in
// Rating.Adjudicated; standings in mails and on the page mark such a
// rating with * and say what the mark means. A forfeit or a bye rates
// nothing. A published tournament's files (exports.go: CSV, TRF for
// two-player Swiss, the rounds' ICS) are served behind the page's key,
// and the sign-up confirmation names the calendar feed.
// A place that changed hands (REPLACE) is marked on the page's standings,
// the crosstable and the place's player page as in the mails': each
// earlier holder who played it and their rounds (PageStanding.Replaced,
// CrossLine.Replaced, PlayerPage.Replaced; one replaced before playing is
// not named; TestPagesMarkPlacesThatChangedHands_Issue24).
//
// Cost (issue 24): a unit of work decodes a tournament once and writes it
// once, at its end (tourrec.Kept): a mail of 500 ENTER lines used to
// decode and encode the whole record per line, so ENTER was quadratic.
// An ADJUDICATE whose game the bots finish keeps its tournament too (the
// game's end records the result in it), so a mail of 500 of them decodes
// it once, not once a line (TestAdjudicateLinesDecodeOnce_Issue24). A
// tournament game's page checks its key from the tournament's id, key and
// publication alone, decoding no entrant nor round (GamePage;
// TestGamePageReadsTheKeyAlone_Issue24). A page or mail of one entrant does the work
// of what it shows: a person's page and a place's page are made from the
// place's own crosstable cells (tournament.Tournament.Cell) and its line
// of holders (Entrant.Tenures), never the whole crosstable, and a place's
// page formats its own standing row and reads its own rating alone
// (TestPlacePagesEqualTheWholeTables_Issue24: equal to the pages made
// from the whole tables; BenchmarkPlacePages); the standings of a round
// mail are computed once by the later batches of a round opening, each
// taking them with the tournament kept decoded from the batch before
// (tourrec.Shape.Done; TestRoundOpeningStandingsOncePerRun_Issue24), and a row is
// formatted, its rating read, when an excerpt of the batch first shows
// it, so a batch formats the rows its own mails show (about five an
// entrant), not the whole table once a batch. An entrant's mail reads a
// typed struct, mailData (mails.go; templates subject, rules, calendar,
// commands, mail.<kind> read its fields, never a map: a map's key cost
// text/template two allocations a read, a field read by value none, so a
// round mail allocates 31 times, not 82, BenchmarkRoundMail_Issue24); a
// misspelt field fails in every language and branch
// (TestMailTemplatesReadMailData_Issue24). The fields every mail of a
// moment sets alike (the tournament's id, title, points, links...) are
// made once a batch (mailBase.tour), and so are a language's and zone's
// calendar, sign-up close and zone, each mail as a base of its own
// writes it (TestSharedMailBaseWritesEachEntrantsOwnMail_Issue24). An excerpt is template
// "standings" in parts (templates/tournament/<lang>: standings.head, a
// line a row, standings.row, then the notes): the head and the notes
// rendered once a language, each row's line once a language for every
// mail of the batch that shows it, the same text as the whole template
// for those rows (TestExcerptsEqualTheWholeTable_Issue24; an excerpt
// showing a place that changed hands, whose notes name its holders, is
// rendered whole).
// Every public page of a tournament (its page, the crosstable, a place's
// and a person's page, its files, the list) reads it as the store keeps
// it decoded for the pages (tourrec.ForPage; store.Tx.PageTournament): shared by
// the pages while its whole record and match records are the ones it was
// decoded from, decoded again after any change, and never changed by a
// page (TestPagesShareTheDecodedTournament_Issue24; BenchmarkPlacePages
// person-kept and place-kept: 10.2 MB and 85,000 allocations a page at
// 5,000 entrants before).
// The tournament's record - read, kept decoded through a unit of work and
// between the batches of a round opening, written by what changed (whole,
// or as its match records) - is package tourrec's (Kept; its doc says the
// rules): the desk loads through it (desk.load) and saves into its Kept
// (desk.saveTour), and the core flushes it.
//
// A round opens in batches (issue 24, rounds.go: openBatch): the unit of
// work that draws a round records it whole, with its draw, and opens its
// first Host.OpenBatch games (250 by default) with their entrants' round
// mails; the round is then opening (Tournament.Opening, its wake entry due
// now; its matches without a game are the ones left) and each further
// batch is a unit of work of its own, run by the core once the one before
// commits (Host.OpenLater), else by the next Tick. A batch's games, their
// round mails and the record's progress commit together, so a stop or a
// failure midway leaves whole batches: the next Tick opens the rest, and
// every entrant gets exactly one round mail and one game (or their bye),
// never two. A round mail depends on the round, never on how its opening
// was batched: it goes to each entrant the round seats (a game or a
// bye), with the batch that opens their match, the same bytes whatever
// the batch size; an entrant the round seats nowhere (withdrawn before
// it, entered late for a later round, out of a knockout) gets none
// (TestRoundMailNeverDependsOnBatching). A game of the first batch that cannot open undoes the whole
// round (Host.Undo, the organiser hears why); a later batch that fails
// rolls back alone (Host.Undo of that batch: none of its games, mails or
// progress stay) and the round is stuck (Tournament.Stuck): the organiser
// is told once, at the first failure, in their language, what failed,
// how many of the round's games are open and what they can do
// (org.batch_failed, wrapped within 80 columns for any id, number or
// date: TestBatchFailedFitsEveryLength). What failed is said in words:
// the table and the failure's class (package failure: one that may pass
// by itself, or a permanent one), never the error's own words, which go
// to the log (Host.Warn) and no further (TestBatchFailedToldInWords;
// Stuck.Error keeps the class and table, "transient table 7"); the batch is tried again by the tournament's clock
// after a minute, then after twice as long each time (at most an hour),
// and not before: the tries that fail again mail nobody, and the one
// that opens the rest tells the organiser the round is open
// (org.batch_recovered; TestTournamentOpeningStuckBatchToldOnce, a
// failure generated at each batch). REPAIR opens its round in one unit of
// work, all or none. While a round is opening, the organiser's changes to
// the entrants or the round (ENTER, WITHDRAW, REPLACE, SWAP, BYE, REPAIR)
// are refused (err.opening): the batches to come open the round as drawn.
// The refusal is the table's, not each handler's: every organiser's row
// is refused then unless it says it may run (Command.Opening), checked
// where the line's tournament is loaded (orgCmd.tour), so a new command
// is refused by default (TestTournamentOpeningRefusesChanges takes its
// lines from the table).
//
// The director's corrections (corrections.go: RESULT, DOUBLEFORFEIT,
// SWAP, BYE, a late ENTER) are each mailed to the players they concern,
// in their language, with the same audit line as the organiser's answer;
// package tournament keeps them replayable. The people a correction of a
// game concerns (RESULT, DOUBLEFORFEIT; concerned) are everyone who
// played it, found by position in each place's line of holders
// (Entrant.PlayedHolders): a departed holder or substitute who played an
// earlier round's game, or began a game handed on, is mailed at the
// address on record with their stint (none: not mailed) in their player
// record's language; the place's holder now is mailed too when they did
// not play it but their standings change (the game had no result, or
// their place's points moved), never otherwise; one person once. SWAP and
// BYE touch rounds not yet played: the places' holders now. The
// organiser's answer names exactly whom it told
// (TestCorrectionMailedToWhoPlayedIt_Issue24). Sign-up may be capped (cap=N):
// who comes after waits on a list, told their place, and moves in when a
// place frees up before the start. LATE always says where the clock
// stands: when sign-up closes, or whether the round's deadline is coming
// (the time left) or has passed (how long ago).
package bymail
