// Package tournament is the bookkeeping of a tournament by mail: who plays
// whom in each round (Swiss by maximum-weight matching, tables of K by
// standing, round robin by the circle method, knockout), the standings with
// their tie-breaks, and the ratings (Glicko-2 for two-player games,
// Weng-Lin Plackett-Luce for tables).
//
// It is pure: no I/O, no clock, no global randomness. Every draw comes from
// the tournament's seed, committed at the start and revealed at the end, so
// Replay can check every round's pairings from the record alone.
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
// drawn, rounds recorded before windows existed included.
package tournament
