// Package view is what one seat may see of a game of Dice Brewing (§10.4,
// DB-6.2 to DB-6.6): the View and its parts (view.go), structured data that
// the templates render as the personalised summary and webhook clients read as
// JSON, never prose; Build (build.go), which reads a position for a reader,
// hiding what the reader may not see (the deck's order, others' face-down
// action tokens, DB-6.6); and what each option of the reader's own decision
// gives toward a recipe on display or costs it (toward.go, issue 22).
//
// It owns the reading of a position for a seat. It must not change the
// position or decide anything about a turn: it reads the Position
// (engine/dicebrewing/position) and asks the game's rules only the options
// of a decision and the reading of a line (Moves, which the game's State
// answers); the game's package, engine/dicebrewing, calls Build from its View.
// It is pure (no I/O, no clock, no global randomness, no logging). The shape
// is that of a game whose rules outgrow one package (engine/doc.go, "The
// skeleton of a game").
package view
