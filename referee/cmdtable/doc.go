// Package cmdtable is the referee's command table: every command of every
// audience (a seat's, a registered player's, the plain address's, an
// organiser's) as one row each, gathered from the families of the doors
// that run them (the seat's and the player's door, package
// referee/commands; the organiser's door, package referee/organise, whose
// tournament rows are the desk's).
//
// It owns the rows and the lookups over them: who may use a keyword
// (Lookup), the keyword sets the readers of a mail use (SeatKeywords,
// PlayerKeywords, InfoKeywords, ...), the order of the help lists
// (Listed, HelpRows; the organiser's help around them, OrgHelp) and the
// test of whether a word is a command keyword of the referee or of any
// game in any language (IsKeyword, held as a set of words by KeywordSet
// for the readers of prose; KnownIn: in one game's mail). Adding a
// command touches one family's rows and its templates; the dispatchers,
// the help lists and the keyword sets are read from here.
//
// It must not run a command (the doors do, and the core is their host),
// read a record, the store or the clock, or hold a word (every word of a
// help list comes from templates/referee).
package cmdtable
