// Package engine is the contract between the referee and the rules of each
// board game it hosts.
//
// It owns the contract between the core and the games, the Table and the
// shared command syntax. It must not do I/O: the package is pure, it reads
// no clock, uses no global randomness and logs nothing. Everything a game
// needs to be replayed lives in its State, which round-trips through JSON
// exactly. A Table's encoding (tablejson.go) is encoded once: the state's
// JSON is spliced into it as json.Marshal wrote it, never passed back
// through encoding/json to be scanned and compacted again for the same
// bytes (issue 25; TestTableJSONIsSpliced).
//
// # The parts of the contract
//
//   - A Game describes one board game (Info: name, variants, player counts,
//     options; one value built once and shared, read-only: a round of
//     5,000 games asks it ~10,000 times, issue 24,
//     TestInfoSharedNotBuiltPerCall_Issue24) and creates States: NewState from a Config (variant, options,
//     seats, seed, ruleset data) and DecodeState from stored JSON. Games
//     register themselves by name with Register, from an init function in
//     their own sub-package (engine/dicebrewing, engine/fromage, ...).
//   - A State answers who must decide what now (Pending: a list of
//     Decisions, each sequential or simultaneous, with the seat's priority
//     rank, a queue slot, the pass move and the default move used when a
//     deadline passes), which options are legal for a decision (Legal,
//     enumerable so prompts can number them and bots can pick from them),
//     parses a command line into a Move (Parse), applies it (Apply returns
//     Events or a *RuleError, and leaves the state unchanged on error), shows a
//     seat exactly what it may see (View), and reports the final Result.
//   - Every Event carries its Visibility, and an optional redacted copy for the
//     seats that may not see it in full, so logs and replays never leak hidden
//     information (Event.For).
//   - Randomness comes only from the Rand held in the state's Header. It is a
//     seeded PCG whose outcomes can be scripted (dice values, card draws, tile
//     reveals) for tests, offline play and dispute checks.
//   - Rule violations are *RuleError values: a stable code, the id of the rule
//     broken (for example "DB-5.4.3") and parameters. Never prose: the words a
//     player reads live in the templates.
//
// # Commands, queues and the Table
//
// Players write one command per line. The shared conventions are handled here
// once for every game (ParseScript, or Script for a caller that holds the
// lines, each given once): case-insensitive keywords, '#' comments,
// alternatives separated by '|', a trailing "ELSE PASS", several lines of one
// alternative joined by ';' or written as a NEXT ... OR ... END block, and a
// bare number choosing an option from the last prompt.
//
// Each game routes the orders of a message (State.Route): an order is either
// applied on receipt (free actions and standing orders) or queued under a slot
// name that a later Decision will carry. A Table holds a State together with
// every seat's queued orders and drives the game: it applies forced decisions
// automatically (a decision with a single legal option is never asked),
// consumes queued orders in priority order as the decisions come, halts a
// seat's queue with a reason when its next order became illegal, keeps
// simultaneous decisions sealed until every seat of the group has a complete
// answer and then applies them in rank order, and applies default moves when
// the referee reports an expired deadline. The Table is pure as well: the
// referee persists it, and the offline "referee play" command uses the very
// same code.
//
// # What the game does itself, and the player's line (the agreement rule)
//
// A decision with a single legal option (a forced choice: a disc with one
// usable spot, a forced start space, the sole legal move, a sale the rules
// make unavoidable, an option left single by a standing order) is applied
// by the game itself; the Step says so (How "auto"). A player who writes
// the whole turn, one command per line, often writes that choice out too.
// One rule, the same for every game, decides what becomes of such a line
// (Table.answers, outcome.go):
//
//   - When a forced decision of a seat comes and the seat's next queued
//     order for the decision's slot starts with the same command as the
//     forced option (the first word of the canonical text; of the line as
//     written when it does not parse), that order is
//     the player's answer: it is played like an answer to any decision.
//     Naming the forced option it is "agreed" (done, never refused, never
//     dropped); naming another legal option (one a standing order had set
//     aside) it is "applied"; naming an illegal one it is refused (a fresh
//     message) or halts the queue, with the true reason: the error of that
//     very line at that decision.
//   - Any other order waits for a later decision: the forced option is
//     applied, and the order is tried at the decision it answers. But when
//     the forced option closes the order's slot (the seat's turn is over:
//     no later decision can take the order), the order was a different
//     answer to this decision, not a line for later: it is refused at once
//     with why it could not be played there (a fresh message is refused
//     with it; an order kept from an earlier message is dropped now with
//     that reason), never kept to be dropped later as "turn over" (issue
//     21; Table.refuseDisagreeing).
//   - After the fact: the Table remembers, per seat, what it did itself for
//     the seat since the seat's last message (Table.Forced). A message whose
//     leading lines repeat those moves, in order, and cannot be played now,
//     has them "agreed" (they change nothing).
//
// # Menus that fit a decision (issue 22)
//
// Every legal option of a decision is numbered by the Table (Prompt.Options,
// Numbered), whatever their number: a decision is never cut to an example
// (MaxNumbered is only a guard against a runaway list; no game comes near
// it). A game whose decisions can be long groups their options by kind of
// action (Option.Group, a code for the templates and webhook clients); the
// Table keeps a group's options together, the groups in the order of their
// first option (GroupOptions), so the numbers run down the menu group by
// group, the best-known first, the same for the mail and for webhook/JSON
// clients. The legal options in the game's own order stay with the prompt
// they were computed for (Table.Legal), so that a reader of the prompt,
// the JSON part of a mail, does not compute them a second time (issue 25;
// TestTableLegalIsThePromptsList_Issue25). A stored table holds no
// prompts: they are what the state, the queues, the halts and the expired
// groups ask each seat, so LoadTable asks again (issue 25, a smaller
// record a move; TestLoadedTableAsksWhatWasAsked_Issue25; a table stored
// with them reads them as stored). The templates give each group a heading in words (what its
// options cost and give) and lay short commands side by side; every
// option stays reachable by its number, its menu line as copied and its
// command (referee TestEveryOptionReachable_Issue22, with positions of
// random games of every game).
//
// A mail is a turn written in order: free actions are applied on receipt,
// but when that refuses a mail whose free action follows a line of the turn
// in progress, the mail is tried again with every line in the order written
// (Submit), and a line of that turn that does not parse before the earlier
// lines are played is read again when it is played.
//
// Every line of a message gets one outcome of one vocabulary (Outcome:
// applied, agreed, partial, queued, sealed, else_pass, halted, rejected,
// skipped, failed, dropped); the referee's templates hold one word per
// outcome and language. An outcome that is not a success always carries
// its reasons: a line "dropped" because its turn or phase closed carries
// the game's reason (SlotCloser) or CodeSlotClosed, and the referee tells
// the line's owner in the next mail; nothing that was carried out is ever
// reported as dropped. Event parameters are facts, never errors: a part of
// a move the game dropped carries its rule error in Event.Err.
//
// # The skeleton of a game
//
// Every game is one sub-package (engine/dicebrewing, engine/fromage,
// engine/heavenale, engine/brewcrafters) with the same files for the same
// roles, and the same two sub-packages of its own by job (catalog, what
// the game is made of; notation, how a move is written), and two more
// when its rules outgrow one package (position, the game as it stands;
// view, what a seat sees of it), so that the next game follows them and no
// package grows past 5,000 non-test lines (cmd/referee
// TestNoPackageOver5000Lines_Issue25):
//
//   - doc.go: the package doc: the rules implemented, the rule-id prefix
//     (DB-, FR-, HA-, BC-), the specification's rulings and what the engine
//     leaves out.
//   - game.go: the Game value, registered by name from init. Its methods are
//     thin over the shared skeleton (skeleton.go): Info; DefaultRuleset (the
//     embedded data file); NewBot with NamedBot ("random" is RandomBot, the
//     game adds "greedy"); NewState starting with Setup (variant and
//     options resolved, ruleset loaded, Header built); DecodeState starting
//     with DecodeStateJSON (game, schema and ruleset checked) and ending with
//     CheckPlayers.
//   - catalog/ (package catalog, engine/<game>/catalog): the data file
//     <game>.toml and everything read from it, a leaf over engine. Its
//     data.go holds the file (embedded as DefaultRuleset), its Go types,
//     ParseRules (DecodeRuleset, then validation with bad, which is
//     BadRuleset) into Rules, answering RulesetVersion (Versioned), and
//     the loader: var DataFile = &engine.Ruleset[*Rules]{Default:
//     DefaultRuleset, Parse: ParseRules}. A nil ruleset is the default,
//     parsed once; an organiser's is parsed once per SHA-256. Beside it
//     the components' names (components.go) and the card catalog
//     (cardset.go) where the game has them.
//   - notation/ (package notation, engine/<game>/notation): how a move is
//     written, a leaf over engine and the catalog. Its move.go holds Move
//     and its canonical text (String); the parser of a line's words sits
//     there too where it needs no state (parser.go: dicebrewing,
//     brewcrafters), else in the game's parse.go.
//   - position/ and view/ (package position, engine/<game>/position;
//     package view, engine/<game>/view): the shape of a game whose rules
//     outgrow one package (dicebrewing; the others are under 5,000 lines
//     and keep both in the game's package). The position is the state's
//     data, the stored JSON, with the vocabulary it is written in and the
//     questions it answers without changing anything, in position.go
//     (Position) and questions.go, a leaf over engine and the catalog; the
//     game's State embeds it in state.go and holds the rules of play (the
//     Position's methods are the State's). The view is the reading of a
//     position for one seat: the View and its parts in view.go, Build in
//     build.go, which reads the Position and asks the game only what its
//     State answers anyway (Moves: Legal, Parse), a leaf over engine, the
//     catalog, notation and the position; the game's View (view.go) calls
//     Build. The bot and the lookahead (bot.go, foresee.go) stay with the
//     rules: they apply moves on a copy, and Greedy is on the hot path.
//   - state.go (the State, its Header H, Clone), flow.go (Pending and the
//     turn structure), parse.go (Parse, Route), apply.go (Apply), check.go
//     (Check: the invariants), score.go (Result), adjudicate.go (Adjudicate:
//     a late game scored as it stands), view.go (View: structured data for
//     the templates, never prose), bot.go (Greedy). A game adds files for
//     its own parts (fromage/corp.go, brewcrafters/brewery.go) and splits a
//     role's file by job when it grows past 800 lines, the role itself
//     staying where the skeleton says: Legal and its options in legal.go
//     (brewcrafters, heavenale), the brewery turn's parts in
//     notation/parseparts.go (brewcrafters), the data file's raw layout in
//     catalog/rawdata.go and its compiling in catalog/datacompile.go
//     (fromage). TestEngineFilesUnder800Lines_Issue25 keeps every file of
//     engine/ and of the games (their sub-packages too) under 800 lines; the
//     Table itself sits in table.go (its API), tablestep.go (the driving),
//     tablesealed.go (simultaneous decisions) and tableresults.go (outcomes,
//     prompts).
//   - Tests, by role: helpers_test.go (fixtures), rules_test.go (rule by
//     rule, named by rule id; or the cases of testdata/rules.vectors, as
//     dicebrewing), vectors_test.go (TestVectors: the test vectors, played
//     through enginetest.RunVectorFiles, and the game's runner of their
//     directives), data_test.go (the data file: an organiser's ruleset),
//     conformance_test.go (enginetest.Conformance), random_test.go
//     (complete random games, the invariants after every move),
//     fuzz_test.go, table_test.go (through a Table: enginetest.Submit,
//     Statuses), script_test.go (offline play: enginetest.PlayScript),
//     adjudicate_test.go (a real position: enginetest.PlayScriptUntil),
//     templates_test.go (every template in every language within 80
//     columns: enginetest.Render, CheckWidth, RenderEvents, AllDefined,
//     CitedRules, Golden), bench_test.go (enginetest.BenchGames, BotMove,
//     BenchJSONRoundTrip). TestEngineTestsFollowTheSkeleton_Issue25
//     (layout_test.go) checks each file and what it holds, and that the
//     conformance run, the vector loop, the fuzz targets and the game
//     benchmarks sit in their file only.
//   - testdata/: short.toml and short-<n>p.script (a short complete game for
//     "referee play" and script_test.go; adjudicate-<n>p.script for the
//     adjudication tests), golden-<what>.<lang>.txt (golden
//     renders; go test -update rewrites them), *.vectors (the test
//     vectors) and spec.ids (the ids the game's specification defines).
//
// # Rule vectors in one shape (issue 25)
//
// A game's test vectors are cases of testdata/*.vectors in one frame,
// enginetest's: "CASE <name> <title>" ... "END", a line starting with "#"
// a comment, every other line one directive of the game's runner (a word
// in capitals first: SETUP, EXPECT, ...; the directives are the game's
// own, listed in its vectors_test.go or at the top of its spec.vectors).
// The CASE line cites the rules the case proves (DB-5.4.3, FR-7.4, A-3,
// D-15, ...); a case of a specification's test vector is named after it
// (TV-07; TV-07b for a second case of it). TestVectors plays every case
// through enginetest.RunVectorFiles, one subtest each, and a failing case
// is reported by file:line and rule ids. TestSpecVectorsCarried_Issue25
// (vectorshape_test.go) holds the shape: every id a case cites is one its
// specification defines (testdata/spec.ids, which
// TestSpecIndexMatchesTheSpec_Issue25 compares with shared/rules/<spec>
// where the specification is, -update rewriting it), and every test
// vector of the specification is carried by a case or, when it is no
// position a case can set up, listed with its Go test and the reason in
// the one list engine/testdata/vectors-in-go.txt, never both.
//
// The roles of the code above sit in those files in every game, checked by
// TestEnginesFollowTheSkeleton_Issue25 (layout_test.go): Info,
// DefaultRuleset, NewBot, NewState and DecodeState in game.go;
// DefaultRuleset, Rules, ParseRules and DataFile in catalog/data.go; Move in
// notation/move.go; catalog imports no more of the module than engine,
// notation no more than engine and its catalog; in a game split so,
// Position in position/position.go, View in view/view.go, Build and Rules
// in view/build.go, position importing no more than engine and the
// catalog, view no more than those, notation and the position, both or
// neither present, and state.go's State embedding position.Position;
// Clone in state.go; Pending
// in flow.go; Parse and Route in parse.go; Apply in apply.go; Check in
// check.go; Result in score.go; Adjudicate in adjudicate.go; View in
// view.go; Greedy in bot.go. Helpers of a role may sit in a file of the
// game's own parts (dicebrewing/route.go holds the helpers of Route).
//
// The templates of a game (every word a player reads) live in
// templates/<game>/<lang>/, never in the engine.
package engine
