// Package catalog is what Brew Crafters is made of: the game's data file
// brewcrafters.toml (embedded as DefaultRuleset), its Go types, their decoding
// and validation (ParseRules, then the checks that name a BC- rule) into the
// Rules the engine plays with, the loader DataFile (a nil ruleset is the
// default, parsed once; an organiser's is parsed once per SHA-256), the
// components' names (research tracks, brewing slots, ingredient classes and
// building aliases) and every worker, building, partnership, market space,
// recipe, research row and collaboration portion as engine.Card facts
// (cardset.go), and the lookups from a code or a card name to its id
// (lookup.go).
//
// It owns the data file and everything read from it. It must not hold a game
// in progress or a rule of play (those are the game's package,
// engine/brewcrafters), and it imports only engine: like every engine package
// it is pure, with no I/O, no clock, no global randomness and no logging. The
// shape is the same for every game (engine/doc.go, "The skeleton of a game").
package catalog
