// Package notation is how a Heaven & Ale move is written: the Move a command
// line means, its canonical text (String), the keyword, colour and card words
// and the syntax errors.
//
// It owns the move's text in both directions. It must not read a game in
// progress (only the catalog and, where a move names a player, the seats'
// names), apply a move or decide whether it is legal now: that is the game's
// package, engine/heavenale, whose Parse builds the Move with it. It is pure
// (no I/O, no clock, no global randomness, no logging). The shape is the same
// for every game (engine/doc.go, "The skeleton of a game").
package notation
