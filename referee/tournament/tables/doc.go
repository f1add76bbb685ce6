// Package tables is the tournament's tables draw: who sits with whom in a
// round of tables of K (Draw). It owns the tables' sizes (Sizes), the
// seating by standing, the single swaps, the least search for the seating
// with the least repeated meetings (draw.go: whole, resplits, branch and
// bound; free.go: the search for a seating with none; dual.go: the
// entrants' weights) and the names of its methods that a round records
// (Exact, Least, Bound, Dual). It takes the entrants seated in standing
// order, their meetings before the round and their seats at small tables
// before, and returns the tables and the method. It must not read a
// tournament's record, standings, byes or seats' order (package
// tournament does, formats.go), do I/O, read a clock, draw from any
// randomness, log or word anything: a draw is a function of its input and
// its counted steps, so it replays the same on every machine.
//
// # Who sits with whom
//
// A tables round seats the entrants by standing (the small tables as
// the tournament's doc.go, "Tables of different sizes", says), then swaps one entrant for another between tables up to two
// apart while that lowers the repeated meetings (a pair that met twice
// counts twice). Single swaps stop at a local least, so a round drawn now
// then searches on (draw.go, seater.least) and seats no repeated
// meeting that some seating of the same entrants at tables of the same
// sizes avoids (issue 24), keeping the small tables' seats as the swaps
// give them (to entrants with the same counts of small seats before):
//
//   - a field of at most 3,000,000 seatings (up to 15 entrants at tables
//     of 3, 16 at tables of 4 or 5, more with byes; TestSeatingsCounted)
//     is searched whole by branch and bound, and seated with the least
//     repeated meetings of any seating, the first in standing order of
//     those (tables numbered by their best-placed entrant): held against
//     an exact search of every seating on 500 random tournaments of 3 to
//     13 entrants at tables of 3, 4 and 5, small tables or byes, scaled
//     or not, withdrawals, two to six rounds: 2,007 rounds, none costlier
//     (TestTablesAgainstExact_Issue24 and its NoAvoidableRematch; the
//     swaps alone were costlier in 70, 19 of them with a repeated meeting
//     that could be avoided);
//   - a larger field takes each table with a repeated meeting and tries,
//     until one lowers the repeated meetings: seating it anew with each
//     of the six tables nearest it (by the same search); swapping one of
//     its entrants for one of a farther table (nearest first); seating
//     it anew with each farther table; then with each two of the six
//     nearest; and does so again while any table improves (at most 20
//     times over the tables), within 10,000,000 branches and swaps
//     tried a draw (a count, not a time, so a draw replays the same).
//     On the small fields, where the exact search tells the least, it
//     finds the least in every round
//     (TestTablesResplitAgainstExact_Issue24; seating anew with one
//     table only leaves 31 rounds costlier, 8 avoidably); on 24 random
//     tournaments of 16 to 1,000 entrants it seats no repeated meeting
//     in every round with more tables than the most opponents one of its
//     entrants met, where the Hajnal-Szemeredi theorem (an equitable
//     colouring of who met whom) shows a seating with none exists
//     (TestTablesNoRematchAtLarge_Issue24: 0 repeated meetings in those
//     153 of 170 rounds, where the swaps alone seat some in 24; in the
//     other 17 rounds, fields of 15 to 35, it seats 64, and in each round
//     that seats one the SAT solver proves one unavoidable and certify
//     the draw the least); and it
//     undoes fields of 2,000 where runs of 40 all met each other
//     (TestTablesLeastUndoesBlocks_Issue24: all at tables of 3, 4 and 5);
//   - every search is branch and bound with a lower bound (lower): each
//     entrant not yet seated sits with at least as many of the others
//     not seated as the smallest table left seats less one, so with at
//     least its that many fewest meetings with them, and a meeting counts
//     for both its entrants; a branch stops when the meetings seated so
//     far and that bound reach the best found (which changes no result
//     of a whole search, only its steps). A try that cannot improve (two
//     tables of entrants who all met) then costs one step, not every
//     seating: without the bound the budget ran out at tables of 5 in
//     the blocks above and left 435 of 1,742 repeated meetings;
//   - a field of at most 60 entrants still seating a repeated meeting
//     after the resplits is first searched for a seating with none
//     (free.go, seater.free): depth first, one entrant at a time,
//     next the entrant with the fewest tables it may still join (a table
//     not full where it met no one; then the one who met the most, then
//     standing order), tried at each of those tables that takes the
//     fewest tables from the others first (one empty table of each size),
//     back as soon as some entrant has no table left, keeping the small
//     tables' seats as above, within 1,200,000 steps (each entrant
//     looked at and each table tried counts one; the rounds below that
//     it seats took at most 1,013,880). That search is skipped where a
//     cheap check proves every seating repeats a meeting
//     (unavoidable.go, seater.unavoidable): an entrant with no choice
//     of mates for the smallest table among whom none met it or another
//     (its mates to be), or more entrants who all met each other than there
//     are tables (two share a table in any seating; each sought within
//     20,000 steps). It changes no seating (free finds none there) and
//     is never wrong on the planted fields and on 400 small fields tried
//     whole (TestTablesUnavoidableOnlyWhenProven_Issue24, which counts
//     how many of those with none it proves: 242 of 249); in the rounds
//     of TestTablesMiddleCertified_Issue24 and
//     TestTablesNoRematchAtLarge_Issue24 it proves 74 of the 92 where the
//     search finds none, which cost it 391,034 steps; the 18 left cost
//     4,209,588 (issue 24 left open). Failing that, it is searched
//     whole once more by the same branch
//     and bound, its entrants who met the most opening the tables first,
//     within 2,000,000 steps, and seated by the cheapest seating found
//     (tables and seats in standing order). That search (Dual,
//     dual.go) also bounds by the entrants' weights, a Lagrangian
//     bound: with a weight u for each entrant, a seating costs the sum of
//     the weights plus, over its tables, each table's meetings less its
//     entrants' weights, which is at least the least of that over every
//     table of its size (found by its own branch and bound). Up to 60
//     subgradient steps raise the weights (whole numbers: meetings count
//     64, so a draw replays the same on every machine; at most 400,000
//     steps of the 2,000,000), and a branch stops when the meetings
//     seated, the weights of the entrants left, the least of each table
//     left and, for a table being filled, its own so far reach the best
//     found. Where everyone met many this bound is far above lower's: a
//     round of 27 entrants at tables of 5 that Bound left at 18
//     repeated meetings after its steps is seated at 17 and the search
//     ends whole. Held against certify, the test's own branch and bound
//     with its own Lagrangian bound (floating weights, up to 300
//     subgradient steps), on 50 random tournaments of 17 to 60 entrants
//     (tables of 3, 4, 5, small tables of any size or one short or byes,
//     scaled or not, withdrawals, four to ten rounds): it finds no
//     cheaper seating of any round (TestTablesMiddleCertified_Issue24: of
//     349 rounds, 302 seat no repeated meeting, 39 are certified the
//     least, 8 are unknown; Bound's draw had 2 cheaper). Of the
//     8, a SAT solver (gophersat, in the test: each entrant at one table,
//     each table full, no two who met at one table) proves a repeated
//     meeting unavoidable in every one: the draw misses no seating with
//     none. Without seater.free it missed two (seeds "middle5" round 6
//     and "middle40" round 8, 40 and 51 entrants at tables of 5, where
//     it seated 1 and 5), and seed "middle7" round 10 (42 entrants at
//     tables of 4, scaled) seated 6 where one of 3 exists; with it those
//     tournaments seat otherwise from those rounds, and that round is
//     certified the least or seats none. On fields planted with a seating of none (4 to 12
//     tables of 3, 4, 5, up to three one short, kept or not, meetings
//     0.1 to 0.5) seater.free finds one in 295 of 300 and runs out of
//     steps in 5, four with meetings near 0.5
//     (TestTablesFreeFindsPlantedSeating_Issue24): issue 24 left open;
//
// The search is a draw method recorded with the round as the tournament's
// Round.Pairing is for Swiss: a round it changed records Dual (Bound, the
// search without the entrants' weights, and Least, without the
// lower bound and the last whole search, for the rounds drawn before
// them); a round the swaps already seat without a
// repeated meeting, or that the search cannot improve, records
// Exact ("", the tournament's PairingExact) as every tables round drawn before the search, and
// Replay draws those by the swaps alone (TestDrawsUnchanged pins all
// four: its tables line, drawn by the swaps, is the digest of the code
// before the search, its least line that of the code before the bound,
// its bound line that of the code before the weights;
// TestTablesOldRoundsReplay_Issue24 replays records drawn by the swaps,
// by Least and by Bound that the newest draw seats
// otherwise; TestTablesCrowdedDrawsPinned_Issue24 pins the draws of
// tournaments where most seatings repeat a meeting, where a change of a
// step's cost shows that TestDrawsUnchanged's fields do not). The 3,000,000 seatings, the six tables, the order of the
// tries, the 10,000,000 branches, the bound and what a step of it costs
// (one per entrant summed), the 60 entrants and the 2,000,000 steps are
// part of Bound and Dual, and the weights' scale, steps
// and what their searches cost (one per entrant looked at), and the
// search for a seating with none, its order and its steps, of
// Dual: changing them is a new method.
//
// # Where it is tested
//
// The draw's own tests are here (free_test.go, draw_test.go: the seatings
// counted, the blocks, the planted fields, the Blocks benchmarks). The tests
// that hold it to its rule round by round in whole tournaments (the exact
// search, certify, the SAT check, old rounds replayed, the Crowded
// benchmarks) are the tournament's (referee/tournament/tables*_test.go,
// bench_test.go): they play a tournament to get each round's field.
package tables
