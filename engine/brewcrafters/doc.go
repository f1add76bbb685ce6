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
// # Flow
//
// Twelve seasons (BC-1.3) of: S0 season start (Intern pickup, worker season
// effects, Winter Annual benefits: decision "start"), S1 restock, S2 Market
// placements (decisions "market", "extra" for the Market Helper, "intern" for
// an Intern), S3 Brewery tokens (decision "brewery"), S4 season end (Farm and
// Community Farm harvest in Fall, operating costs in Winter, final scoring
// after Year 3 Winter). Interrupts come first: "discard" (storage overflow,
// BC-5.1.2), "hire" (Employment Agency, BC-5.12.3), "pick" (Community Farm
// leftovers, BC-5.12.4). Every decision is sequential, in turn order.
//
// # Commands (BC-10.5)
//
//	M [space] <keyword> [args] [+BASIC x..] [+ADV x..]   Market placement
//	B PROCESS [BREW r[@slot] ...] [MASH] [YLAB]         Process Beer
//	B COLLAB <M|H|Y|ADV x> [THEN PROCESS ...]           Collaborate (3-5p)
//	B <part> THEN <part> ...                            free actions between
//	B RESEARCH <track> [choice] | B INSTALL <b> [+OPS x x x]
//	B SECRET <recipe> | B CFARM <x> | B PASS
//	ANNUAL <track> <args>|SKIP, DONE                    Winter S0
//	DISCARD, EXCHANGE, LOAN, PLANT, HARVEST             free actions
//	PICK x, HIRE id|NONE, INTERN BREWERY, PASS
//	SET DISCARD|PICK|ANY|ADV|INTERN|ANNUAL <value>      standing orders
//
// A "QUEUE " prefix is accepted and ignored: every M, B, ANNUAL line that is
// not for the current decision is queued by the Table for the seat's next
// decision of that kind (ranked lists with '|' and ELSE PASS work there).
//
// # Rulings recorded here (beyond the spec's section 9)
//
//   - "Any ingredient" trigger choices (Breakthroughs, Importer, Research
//     Assistant, Specialty Buyer) never stop the game: they come from the
//     command's +BASIC/+ADV/+OPS words, else SET ANY / SET ADV, else the
//     least-held type (ties M>H>Y, F>S>C), as BC-10.6 proposes for timeouts.
//   - Yeast Lab Technician's free research move on hiring goes to the least
//     advanced track (first in BASIC, OPS, BREW, ADV order), Experimental
//     choices by preference.
//   - Free actions are allowed only while the seat owes a decision.
//   - Overflow is checked once at the end of each command (BC-5.10.1); the
//     End-of-Fall overflows are resolved in turn order, one seat at a time.
//   - The Hire Interns and Employment Agency fees take a Loan when short.
//   - Legal lists each Process Beer brew step once per slot arrangement up to
//     the T1/T2 symmetry, operating the Mash Tun and Yeast Lab whenever they
//     apply (they only lower the cost); other arrangements are still accepted
//     when typed. Traders Market options take the full amount due.
package brewcrafters
