// Package tournament is the bookkeeping of a tournament by mail: who plays
// whom in each round (Swiss by maximum-weight matching, tables of K by
// standing, round robin by the circle method, knockout), the standings with
// their tie-breaks, and the ratings (Glicko-2 for two-player games,
// Weng-Lin Plackett-Luce for tables).
//
// It owns the tournament's record (Tournament: entrants, rounds, matches,
// results, corrections, calendar, waiting list), the draw of each round
// (pairing.go: who plays, byes, Replay; swiss.go: Swiss by matching;
// formats.go: tables, round robin, knockout; tablesdraw.go: the search
// for the tables seating with the least repeated meetings), the standings and
// tie-breaks (standings.go), the ratings (rating.go) and the files made
// from a record (export.go). It must not do I/O, read a clock, draw from
// global randomness, log, word anything a reader reads (no prose: every
// word is the caller's, from templates), nor know games, mail or the
// store: the caller hands it the record and the time, and stores what it
// returns. Every draw comes from the tournament's seed, committed at the
// start and revealed at the end, so Replay can check every round's
// pairings from the record alone. NextRound only reads the record, so a
// round can be drawn on a snapshot outside the write lock. The settings
// are encoded before the entrants and rounds: OrgLangOf reads the
// organiser's language from a record's head, whatever its size (every
// game that ends asks for it).
//
// # Swiss pairing
//
// A Swiss round is a maximum-weight matching (Edmonds' blossom algorithm,
// matching.go) of the entrants in standing order, whose weights put, in
// order of precedence: everyone paired, no rematch, no third seat
// imbalance, the least sum of squared score differences, seat balance,
// partners close in the standings. Exact matching grows as n^2.3 and more,
// so a field larger than one window (400 entrants) is paired window by
// window down the standings, as the Dutch system pairs score groups with
// floaters: each window is those floated down from above, the next 200
// entrants and a look-ahead of the 200 below them; its pairs with an
// entrant above the look-ahead are kept, whoever it left out floats down,
// and the last window must pair everyone. A second pass matches again the
// entrants around each seam between windows when that costs less. If the
// windows leave a rematch, the round is drawn again with windows twice as
// large, up to the exact matching of the whole field: a rematch remains
// only where the exact matching has one too. The method is recorded with
// the round (Round.Pairing), so Replay draws a round exactly as it was
// drawn, rounds recorded before windows existed included. The windows'
// matchings, one after the other, share one set of the arrays whose size
// is the number of edges (matchBuf), which changes no matching
// (TestMatchBufReusedMatchesAsFresh_Issue24; issue 24: fresh ones per
// window were 92 MB of a 10,000-entrant draw's 121 MB, BenchmarkSwiss10000).
//
// # Tables of different sizes
//
// When the entrants do not divide evenly, some tables are one short (or
// more). A seat there must be neither favoured nor punished, so (for
// records with Settings.Scaled, which Defaults sets) a table of k seats
// where a full one has K reads its places on the full table's scale:
// place p (1..k) stands for the fractional place 1+(p-1)(K-1)/(k-1), whose
// points are those of the full table's places on either side, weighted by
// nearness; seats that share places share their points. The first earns
// the first place's points, the last the last place's, and with evenly
// spaced points (the default) a seat expects the same points at any
// table. In Buchholz and Sonneborn-Berger a game at a small table counts
// (K-1)/(k-1) times, since it had fewer opponents. The small tables go to
// the run of consecutive entrants in the standings with the fewest seats
// at a small table so far (not always to the bottom), and the swaps that
// avoid repeated meetings keep that count even.
//
// Worked example (tested): tables of 3 with points 2, 1, 0 and one table
// of 2. At the table of 2 the winner earns 2 and the loser 0 (the old
// rule gave the loser 1 of 2 points); a draw there earns 1 each. At a
// table of 3 one short of 4 (points 3, 2, 1, 0), the places earn 3, 1½
// and 0. Round 1: 0>1>2, 3>4>5, 6>7; round 2: 7>0>3, 1=4>6, 5>2. Entrant
// 7 has 0+2 points; their Buchholz is 2×2 for 6 (one opponent at the
// table of 2 counts twice) plus 3+2 for 0 and 3: 9, level with 6.
//
// # Who sits with whom
//
// A tables round seats the entrants by standing (the small tables as
// above), then swaps one entrant for another between tables up to two
// apart while that lowers the repeated meetings (a pair that met twice
// counts twice). Single swaps stop at a local least, so a round drawn now
// then searches on (tablesdraw.go, seater.least) and seats no repeated
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
//     (tablesfree.go, seater.free): depth first, one entrant at a time,
//     next the entrant with the fewest tables it may still join (a table
//     not full where it met no one; then the one who met the most, then
//     standing order), tried at each of those tables that takes the
//     fewest tables from the others first (one empty table of each size),
//     back as soon as some entrant has no table left, keeping the small
//     tables' seats as above, within 1,200,000 steps (each entrant
//     looked at and each table tried counts one; the rounds below that
//     it seats took at most 1,013,880). Failing that, it is searched
//     whole once more by the same branch
//     and bound, its entrants who met the most opening the tables first,
//     within 2,000,000 steps, and seated by the cheapest seating found
//     (tables and seats in standing order). That search (PairingDual,
//     tablesdual.go) also bounds by the entrants' weights, a Lagrangian
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
//     round of 27 entrants at tables of 5 that PairingBound left at 18
//     repeated meetings after its steps is seated at 17 and the search
//     ends whole. Held against certify, the test's own branch and bound
//     with its own Lagrangian bound (floating weights, up to 300
//     subgradient steps), on 50 random tournaments of 17 to 60 entrants
//     (tables of 3, 4, 5, small tables of any size or one short or byes,
//     scaled or not, withdrawals, four to ten rounds): it finds no
//     cheaper seating of any round (TestTablesMiddleCertified_Issue24: of
//     349 rounds, 302 seat no repeated meeting, 39 are certified the
//     least, 8 are unknown; PairingBound's draw had 2 cheaper). Of the
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
// The search is a draw method recorded with the round as Round.Pairing
// is for Swiss: a round it changed records PairingDual (PairingBound, the
// search without the entrants' weights, and PairingLeast, without the
// lower bound and the last whole search, for the rounds drawn before
// them); a round the swaps already seat without a
// repeated meeting, or that the search cannot improve, records
// PairingExact ("") as every tables round drawn before the search, and
// Replay draws those by the swaps alone (TestDrawsUnchanged pins all
// four: its tables line, drawn by the swaps, is the digest of the code
// before the search, its least line that of the code before the bound,
// its bound line that of the code before the weights;
// TestTablesOldRoundsReplay_Issue24 replays records drawn by the swaps,
// by PairingLeast and by PairingBound that the newest draw seats
// otherwise). The 3,000,000 seatings, the six tables, the order of the
// tries, the 10,000,000 branches, the bound and what a step of it costs
// (one per entrant summed), the 60 entrants and the 2,000,000 steps are
// part of PairingBound and PairingDual, and the weights' scale, steps
// and what their searches cost (one per entrant looked at), and the
// search for a seating with none, its order and its steps, of
// PairingDual: changing them is a new method.
//
// # Forfeits and ratings
//
// A forfeit gives its points like any result and counts in Won/Drawn/
// Lost, but it is no game played: not in Played, and (Settings.Forfeits
// "skip", the default) not in Buchholz, Sonneborn-Berger nor head to
// head; "count" counts it there as a game. Byes never count in the
// tie-breaks. Every game with a result is rated (RateMatch), adjudicated
// ones too, and those are counted in Rating.Adjudicated so the rating
// can be marked; forfeits and byes are not rated.
//
// # The director's corrections
//
// The organiser may change the record between draws (issue 24), and every
// round still replays from the seed: Replay draws each round from the
// record as the draw saw it. A bye asked for a round (Entrant.Byes, before
// the round is drawn) keeps the entrant out of the pairing and adds a bye
// worth half a bye's points (Match.Requested). A late entrant (appended,
// Entrant.Joined) is paired from that round on; Replay leaves out the
// entrants who joined after a round. A SWAP of two entrants after a draw
// is recorded with the round (Round.Swaps) and applied by Replay to the
// round it draws. A changed result keeps the one it replaced and when
// (Match.Changes): the rounds drawn before the change are drawn again with
// the old result. A double forfeit ranks every seat last: each earns the
// last place's points and a loss, not the shared-place draw. A cap on the
// entrants puts who signs up beyond it on the waiting list (Waitlist).
//
// # Exports
//
// export.go turns the record into the files a director reaches for, as
// pure functions returning bytes: the standings, every result and a
// round's pairings as CSV (encoding/csv; column names are field names for
// programs), the crosstable as data (Crosstable, for pages) and as CSV,
// FIDE's Tournament Report File (TRF16) for two-player events (a line is
// a person: after a REPLACE each player who held a place has their own
// line with only the rounds they played, and the lines of a place add up
// to its standing; TestTRFNamesWhoPlayed_Issue24), and an iCalendar feed of the rounds (ICS, through github.com/arran4/golang-ical).
// Nothing a player reads is worded here: the feed's event titles come
// from the caller, in the reader's language (the feed names no player).
//
// A game handed on after a move (REPLACE during the game, Stint.Into) is
// named with both holders in each file, as its format allows (issue 24;
// TestExportsNameHandedOnGames_Issue24): results.csv and pairings.csv
// name who finished the seat's game (name) and who started it
// (started_by, first to last: name is then the substitute); the
// crosstable's cell names who played a round its line's holder did not
// play alone (CrossCell.Players; "[Ann>Zed]" in the CSV, the last the
// substitute); the standings are the place's, named by its holder now,
// with the earlier holders who played for it and their rounds
// (held_before: "Ann:1-2,~3 | Bob:~3", ~ a game begun and handed on).
// The TRF writes the game on the substitute's line, not rated: W, D, L
// (TRF16's codes for a win, draw, loss not rated) on both sides. A TRF
// line is a person and a cell has one opponent, with no partial game:
// the finisher held the place at the result and their line carries the
// place's points, while FIDE rates a game between two persons and this
// one had three, so it is credited as played to neither for rating; the
// one who started it has Z for the round (a line only if they played a
// complete round).
//
// # Who played
//
// Who played a round for a place is read by position in its line of
// holders (Entrant.Before, then the current holder; numbered from 1 as
// Entrant.Holder and the person pages' addresses count them), never by
// name nor by comparing stints: Entrant.PlayedHolders(n) are the holders
// who began round n's game and handed it on after a move, then the one
// who finished it; Played are their names, and
// Holders numbers each earlier holder who played (Held.K). Two holders
// may share a name, and two stints may be equal (one replaced, back, and
// replaced again at the same point): each is their own holder
// (TestPlayedHoldersByPosition_Issue24). The line of holders is walked
// in one place, Entrant.Tenures: each holder's first round no one before
// them finished, their last whole round, the round whose game they took
// over and the one they handed on; Holders is read off it, and so are the
// person pages and the mails' lines of who played for a place
// (TestTenuresByPosition_Issue24).
//
// A page of one place needs its own crosstable cells, not the table:
// Tournament.Cell is one seat's cell as Crosstable has it, but for the
// opponents' lines (the standings'), and Crosstable is made of it.
package tournament
