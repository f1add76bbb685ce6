// Package heavenale is the rules engine of Heaven & Ale (A. Schmidt and
// M. Kiesling, eggertspiele / Plan B Games 2017; French edition "Le Bien et
// le Malt") for the PBEM referee: 2 to 4 players (3, 4 or 6 rounds). It
// implements the engine contract (engine.Game, engine.State,
// engine.BotMaker) and registers itself as "heavenale".
//
// Rule ids (HA-x.y.z, ambiguity rulings AMB-n, test vectors TV-nn) refer to
// the specification shared/rules/heaven-and-ale.md; code and tests cite them.
//
// It owns Heaven & Ale's rules (its data file and its cards are
// catalog/'s, the move and its text notation/'s), its bots, the structured
// view of a position and the facts of each option (cost and effect, as
// Params). It must not know mail, the store or templates, hold a word a
// player reads (every word is in templates/heavenale/<lang>/), read a clock
// or use any randomness but the state's.
//
// # Data
//
// Every table (track, start area, garden geometry with its adjacency,
// production track and band table, shed table, privilege pairs, player-count
// parameters, resource and monk pile composition, barrel goals, constants)
// lives in the embedded heavenale.toml, decoded strictly by
// engine.DecodeRuleset and validated (27 numbered track spaces, mutual
// garden adjacency, six garden spots around every shed site, bands and
// shed rows covering their ranges, pairs covering the ten scoring spots
// once, enough tiles and monks for the rounds). The PROVISIONAL tables
// (tile and monk pile split, AMB-10) carry "provisional = true".
//
// # Options
//
// One variant, "standard". Options: start_player (random or a seat number,
// HA-3.9), setup_pick_direction (counterclockwise, AMB-1), final_exchange_may_stop
// (false, AMB-3), allow_x_without_matching_tile (false, AMB-4),
// adjacent_triggered_monks_activate_each_other (true, AMB-5),
// show_pile_contents (false; true lists in every summary the tiles left in
// resource piles I and II, sorted, "HO4x2" for two HO4: HA-6.3 and §10.4
// item 4; monk stacks always show only their count).
//
// # Decisions and slots
//
// The game is strictly sequential; exactly one seat owes a decision:
//
//	setup  HOME <space> [<colour>] at setup (HA-3.9)       default: PREF HOME, else BREW, CASH, RES lowest
//	move   GO <n> | GO HOME [<space> [<colour>]] (HA-5.1)  pass/default GO HOME
//	buy    BUY <tile> <spot> ... | DONE | SELL <card>      pass/default DONE once a tile is bought
//	shed   SHED <spot> ... (HA-5.5.4)                      default the first pattern
//	score  SCORE X <n> | SCORE <colour> | SCORE M<t>      default the first usable spot
//	priv   PRIV <card> [<colour>] | PRIV PASS (HA-5.9)     pass/default PRIV PASS
//	home   HOME <space> [<colour>] (HA-5.12)               default as setup
//
// The options of the move decision carry what each space offers (tiles,
// monk price, usable spots, barrels, free start spaces) for the track menu;
// those of shed, score and privilege decisions what they would give
// (computed on a copy). SELL <card> (HA-5.10) is accepted at any decision
// of one's own turn. UNDO applies on receipt, during one's own turn; PREF
// HOME|PRIV|GARDEN and AUTO ENDSELL (standing orders, §10.2) at any time,
// on receipt. BOARD, ME and SHOW are aliases of the referee's STATUS; NEXT
// CANCEL is answered with the referee's CLEAR. Every other line is queued
// under the slot "t<k>" of the seat's k-th turn (setup picks under "setup"): the lines of a message belong to
// the turn in progress or to come, and each further GO line or NEXT block
// starts the next turn, so a message can carry this turn and queued turns
// with alternatives ("GO 12; SCORE WA | GO 16; SCORE WA ELSE PASS", where
// ELSE PASS plays GO HOME).
//
// Implied DONE (§10.1): Route appends the line "DONE AUTO" to the last
// order of each turn of a message that bought a tile without writing DONE.
// That move never fails: it ends the purchases if they are still open, or,
// when a shed choice is owed, once the sheds are resolved; otherwise it
// does nothing. State.Implied("DONE AUTO") is true: the line is the
// referee's, not the player's. The referee's reply echo leaves out the
// commands for which the state's Implied is true (issue 14.2,
// referee/request.go), so a reply shows "BUY HO2 S1", not "BUY HO2 S1 =>
// BUY HO2 S1; DONE AUTO". The Step log keeps "DONE AUTO" so that replays
// stay exact.
//
// Forced choices are never asked (the Table applies single options): a
// single free start space, FIRST forced by HA-5.12.3, type-0 sheds, a
// completed pair without unplaced cards, the end of a purchase step when no
// tile can be bought any more. Standing orders narrow a decision to one
// option: PREF HOME picks the first free space listed, PREF PRIV PASS or a
// list of cards answers the privilege prompt.
//
// # Views
//
// Everything is public but the order of the piles and monk stacks (and
// the monks set aside) and the standing orders. A seat's view adds its
// menu (the legal answers of its decision), the seats that move before its
// next turn and the spaces it could reach that they could take too, the
// garden drawings (wide, and compact at most 40 columns), the sites one
// tile from enclosure, and the projected final score of every seat
// (PlayerView.Board gives a seat's board as the summary shows it, the
// fields it reads by value, so the templates keep its text from one mail
// to the next; a view copies each seat's lists, never the whole state
// per seat: issue 25). PREF
// GARDEN COMPACT sets View.Narrow: the templates then lay the whole summary
// (track, start area, boards, gardens, final scoring, legend) out in at
// most 40 columns for a phone (tested over whole games in four languages).
//
// # Rulings
//
// The engine follows the spec's rulings AMB-1 to AMB-18 (counterclockwise
// setup picks, sales only in one's own turn but counted for movement,
// exchanges until none is possible with the best sequence for the player,
// no X without a matching tile, mutual activation of adjacent triggered
// monks, the brewmaster capped at 20 without compensation, occupied start
// spaces, passing a whole round allowed, unlimited sheds, the PROVISIONAL
// piles, pile-I tiles to the earliest spaces when pile I runs out). In
// addition:
//
//   - A purchase step ends by itself when no tile of the space can be
//     placed any more, even with emergency sales (HA-5.2.5).
//   - SELL is offered in the purchase prompt only when it makes a tile
//     affordable; it is accepted at any decision of the seat's turn.
//   - AUTO ENDSELL is applied at the final scoring: the engine sells the
//     number of unplaced cards that maximises the final score.
//   - The one-email atomicity of §10.1 is the Table's: every fresh line of
//     the turn in progress (the slot of the message's first line) must be
//     legal or nothing of the message is applied (TV-11 case A: "GO 1" then
//     "BUY HO5 D1", too dear, refused whole, the figure staying put;
//     TestTableWholeTurnAtomic); a failing line of a later turn queued in
//     the same message halts that turn (§10.2, TestTableLaterTurnHalts).
//   - Track menus over 15 options used to be described, not numbered
//     (issue 12.5, then up to 48); now every decision is numbered whole
//     (issue 22: engine.MaxNumbered is a guard of 1000, no decision comes
//     near), so the move decision (at most 28 options) and the purchase
//     decision (up to about 70) are numbered by the Table; View.Menu stays
//     for the prompts' own layout.
//   - Menus in words (issue 22, menu.go): every option's Params carry its
//     cost and effect as facts (a destination's tiles and their prices, the
//     spots a disc scores, the barrels claimed; a purchase's tile, spot,
//     side, price and the shed site it encloses); the templates say them
//     in the reader's language and group long menus by kind of action
//     (engine.Option.Group, set by Legal without allocating: destinations
//     by the kind of their space, "resource", "monk", "disc", "barrel",
//     "home", along the track; purchases by the tile bought, "BUY YE3",
//     each headed by the tile with its shady and sunny price, the tiles in
//     the space's order, then "END" for DONE and SELL), with a legend of
//     the codes players type. Within a group, the best known first
//     (Legal, bestKnownFirst): the option worth most now, as the rules
//     give it without search (optionWorth): a resource or monk space by
//     the best tile the seat can pay there on a shady spot with its ducats
//     and its cards' sale (the tile's number, the steps its marker moves
//     when activated, HA-5.5; a monk's type, HA-5.3), a scoring-disc space
//     by the spots its disc can score (HA-5.6), a barrel space by the
//     barrels claimed (HA-5.7), a purchase by the fertility sum of the
//     shed site it encloses (HA-5.5); ties, and the groups themselves, in
//     the order built (nearest first, sunny first). Only the menu's order
//     changes: options(), Legal0 and the defaults keep the order built
//     (TestBestKnownFirst_Issue22, TestMenuGroups_Issue22). A purchase decision of two tiles on one
//     space (the largest, up to about 70 options; it had only an example
//     and the prices past 48) is numbered like any other, grouped by tile
//     (TestEveryOptionReachable_Issue22 in the referee plays every option
//     of such positions by number, copied line and command).
//   - Events are facts, never ids joined into words (issue 22): a barrel
//     claimed (ha.barrel, "barrels") is one map per barrel with the goal's
//     "id", its condition ("fact": its goal card's fact, "Key", "N",
//     "Word"), the size ("large") and its points ("vp"); the templates say size, points
//     and condition in the reader's words (logs stored before carry
//     "G1:large" strings, which the templates still print as they are).
//   - Ties share the victory (HA-7.5); the result has no tie-breaker.
//
// # Tests
//
// The spec's vectors are cases of testdata/spec.vectors (enginetest's
// frame, the directives listed in vectors_test.go), played by TestVectors
// through enginetest.RunVectorFiles; TV-06 (the start spaces and the
// first round's order) and TV-10 (the shed table) stay Go tests of
// vectors_test.go, listed with the reason in engine/testdata/vectors-in-go.txt
// (one test each, named by
// id); rules_test.go and rules2_test.go a test per rule section;
// random_test.go 510 complete random games over every player count and the
// rule options with Check after every move (HA_GAMES=20000 for the long
// run); conformance_test.go the engine contract; table_test.go whole turns
// and queued turns by message; templates_test.go every template in four
// languages from real positions (80 columns) with golden files in testdata/;
// script_test.go the sample script testdata/short-2p.script for "referee
// play" with the organiser ruleset testdata/short.toml.
package heavenale
