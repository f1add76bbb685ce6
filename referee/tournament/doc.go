// Package tournament is the bookkeeping of a tournament by mail: who plays
// whom in each round (Swiss by maximum-weight matching, tables of K by
// standing, round robin by the circle method, knockout), the standings with
// their tie-breaks, and the ratings (Glicko-2 for two-player games,
// Weng-Lin Plackett-Luce for tables).
//
// It owns the tournament's record (Tournament: entrants, rounds, matches,
// results, corrections, calendar, waiting list), the draw of each round
// (pairing.go: who plays, byes, Replay; swiss.go: Swiss by matching;
// formats.go: tables, round robin, knockout; the tables' seating with the
// least repeated meetings is package tables), the standings and
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
// The tables draw (sizes, seating by standing, swaps, the least search and
// its methods) is package tables (referee/tournament/tables, its doc.go).
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
