// Package brewcrafters is the rules engine of Brew Crafters (Ben Rosset,
// Dice Hate Me Games), 2 to 5 players, from the specification
// shared/rules/brew-crafters.md. Rule ids (BC-x.y) are cited in the code and
// the tests.
//
// # Data
//
// Every table of §8 lives in brewcrafters.toml (recipes, buildings, market
// spaces per player count, partnerships, Skilled Workers with their hooks as
// data, Collaboration portions, Traders Market rates, Community Farm yields,
// economy constants). PROVISIONAL rows carry "provisional = true". An
// organiser's override is validated strictly (unknown keys, ids, counts).
// The Research Labs (Table 8.10) are data too: each step of each track on
// each side is an effect (ingredients of choice, money, Rep, a token, a free
// action, a Breakthrough trigger with its threshold, a Game End count), so
// the PROVISIONAL blue side can be corrected without code. The game length
// (economy.years, 3 by BC-1.3) is data, which the sample one-year game in
// testdata/ uses.
//
// Setup choices (BC-3.6, BC-3.7, BC-3.9): the options recipes=first|random
// and workers=first|random pick the first-game sets or draw at random; an
// organiser who wants a particular set marks it with first_game = true in an
// override data file (exactly 2 advanced recipes per style and 9 workers,
// validated). start_player names the start seat or draws it.
//
// # Flow
//
// Twelve seasons (BC-1.3) of: S0 season start (Intern pickup, worker season
// effects, Winter Annual benefits: decision "start"), S1 restock, S2 Market
// placements (decisions "market", "extra" for the Market Helper, "intern" for
// an Intern), S3 Brewery tokens (decision "brewery"), S4 season end (Farm and
// Community Farm harvest in Fall, operating costs in Winter, final scoring
// after Year 3 Winter). Interrupts come first: "discard" (storage overflow,
// BC-5.1.2), "hire" (Employment Agency, BC-5.12.3), "pick" (Community Farm
// leftovers, BC-5.12.4), "research" (the Yeast Lab Technician's free move,
// Every decision is sequential, in turn order.
//
// # Commands (BC-10.5)
//
//	M [space] <keyword> [args] [+BASIC x..] [+ADV x..]   Market placement
//	M MALT > HOPS > 7                                   ranked list (also |)
//	B PROCESS [BREW r[@slot] ...] [MASH] [YLAB]         Process Beer
//	B COLLAB <M|H|Y|ADV x> [THEN PROCESS ...]           Collaborate (3-5p)
//	B PROCESS ... COLLAB <p> BEFORE|AFTER               the same (BC-10.5)
//	B <part> THEN <part> ...                            free actions between
//	B RESEARCH <track> [choice] | B INSTALL <b> [+OPS x x x]
//	B SECRET <recipe> | B CFARM <x> | B PASS
//	ANNUAL <track> <args>|SKIP, DONE                    Winter S0
//	DISCARD, EXCHANGE, LOAN, PLANT, HARVEST             free actions
//	PICK x, HIRE id|NONE, INTERN BREWERY, PASS
//	INTERN MARKET                                       then the placement (TV-28)
//	RESEARCH <track> [choice] | RESEARCH SKIP           free research
//	SET DISCARD|PICK|ANY|ADV|INTERN|ANNUAL <value>      standing orders
//
// Queue slots are "s<season>.<kind>" (start, market, brewery, discard, pick,
// hire, research). Route sends M and INTERN lines to this season's Market (the next
// season's once the Market is over), B lines to the Brewery, ANNUAL and DONE
// to the next Winter start, PICK and HIRE to their interrupts, SET at once;
// a free action goes with the next order of the message, or is applied at
// once when it is the last. "M a > b > c" becomes the alternatives
// "M a | M b | M c"; "M 3" is space M3. A "QUEUE " prefix is accepted
// and changes nothing. "ALWAYS " makes a standing order (BC-10.2 point 4,
// engine.Order.Always): it is never used up; it answers every decision of
// its kind (each Market placement, each Brewery token, each Winter start)
// that no QUEUE entry of the same slot answers first, moves on to the next
// season's slot when its own closes, and stays until CLEAR (QUEUE CLEAR).
// If none of its alternatives is legal, the seat's queue halts with the
// reasons and the seat is asked, as for any queued order.
//
// # Canonical commands
//
// The canonical line of a move (its String, the Cmd of each Legal option,
// a decision's Default and Pass, the lines quoted in refusals) is written
// as a player types it, in the codes the menus show, never with a
// data-file id (issue 21): a worker by its id without underscores
// (BREWPUBMANAGER), a building by its short name (DOUBLE, MASHTUN, PUB),
// a building's space by its building's code (B RESEARCH OPS YEASTLAB, not
// SPACE_YEASTLAB); ingredient, recipe, partnership, space and track codes
// are their ids. The parser reads ids, codes and names alike. Views show
// workers, buildings and the Rep token's space by their codes too. Logs
// written before (ids in their steps) replay: a move's Legacy text is the
// old canonical form, which engine.Replay accepts.
//
// # Events
//
// Every event is structured data (its kind and params, ids as the data file
// has them); its words are one template per kind and language that renders
// it as one line with all its parts: no line break and no wrapping inside
// it, for the mail folds each event line to its width with an indent
// (issue 21: "Bob places on M8" / "FUND." were two lines, and a second
// line lost its indent). Workers, buildings, partnerships and a gain's
// source are named in the reader's language, never by data-file id.
// TestEveryEventOneLine renders every kind the source emits in every
// language.
//
// # Decision kinds
//
// start (ANNUAL/DONE, default DONE), market (compulsory placement, default
// per BC-10.6: MALT, HOPS, YEAST, OPEN, FUND, first legal), extra (Market
// Assistant: placement or PASS), intern (placement, or INTERN BREWERY, the
// default), brewery (default B PROCESS, pass B PASS), discard (default: the
// SET DISCARD order, else the most-held type), pick (default: SET PICK, else
// the ingredient with the most left), hire (default HIRE NONE), research
// (RESEARCH <track> [choice] or RESEARCH SKIP; default the least advanced
// track).
//
// # Rulings recorded here (beyond the spec's section 9)
//
//   - "Any ingredient" trigger choices (Breakthroughs, Importer, Research
//     Assistant, Specialty Buyer) never stop the game: they come from the
//     command's words, else SET ANY / SET ADV, else the least-held type
//     (ties M>H>Y, F>S>C), as BC-10.6 proposes for timeouts. The words
//     (BC-5.10.2): "+BASIC x" / "+ADV x" / "+OPS x x x" on Market, hiring
//     (M WORKER, HIRE: the Advanced Ingredient Importer's two) and Install
//     lines; on a research move (B RESEARCH, RESEARCH) the codes after the
//     track go first to the Experimental step, then to the Research
//     Assistant. A research choice word that nothing takes is refused
//     (choice_unused), never ignored; a "+" word that nothing on a Market,
//     hiring or Install line takes does not stop the action and is told to
//     its owner alone (event bc.unused_choice).
//   - The advanced lab's Basic Breakthrough ("1 more of an ingredient type
//     the space gave you") takes the type named by "+BASIC x" among those
//     the space gave, else the preference / least-held one.
//   - An Experimental token not named on the research line goes to the
//     first empty building space (Operations) or the first recipe in play
//     (Brewing), as the timeout defaults of BC-10.6 do for choices.
//   - The Yeast Lab Technician's free research move on hiring is the
//     player's: "RESEARCH <track> [choice]" or "RESEARCH SKIP" at the end
//     of the hiring line (M WORKER YEASTLAB_TECH RESEARCH BREW, HIRE ...),
//     else the decision "research" is asked at once (answer RESEARCH
//     <track> [choice] or RESEARCH SKIP; default at timeout: the least
//     advanced track, first in BASIC, OPS, BREW, ADV order).
//   - Free actions are allowed only while the seat owes a decision.
//   - Overflow is resolved at once (BC-5.1.2, BC-5.9.5). Inside a "B ...
//     THEN ..." chain, an overflow a part caused (a harvest) is resolved
//     before the next part: by a DISCARD written as that next part, else
//     by the standing SET DISCARD order, else the line is refused
//     (overflow_in_chain) with what to add; no later part (a brew, a
//     contribution) may use what the storage could not hold. The same
//     holds for a free action written on its own line: an overflow
//     it causes in the seat's own turn is answered by the next line of the
//     same mail (a DISCARD), else by SET DISCARD; a following action line
//     is refused (overflow_first), so a mail "HARVEST H / B PROCESS ..."
//     without a discard is refused whole, and a DISCARD line meant for the
//     overflow is never applied a second time later.
//   - Otherwise overflow is checked at the end of each command (BC-5.10.1); the
//     End-of-Fall overflows (Farms, then the Community Farm) are resolved one
//     seat at a time, in turn order (Farms) or contribution order (Community
//     Farm), as sequential decisions: their answers do not interact, so the
//     result is the same as the spec's simultaneous resolution.
//   - The Hire Interns and Employment Agency fees take a Loan when short.
//   - Annual benefits that need no choice (money, a cost reduction) are
//     given without asking; the others are the "start" decision.
//   - A Partnership keyword names the card (COFFEE); when it is taken, the
//     "4+ players" copy (COFFEE4) answers it.
//   - Legal lists each Process Beer brew step once per slot arrangement up to
//     the T1/T2 symmetry, operating the Mash Tun and Yeast Lab whenever they
//     apply (they only lower the cost); other arrangements are still accepted
//     when typed. Traders Market options take the full amount due; fewer may
//     be typed (BC-5.12.2).
//
// # Cards and menus in words (issue 22)
//
// Every thing of the data file a mail may show (workers, buildings,
// partnerships, market spaces, recipes, research tracks, collaboration
// portions, ingredients, slots) is a Card (Cards, cards.go): its id, the
// code a player types, its rule id and its cost and effect as structured
// facts; the words are templates/brewcrafters/<lang>/cards.tmpl. A player
// types codes without underscores (HEADBREWER, MASHTUN, OAK): the parser
// reads them as well as the ids, and no internal id (HEAD_BREWER,
// SPACE_STOREHOUSE) is shown. The View's Menu describes each legal answer
// of the reader's own decision (menu.go): its group (the kind of action,
// by which the mail orders and heads the menu, best known first), the
// command as typed and its facts. Menus that fit a decision (issue 22):
// Legal sets each option's group (engine.Option.Group, the same as its
// MenuItem's: a Market placement by its half's effect, ingredients, money,
// shift, partner, worker, trade, complex; a Brewery action by its part,
// process, research, install, collab, secret; annual, discard, pick, hire,
// other), found from the move without describing it (no allocation), and
// orders the options by group, best known first (menuGroups), each group in
// the order built; the templates head each group in words. A MenuItem
// holds its card by value (the zero Card when it is about none, left out
// of the JSON), so that a menu line reading it is kept from one mail to
// the next by value (issue 25; referee/tell's
// TestMenuRenderedAgainFindsEveryLineKept_Issue25).
//
// # Ownership
//
// It owns Brew Crafters' rules: the state, the legal answers and their menu
// facts, the events, scoring, the bots and the Cards of a game (cards.go).
// The data file brewcrafters.toml and the card catalog (every worker,
// building, partnership, market space, recipe, track, portion and ingredient
// as structured facts with the code a player types) are catalog/'s; the
// move, its text and the parser of a line notation/'s. It must not do I/O,
// read a clock, use global randomness or log; it must not hold a
// player-facing word: names in the reader's language are the templates'
// (templates/brewcrafters, card.name), and its views carry codes and data
// only (the public page's board names them through the cards,
// referee/pages/boards).
package brewcrafters
