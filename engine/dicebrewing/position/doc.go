// Package position is a game of Dice Brewing as it stands: the Position (every
// die, card, stock, player's holdings and round flag, the JSON the referee
// stores, position.go), the vocabulary it is written in (decision kinds,
// steps, die locations, option names) and the questions it answers without
// changing anything (questions.go): whose order, which dice a seat may brew
// or use, what a recipe still misses, whether a space is open (DB-4.3,
// DB-5.4.2, DB-5.4.3, DB-5.8.5), a seat's unlucky-roll credit and discounts,
// where an action token may be played.
//
// It owns the game's data and its read-only questions, so that the game's
// readers (its View, engine/dicebrewing/view) read it without the rules of
// play. It must not change a position, draw at random, parse or apply a move
// or decide a turn: the game's package, engine/dicebrewing, embeds the
// Position in its State and does all of that. It imports only engine and the
// catalog, and is pure (no I/O, no clock, no global randomness, no logging).
// The shape is that of a game whose rules outgrow one package (engine/doc.go,
// "The skeleton of a game").
package position
