// Package pages serves the public pages of tournaments and their games on
// the daemon's HTTP listener: plain HTML readable on a phone, no script,
// the board as inline SVG where the game draws one. A page's address holds
// an unguessable key; only tournaments their organiser listed appear in
// the index. Every game page shows the spectators' view only.
//
// The pages are: the index (/t/), a tournament (/t/<id>-<key>), its
// crosstable (…/crosstable), a player's page (…/p/<n>: their standing,
// games and rating after each round), its files (…/<name>, files.go) and
// a game (/g/<game>-<key>). They need no webhook credential: the HTTP
// listener serves them for an organiser whose mail comes by IMAP.
//
// The rules every page keeps (issue 24; chromium_test.go checks them in
// a browser at 360 and 1280 px in every language):
//
//   - Width: nothing is wider than a phone's screen. A wide table (the
//     crosstable) scrolls in its own box; long words break; a table head,
//     a number and a W-D-L record never wrap.
//   - First screen: a game's result and board come first; its table is
//     folded when a board is drawn, its log is folded with the latest
//     entries shown.
//   - Words: every title says what the page is, every word is in the
//     reader's language (?lang=, else Accept-Language, else English), and
//     every link to another page carries that language.
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
package pages
