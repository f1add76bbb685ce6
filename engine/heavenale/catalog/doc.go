// Package catalog is what Heaven & Ale is made of: the game's data file
// heavenale.toml (embedded as DefaultRuleset), its Go types, their decoding
// and validation (ParseRules, then the checks that name a HA- rule) into the
// Rules the engine plays with, the loader DataFile (a nil ruleset is the
// default, parsed once; an organiser's is parsed once per SHA-256), the
// components' names (resource colours, track spaces, sheds and garden spots)
// and every resource tile, monk, privilege card, start space, scoring spot,
// barrel goal and shed as engine.Card facts (cardset.go).
//
// It owns the data file and everything read from it. It must not hold a game
// in progress or a rule of play (those are the game's package,
// engine/heavenale), and it imports only engine: like every engine package it
// is pure, with no I/O, no clock, no global randomness and no logging. The
// shape is the same for every game (engine/doc.go, "The skeleton of a game").
package catalog
