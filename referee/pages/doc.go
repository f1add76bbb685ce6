// Package pages serves the public pages of tournaments and their games on
// the daemon's HTTP listener: plain HTML readable on a phone, no script,
// the board as inline SVG where the game draws one. A page's address holds
// an unguessable key; only tournaments their organiser listed appear in
// the index. Every game page shows the spectators' view only.
//
// The pages are: the index (/t/), a tournament (/t/<id>-<key>), its
// crosstable (…/crosstable), a player's page (…/p/<n>: their standing,
// games and rating after each round), the page of each person who held a
// place (…/p/<n>/<k>: the games they played, issue 24), its files
// (…/<name>, files.go) and a game (/g/<game>-<key>). They need no webhook credential: the HTTP
// listener serves them for an organiser whose mail comes by IMAP.
//
// The rules every page keeps (issue 24; chromium_test.go checks them in
// a browser at 360 and 1280 px in every language):
//
//   - Width: no box is wider than itself, at 360 px or 1280 px (the
//     Chromium test measures every element's scrollWidth): nothing scrolls
//     or is cut sideways. The crosstable folds on a phone and past seven
//     rounds at any width: a line per player, its points, tie-breaks and
//     rounds wrapped under the name, each labelled (R3, Buch.); long words
//     break; a table head, a number and a W-D-L record never wrap, in a
//     table (nowrap) or in a sentence (joined by non-breaking hyphens).
//   - First screen: a game's result and board come first; its table is
//     folded when a board is drawn, its log is folded with the latest
//     entries shown.
//   - Words: every title says what the page is, every word is in the
//     reader's language (?lang=, else Accept-Language, else English; no
//     English word of templates/langcheck's list in another language),
//     every thing named by its name, never by a data file's code
//     (codes_test.go; a reference a player types, M8 or HO5, may show),
//     and every link to another page carries that language.
//   - A place that changed hands (REPLACE) names, after its holder in the
//     standings, the crosstable and the player page's title, each earlier
//     holder who played and their rounds (tour.replaced;
//     TestPagesNameReplacedHolders_Issue24). A game's seat that changed
//     hands is named, in the players' line and the result, by every
//     holder who played it and their moves, substitutes marked
//     (GamePage.Holders, the common words seat.holders;
//     TestGamePageNamesWhoHeldTheSeat_Issue24). A round's table names who
//     played each seat's game: a place handed on during the game after a
//     move, everyone who played it then the substitute marked (PageMatch
//     Part, tour.subbed), each name linking that person's own page, not
//     the place's (PageMatch.PartURLs, PlayerURLs; the sentence's words
//     are tour.subbed's, laid out around the linked names by seatLinks;
//     TestRoundTableNamesWhoPlayedTheGame_Issue24); so
//     do the crosstable's cell, the place's game row on its page ("played
//     by", player.by: PlayerGame.PlayedURLs, the template's words laid
//     around the linked names by byLinks) and each opponent's page, each
//     name linking that person's page (PageName.PartURLs; nameLinks), and a
//     departed holder's mark says the round they began (tour.replaced;
//     TestPlayerAndCrossPagesNameHandedOnGames_Issue24); those names wrap
//     on a phone. A game's waiting line and board name who holds the seat
//     now.
//   - A finished game writes each player's place once ("1. Ann, 45
//     points"); an adjudicated one shows its result, marked.
//   - Boards (package boards): no text under 11 px on a phone, and a key
//     that explains the board's codes and colours.
//
// Speed (cache.go): a page is rendered once per change of the records,
// not once per request: its bytes are kept by address and language with
// the store's commit count (Versioned), answered with an ETag and
// Last-Modified (304 on If-None-Match), Cache-Control private, no-cache
// (an error: no-store). Answers are gzipped by gorilla/handlers.
//
// It owns the pages' HTTP handlers, their HTML layout and style (no word:
// every word is a "pages" template of templates/pages/<lang>, or the
// games'), the reader's language choice, the page cache and the headers.
// It must not read the store nor write anything (it reads a Source, the
// Referee's page queries), nor run script in a page, nor show a seat's
// hidden information (the boards draw the public view only).
package pages
