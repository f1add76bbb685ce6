// Package query holds the read-only answers of the core that need no
// record of its own: the data of the public pages (the tournaments' from
// the desk, a game's public view from the core), read on a snapshot
// through a narrow interface (Core), and the HELP of a command word or a
// card for a seat's reader.
//
// It owns the shape of those answers (GamePage, GameLink, the pages'
// addresses and keys, the order of a finished game's places) and the
// lookups behind HELP (aliases and argument words in every language, the
// cards a topic names, each rendered with the game's "card" template) and
// a seat's HELP answer itself (Help: the game's help, then the referee's
// with its seat commands' rows).
//
// Every code a mail shows a player answers HELP (issue 22): a command or
// argument word in any of our languages, a card's code or name, or a code
// with a number whose family has help of its own (helpTopic: HELP W1 is
// the token windows' help, HELP R12 the track's resource spaces', HELP X2
// the market spaces'); the families' words are templates/<game>/*/help.tmpl.
// TestHelpEveryCodeAMailShows_Issue22 asks every code of the mails of
// whole games, in every language.
//
// It must not write anything, open the store or decode a record (it asks
// the core through Core and Snapshot, and the core decides what a
// spectator may see), read the clock, or hold a word (every word comes
// from templates/).
package query
