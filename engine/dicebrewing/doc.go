// Package dicebrewing is the rules engine of Dice Brewing (Board & Dice,
// 2014/2015) for the PBEM referee, registered as "dicebrewing". It
// implements the rules specification dice-brewing.md: 2 to 4 players, the
// standard and advanced recipe setups, hidden action tokens, the unlucky
// roll, both timings of Block a Building, the four phases of a round, the
// N-1 capacity of board spaces, speed-ups, the Market and Black Market, the
// six action tokens and their windows W0-W3, recipes with one improvement,
// the end trigger and the final conversion. Code, tests and templates cite
// the rule ids of the specification (DB-x.y.z).
//
// It owns Dice Brewing's rules of play: what is legal, what a move does,
// the turn order, the score, its bots and the lookahead of a queued line,
// and the facts of each option (its group, its price). Its data file and
// what is made of it are catalog/'s, how a move is written notation/'s,
// the game as it stands (the State's data, which the State embeds, and the
// questions it answers without changing it) position/'s, and what a seat
// sees of it view/'s (the game's View calls view.Build): the shape of a
// game whose rules outgrow one package (engine/doc.go, "The skeleton of a
// game").
// It must not know mail, the store or templates, hold a word a player
// reads (every word is in templates/dicebrewing/<lang>/), read a clock or
// use any randomness but the state's.
//
// # Data
//
// Every number of the game lives in the embedded TOML ruleset
// (dicebrewing.toml): component counts, per-player-count parameters, the
// opening round of each building and market, speed-up and School
// thresholds, exchange rates, Market and Black Market prices and stocks,
// discounts, token windows, unlucky-roll credit, Summer seeds, scoring and
// tie-breakers, deadline defaults, coin denominations and the 30 recipes.
// PROVISIONAL tables carry a comment and a provisional = true key. An
// organiser override (engine.Config.Ruleset) is decoded strictly and
// validated; the game records its version and SHA-256.
//
// # Options and variants
//
// The options of DB-1.5 are recipe_setup (standard | advanced),
// hidden_action_tokens, unlucky_roll and block_building_timing (placement
// | brewing); first_player (random | 1-4) names the first player (DB-3.7,
// random draw of kind "first" otherwise). The variants are "standard" and
// "advanced" (advanced setup and hidden tokens). round_limit is a house
// rule that is NOT in the rulebook (default none): the game also ends after
// that round. Uniformly random players stall this game for ever (they
// hoard the special ingredients, so experimental recipes stay on display,
// and sell their dice), so the conformance suite and the random-game tests
// use it; greedy players end games by the rules' own trigger.
//
// # Decisions
//
// Play is sequential: Pending returns at most one decision. Its Rank is the
// seat's place in the player order (the priority holder is 0, DB-4.2).
//
//	kind     what is asked                               pass    default
//	window   a W0 or W3 window turn: PLAY one token      DONE    DONE
//	         or DONE (DB-5.8.4)
//	place    a placement turn: PLACE (1-2 items), PLAY   PASS    PASS
//	         (window W1, before placing), STORE, PASS
//	second   the second item after PLACE ... THEN:       END     END
//	         PLACE (one item), END, STORE, PASS
//	reroll   the dice of an SS1 reroll: PICK, REROLL     -       REROLL <lowest die>
//	buy      the purchase turn: BUY, PLAY (W2), STORE,   NOBUY   NOBUY
//	         NOBUY (DB-5.7)
//	brew     a brewing turn: BREW or PASS (DB-5.9)       PASS    PASS
//	reward   a die:ANY or token reward: GET              -       GET K / first token
//	         (DB-5.9.8)                                          of DB-10.6's order
//
// Turns where a player has nothing to do are never asked (DB-10.5): the
// engine applies them itself, each with an event: a placement auto-pass
// (db.pass, auto), a skipped purchase turn or brewing turn (db.skip), a
// window turn skipped for lack of a playable token or because of a
// standing TOKENS NONE, the end of a turn after THEN when no second item is
// possible (db.turn_end, auto) and the end of a purchase turn when nothing
// more can be bought or played (db.buy_end, auto). A decision with a single
// real option (picking the only die of an SS1 reroll, then rolling it) is
// left to the Table, which applies it without asking.
//
// Legal lists complete, canonical options. Two-item placement turns are
// listed in the two-step form "PLACE <item> THEN" followed by the second
// item: every two-item turn is reachable that way, and the player sees the
// first item's random result (a speed-up's new die, an SS1 reroll, an SS2
// swap) before choosing the second, as in the physical game; the one-line
// form "PLACE a, b" is accepted too. The dice of an SS1 reroll are chosen
// with PICK, one group of identical dice at a time and in a fixed order, so
// that every set has exactly one sequence; "REROLL <dice...>" in one line
// is accepted. Identical dice (same owner, colour, face, PLUS and place)
// are listed once. A brew is listed with the default dice selection
// (DB-5.9.5): it takes, for each requirement from the highest, the lowest
// die that fits, which leaves the remaining stored dice at least as high as
// any other selection would (no choice is lost; USE still names dice); the
// blue improvement is listed with the lowest qualifying blue die, Market
// discounts with the lowest qualifying blue die of AR and of ST for each
// discount level, for the same reason. Storing is a free action, but it is
// also listed in the seat's own placement and purchase turns (one die
// group per option), so that numbered replies and bots can store.
//
// # Menus (issue 22)
//
// Every legal option of every decision is numbered (engine.MaxNumbered is
// a guard no decision of this game reaches: a placement has up to about
// 150 options), so a player can always answer by the number, the copied
// line or the command; nothing is cut to an example. Each option carries
// its group (engine.Option.Group, menu.go), the kind of action, and Legal
// lists a group's options together, the groups in this order, which is the
// order of the mail: the placements slot by slot (MH1 to DS3, a speed-up
// slot "MH1+" as a group of its own, each with its THEN form), the tokens
// by type, STORE, then the moves that end the turn (PASS, DONE, END,
// NOBUY); a purchase turn starts with the Market and the Black Market, a
// brewing turn groups each recipe's improvements and reward choices. The
// templates (menu.tmpl) give each group one heading in words (what the
// slot takes and gives, what the token does, the recipe's reward and
// bonus), the price of each purchase, what a turn-ending move means, and
// the codes a player types (dice, @A, @S, name:die) once per mail in a
// legend; the short commands of a group go side by side. Rules tested in
// menu_test.go (TestMenuInWords_Issue22: every group its own translated
// heading, within 80 columns) and in the referee
// (TestEveryOptionReachable_Issue22: every option of random positions
// played by each answer form; TestGoldenDiceBrewingMenus; the reader bot
// plays whole games).
//
// Each option also says what it gives toward the reader's goal, the
// recipes on display (view/toward.go; the View's Toward and Costs, by the
// option's command, the reader's own decision only, never computed in
// Legal): a STORE, an MH3/HP2 placement or a new die (MH1, MH2, HP1)
// "helps brew" the recipes it brings closer, a BUY the recipes that need
// that ingredient; a placement that pays a die (DS1-DS3, MH2) "costs a
// die" the recipes that die would serve (an option that does both, MH2,
// says what it costs). A group with such a note lists one option a line.
// What a group's heading says of the position (that note, a speed-up
// slot's threshold, a recipe's reward) is the View's Heads, by the
// group's code, for the templates only (not in the JSON): a heading reads
// nothing else, so the referee keeps it from one mail to the next by that
// value (issue 25; TestHeadsSayWhatEachHeadingReads_Issue25 checks it
// against the rest of the view). Rule tested in toward_test.go
// (TestTowardIsWhatTheMoveDoes_DB5_9_3: each STORE and each payment of a
// stored die in random games, applied to a copy, changes exactly the
// recipes the View names).
//
// Every player the View names is named by seat too (issue 24: a seat
// handed on is named by who holds it now, which the engine does not
// know): rows carry Seat, a BLOCKB on a board its Blocks (building and
// seat; BlockedB's "MH:ann" strings are for the JSON), and the templates
// name a seat by its number, never by the engine's name.
//
// # Queues and slots
//
// Slots are "r<round>.<step>": w0, place (placement turns and second
// items), reroll, buy, w3, brew and reward. Queues end with the round
// (DB-10.1). Route applies STORE, AUTOSTORE and TOKENS at once and queues
// the rest: PLACE, END, PICK and REROLL for Phase 1; BUY and NOBUY for
// Phase 2; BREW for Phase 3; GET for the reward choice. A PASS joins the
// phase of the line before it. A PLAY or DONE joins the line after it: the
// first PLACE of the message makes it a W0 line (while W0 is still to
// come), a later PLACE the W1 of that placement turn, a BUY the purchase
// turn, the first BREW window W3; with no line after it, it joins the line
// before it (never a brewing turn: refused). This resolves the two
// sentences of DB-10.1 that disagree about a PLAY between a BUY and a BREW.
// The purchase turn uses all the Phase 2 lines of a message (DB-10.1a):
// Route appends NOBUY to the last one, so the turn ends after it; a NOBUY
// that arrives when its purchase turn is already over does nothing. Lines
// for a step that is over, PLACE lines after passing (DB-5.3.7) and BUY
// lines for a market closed this round are refused on receipt.
//
// # Commands
//
// Commands are those of §10.3: STORE, AUTOSTORE, TOKENS NONE [ROUND|GAME]
// (and TOKENS ASK to cancel), PLACE, PASS, PLAY, DONE, BUY, NOBUY, BREW,
// plus END, PICK, REROLL and GET for the sub-decisions. A die is written
// [owner:]<colour><face>[+][@A|@S|@<slot>], with the colour synonyms of
// §10.3; "+" names a die with a PLUS token. Without a place, PLACE, SS1,
// SS2 and discounts look in AR then ST, BREW and USE in ST, STORE in AR;
// token targets must be unambiguous. References are resolved when the move
// is applied, so queued lines see the position of their turn. An owner is
// a seat's name in any case or P<n> (seat n; read first, even where a seat
// is named "p2"); the commands this game writes name an owner by name only
// when it is one plain word that no other seat's name is in another case,
// else P<n> ("Ann" next to "ann" would read as the first), and
// NumberSeats (engine.SeatNamer) writes the seats the referee asks by
// number, for a seat handed on (issue 24,
// TestMenuLinesNameTheSeatsHolder_Issue24 in referee/tell). CLEAR,
// STATUS, HELP and RULE are the referee's.
//
// # Random outcomes
//
// Every die roll is of kind "dice": the start-of-round roll goes player by
// player in player order, each player's AR in colour order (Y, K, G, B);
// then the new die of a speed-up, the dice of an SS1 reroll in the order
// named, every supply die of the colour of an SS2 swap, a REROLL token.
// Card draws are of kind "draw" (a script names the card turned up). The
// first player is drawn at setup (kind "first"), and so is the round-1
// roll: that happens in NewState, before a Table can script anything, so
// the seed decides them (or the first_player option).
//
// # Rulings
//
// The engine follows the rulings of §9 of the specification. Where the
// specification left a choice, it does this:
//
//   - A die's value (face + 1 with PLUS) counts for every check, the
//     unlucky roll included: a 1 with a PLUS earns no credit. MH3 and HP2
//     accept faces 1-5 (a PLUS'd 5 included).
//   - Dice rolled during Phase 2 (a REROLL in window W2) are marked as
//     rolled this round like those of Phase 1 (DB-5.2.2).
//   - A die blocked by an opponent's SHIELD cannot be targeted by its
//     owner's tokens either; TAKE keeps the die's PLUS and SHIELD marks.
//   - AUTOSTORE also applies at once when it is set, and compares values.
//   - The purchase turn lasts while something can be bought or a token
//     played in W2 (a bought token may be played at once); PASS there means
//     NOBUY. PASS in the second step of a placement turn ends the turn and
//     passes for the round.
//   - GET may answer some or all of a brew's choices (colours answer
//     die:ANY rewards, token codes token rewards, in order); the others are
//     asked in a reward decision, and a choice nothing can fill is lost.
//     USE must name exactly the dice of the base recipe.
//   - A claim for 2 seeds (DS2) is two claims of one seed each. Under
//     block_building_timing = brewing, a blocked SS3 gains no blue die.
//   - With hidden tokens, skipping a player who has no token playable in a
//     window shows that their tokens do not fit it; this cannot be avoided
//     without fake questions.
//   - DB-6.2 makes the Black Market stocks public and DB-6.6 the type of a
//     face-down token hidden; a stack that shrinks when a player takes a
//     face-down token (a purchase, a reward) would name it. So with hidden
//     tokens the stocks every reader sees (View.BlackMarket, and so the
//     mails, pages and boards drawn from views) leave out only the tokens
//     played (revealed, DB-5.8.3) and the reader's own face-down tokens:
//     the others' stay counted in, and View.BMFaceDown says how many
//     tokens the others hold face down. Events of a face-down take reach
//     the others redacted (no type). What the rules make public still
//     tells something: the price paid (coins are public, DB-6.4) narrows a
//     purchase to the types of that price, and a player who asks for a
//     type that is gone learns it is gone (the legal options of their own
//     purchase or reward choice list only the types really left; their
//     view marks those stacks Gone, so that the purchase prompt lists what
//     can be bought).
//
// # Bots
//
// "random" is engine.RandomBot; "greedy" (Greedy) keeps useful dice in
// storage, places for new and improved dice towards the recipe it is
// closest to, buys what the display needs, brews the most valuable recipe
// with an improvement when it can, and plays a few tokens (BLOCKR, TAKE,
// PLUS in W3) when they clearly help.
package dicebrewing
