// Package catalog is what Dice Brewing is made of: the game's data file
// dicebrewing.toml (embedded as DefaultRuleset), its Go types, their decoding
// and validation (ParseRules, then the checks that name a DB- rule) into the
// Rules the engine plays with, the loader DataFile (a nil ruleset is the
// default, parsed once; an organiser's is parsed once per SHA-256), the
// components' names (dice colours, board spaces, buildings, action tokens and
// windows) and the recipe cards, ingredients and action tokens of the data
// file.
//
// It owns the data file and everything read from it. It must not hold a game
// in progress or a rule of play (those are the game's package,
// engine/dicebrewing), and it imports only engine: like every engine package
// it is pure, with no I/O, no clock, no global randomness and no logging. The
// shape is the same for every game (engine/doc.go, "The skeleton of a game").
package catalog
