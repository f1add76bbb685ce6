// Package enginelog rebuilds a game's engine log (engine.Log: what players
// receive at the end of a game and what `referee replay` checks) from the
// game's referee log: the configuration with the seed, the setup events,
// every step in effect (steps undone by a rollback left out) and the
// errata, with the ruleset the game started with and the hash of its last
// state. It also cuts a log back for a ROLLBACK (Rollback: the steps up to
// a move, the errata in effect by then, no final hash), which the core
// replays from the seed.
//
// It owns that reading of the log entries. It must not open a transaction
// or touch the store (the core gives it the entries and a way to read a
// ruleset by its SHA-256), redact anything (the core withholds the seed
// before the end), decide anything about a game, or render a word.
package enginelog
