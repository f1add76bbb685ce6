// Package lifecycle holds the rules of a game's life over its record
// (package referee/records): the id of a new game, the seat order drawn
// from the seed at the start, the seats' clocks started, kept or stopped
// from the decisions the table waits for, what a tick finds due (an
// expired deadline, a reminder, a digest), when the game next wakes, a
// missed move counted and a seat handed to a bot after too many, the end,
// the result by place (ResultLine) and each seat's score (Scores).
//
// It owns these decisions, each a pure function of the record, the
// engine's plain values and the time it is given: the rooms that drive a
// game (referee/seating, referee/settle) and the core call them in the
// unit of work, then log, announce and persist what they changed. It must
// not touch the store, read the clock or global randomness (the seat
// order comes from the game's seed), render a word, or apply a move
// (referee/settle drives the engine's table).
package lifecycle
