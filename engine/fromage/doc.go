// Package fromage is the rules engine of Fromage (Ben Rosset and Matthew
// O'Malley, R2i Games) for the PBEM referee: 1 to 4 players, the solo game
// against the Corporation at its four levels, the standard game and the
// advanced structure-tile draft, every insert side. It implements the
// engine contract (engine.Game, engine.State, engine.BotMaker) and registers
// itself as "fromage".
//
// Rule ids (FR-x.y.z, data tables D-n, rulings A-n, PBEM rules P-n) refer to
// the rules specification shared/rules/fromage.md; the code and the tests
// cite them.
//
// # Data
//
// Every table of the game (venue layouts per side with their crossed spaces
// per player-count group, City regions and Customer tokens, Festival grids,
// Dairy Shop shelves, Bistro tables, the Resource tile order, player boards
// with their abilities and milking zones, the Order deck, the scoring
// legends, the 32 advanced tiles and the Corporation boards) lives in the
// embedded fromage.toml, decoded strictly by engine.DecodeRuleset. Tables
// the spec marks PROVISIONAL carry "provisional = true". An organiser may
// pass a complete replacement file as Config.Ruleset; it is validated
// (18 spaces per side, 2 per type and aging, regions touched 6 times and by
// the right number of spaces, Free Sample adjacency matching the agings,
// shelf signs, Bistro plates, ability effects per column, enough tiles for
// the draft, Corporation levels, room on the board for every token in
// play...) and rejected with a bad_ruleset error naming the problem.
//
// # Options
//
// Variants "standard" and "advanced" (FR-3.10). Options: city_side,
// festival_side, dairy_side, bistro_side (I or II, FR-3.2); venues (random,
// or the venues at quadrants q0..q3 as letters, e.g. CFDB = City, Festival,
// Dairy Shop, Bistro, FR-3.3); tile (random, or the resource at q0, FR-3.4);
// boards (random, or fixed: board 1, 2, ... in seat order); level (1-4, the
// Corporation in the solo game). The seats of the config are the clockwise
// seating order; with a random venue order and tile orientation this is the
// random seat assignment of FR-3.5 (the referee may shuffle the names).
//
// # Phases, decisions, slots
//
// A game goes through "draft" and "tiles" (advanced mode only), then "turn",
// then "over". The decision kinds (Decision.Kind, prompt.<kind> templates):
//
//	turn      T3 actions: GATHER, MAKE, MILK, BUILD, BARN, DONE    pass/default DONE
//	order     SET ORDERS ASK: COMPLETE or KEEP                     pass/default KEEP
//	take      Dairy Gold/Silver shelf, Gold Foil: TAKE <res>...    pass/default TAKE NONE
//	trade     Dairy Bronze shelf, Trading Post: TRADE / NOTRADE    pass/default NOTRADE
//	dispatch  Dispatcher's Desk: CHOOSE 1|2                        default CHOOSE 1
//	corp      solo, several spaces qualify: CORP <space>           default the lowest space
//	draft     PICK <tile>                                          default the lowest tile
//	tiles     PLACE <tile> / READY (NOTILE)                        pass/default READY
//
// Slots: "T<n>" for everything a seat does in turn n (actions and their
// sub-choices), "T<n>.corp" for the Corporation's space in turn n,
// "draft<r>" for draft round r, "tiles" for the placement. Route sends SET
// and PICKS (standing orders) Now; "PLAN T<n> ..." to turn n and "NEXT ..."
// to the next turn, with the prefix removed from every alternative; CORP to
// the pending (or next) Corporation step; PICK to the current round;
// PLACE/READY to the placement; any other command to the seat's current
// turn (the next one once the seat is DONE). SlotOpen closes a turn's slot
// when the seat has finished that turn.
//
// # Sealed turns: one move per seat per step
//
// Turns are simultaneous and sealed (FR-6.4, P-1). The contract's Table seals
// a simultaneous group until every member's answer is complete, but it
// builds a seat's prompt from the real position, which does not include the
// seat's own sealed lines: a group in which a seat answers with several
// moves (GATHER, then MAKE, then DONE) would offer options that its own
// first line already made illegal (the shared Conformance test plays exactly
// that and fails). So the T3 decision of a seat owes one move per step:
// every seat still playing the turn answers step k (group "T<n>.<k>", slot
// "T<n>"), the Table resolves the step in the canonical resolution order of
// FR-3.12 (Rank), and step k+1 begins. A whole turn mailed at once is
// consumed step by step from the same slot, so players who send complete
// turns see nothing of the others before the turn report. The engine
// itself keeps the turn sealed: events of T3 actions are visible to their
// seat only; the other seats' views show them as they were at the start of
// the turn (Snapshot) until the last DONE, which publishes the turn report
// (fr.report). Direct Apply (tests, bots) is not step-gated: a seat may play
// several moves in a row; Pending only shows what the seat owes to the
// Table. The tile placement uses steps the same way. Consequence: Order
// draws of one turn happen step by step in rank order (not seat by seat);
// both are valid readings of P-1, which asks for the canonical order.
//
// UNDO: lines not yet revealed are the Table's (the referee takes back the
// last queued line, and a new message replaces a complete sealed answer);
// once a step is resolved its moves are played. The engine itself rejects
// UNDO with undo_sealed (P-4: no per-turn journal of applied moves).
//
// # Commands
//
// GATHER <1-3> <soft|hard|blue> (G), MAKE <space> [KEEP] (M), MILK <zone>
// <space> [KEEP], BUILD <I-IV|1-4>, BARN <worker> [<space> [KEEP] | TRADE
// <give> <take>], TAKE <res> [<res>] | TAKE NONE, TRADE <give> <take>,
// NOTRADE, COMPLETE, KEEP, CHOOSE <1|2|card>, DONE (PASS, D), CORP <space>,
// PICK <tile>, PICKS <tiles...>, PLACE <tile>, READY (NOTILE), SET ORDERS
// AUTO|ASK, SET DAIRY ASK|<res> [<res>], SET CORP LOWEST|ASK, SET AUTODONE
// ON, PLAN T<n> <command>, NEXT <command>. Spaces are ids of the sides in
// play (C01-C18, F11-F55, D1-D18, B1-B18; "C7" = "C07") or City names
// (accents and punctuation ignored). Resource words: structure/st,
// cattle/ca, fruit/fr, order/or (and their Italian, French, Dutch words);
// the give of a trade may be an Order id (O12) or "order" (the oldest
// pending one). Canonical text: keywords upper case, arguments lower case,
// TAKE resources sorted. Keywords of the other languages are understood
// too (the referee translates the first word of a line; the parser also
// does, for the command after PLAN/NEXT).
//
// # Random outcomes
//
// Deck order, tile deal, venue order, tile orientation, boards and
// Customer tokens come from the state's engine.Rand (shuffles). Each Order
// card draw goes through Rand.Take("draw", ...), so "!draw O05" puts O05 on
// top; each tile of the solo draft through Rand.Take("tile", ...). Setup
// draws happen inside NewState; use the options (venues, tile, boards) for
// reproducible setups.
//
// # Rulings (beyond the spec's proposals, which are followed)
//
//   - Solo: the player's board is never the board whose back is the
//     Corporation board in play (D-16 back_of): the physical components
//     allow nothing else.
//   - Solo result: engine.Result has no place for an automaton, so the
//     player's Rank is always 1 (the shared Conformance test requires a
//     winner); Result.Params carries "corporation" (its score), its parts,
//     "level" and "solo_won" (A-21: strictly more PP).
//   - A-12 taken literally: the Order-completion check of a placement comes
//     first, so Orders gained by the Dairy bonus or a dock never count.
//   - Column-III abilities (printed "extra", and the tiles Silo, Jam
//     Kitchen) share one once-per-turn flag; Milk House and Aging Cellar are
//     permanent. Gains of any source but the starting resources trigger the
//     "extra" ability, dock and Dairy gains included.
//   - Dispatcher's Desk (ST07): CHOOSE names the first or second card drawn
//     (the canonical answer), so that a mailed plan can answer it without
//     knowing the draw; a card id is accepted too. Keeping the card is the
//     Order gain that may trigger column III. With one card drawn it is
//     kept; with none, nothing.
//   - Trades (Dairy Bronze shelf, Trading Post) are not asked when the
//     player has no unused resource. TAKE NONE (forfeit, the P-3 default)
//     is a legal, listed answer. SET DAIRY also answers Gold Foil.
//   - Cheese Press (ST08) needs a legal Bronze space of the worker's type;
//     it is written BARN <worker> <space> [KEEP].
//   - R2: when no space matches, any empty space of the card's aging in the
//     player's venue qualifies and the player chooses among them. R4: the
//     second draw is skipped once the Corporation has no token left.
//   - SET AUTODONE OFF is rejected: the contract never asks a decision with
//     one option, so a turn with only DONE left always ends by itself.
//   - Legal lists "MAKE X KEEP" (and MILK/BARN ... KEEP) only when an Order
//     matches; identical Orders are interchangeable, the lowest id is
//     completed.
//
// # Menus in words (issue 22)
//
// A turn's numbered options are described from the View alone (the venue
// faced, its open spaces, the seat's abilities): templates/fromage/*/
// menu.tmpl says, in the reader's language, what each option gives and
// costs (GATHER: the resources and the worker's turns away, FR-5.2; MAKE:
// the cheese type and aging, the worker's turns away, the Fruit an icon
// needs, the Order it completes or keeps, FR-5.3, FR-5.5, FR-5.8; MILK: the
// zone and the space, FR-5.6; BUILD: the ability, its cost and effect,
// FR-5.9), grouped by kind of action (engine.Option.Group, set by Legal:
// the verb, GATHER, MAKE, MILK, BUILD, BARN in that order, then "END" for
// DONE; turnGroup), each group under a heading in words, with a legend of
// the codes players type (space letters, worker types). What a line reads
// of the view is in View.TurnLines, by the option's command (TurnLine,
// turnlines.go: the resource faced, the ability of a column, the open
// space named and whether it completes an Order; not in the JSON), and
// option.turn reads nothing else of the view, so that referee/tell keeps
// a line from one mail to the next instead of rendering every option of
// every mail again (issue 25; TestTurnLinesSayWhatTheViewSays_Issue25).
// option.turn needs that view: the referee reaches a seat's view only
// through engine.Views, over the state in hand or read back from the
// store, and both give a seat with a turn decision its TurnLines; without
// a view the template fails with an error, never a line that says nothing
// of its option (TestTurnMenuHasItsView_Issue25).
//
// # Views, events, invariants, bots
//
// View(seat) gives the seat's own data in full and everyone's public data
// with a provisional score; View(-1) is an observer's. Hidden: deck order,
// other seats' draft hands and picks, unrevealed tile placements, standing
// orders, and other seats' moves of the current turn (see above). Every
// per-seat row carries its seat number (PlayerView.Seat; StandView, Warn and
// ReportLine.Seat, left out of the JSON so that a view's JSON stays as it
// was): a seat handed on (REPLACE) is named by who holds it now, which the
// engine does not know, so the templates name a row by its seat, not by
// the row's Name (the seat's name in the game; issue 24). So too every
// player a view or an event names inside a string or a list: the seat
// that faces a quadrant (QuadrantView.FacesSeat), a space's owner
// (SpaceView.OwnerSeat, from which the templates write "C01 ann" lists),
// who holds a resource space (ResSpot.BySeat), a region's leaders
// (RegionView.LeaderSeats), who triggered the end (View.EndBySeats), who
// is still picking (DraftView.PickingSeats), each row of the turn report
// (fr.report's "seat"; a log written before it has only "name"): -1, or
// the view's CorpName, for the Corporation. Two seats may have the same
// name, so a name is never mapped back to a seat.
//
// Where everybody stands (issue 22): a seat sees its own sealed moves of
// the turn and never another's (FR-6.4), so a score that counts the
// reader's own moves is not comparable with the others' and must not pick
// a leader. View.Standing is the one projection every seat and an
// observer share: the score if the game ended now of the public position
// (Adjudicate: during a sealed turn, the start of the turn, nobody's moves
// of the turn; FR-7.2 to FR-7.10) and its leader (rank 1, ties shared).
// Only the reader's own row may add the reader's score with their own
// moves of the turn (StandView.Mine); the EVERYONE part of the summary
// still shows each seat's data as the reader may see it. Solo games have
// none (the Corporation's score is its own part). Check
// verifies conservation of the 15 cheese tokens per player (and the
// Corporation's), the Order cards (deck, discard, pending, completed,
// Corporation card space, cards in a pending choice), the structure tiles,
// fruit piles against the icon spaces occupied, the three workers (one
// place each, return turns 1..3 ahead, one on column I at most), no
// negative resource and no token on a crossed space. The bots are "random"
// (engine.RandomBot) and "greedy" (Greedy), a one-move heuristic that wins
// about 99% of two-player games against random.
//
// # Ownership
//
// It owns Fromage's rules (the data file fromage.toml and what is compiled
// from it are catalog/'s, the move and its text notation/'s): the state,
// the legal answers, the events, scoring, the Corporation and the bots. It
// must not do I/O, read a clock, use global randomness or log, nor word
// anything for a player: every word is in templates/fromage/<lang>. One
// exception is left: parse.go's verbAlias holds the Italian, French and
// Dutch command keywords for lines the referee did not translate (offline
// use, the command after PLAN T<n> or NEXT); a test keeps it in step with
// templates/fromage/*/aliases.txt, which are the source of those words.
package fromage
