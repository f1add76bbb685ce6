// Package demo is `referee demo`: with nothing installed or configured it
// starts an embedded mail stack on 127.0.0.1 (an IMAP server, go-imap v2's
// imapmemserver, and an SMTP server, go-smtp, that delivers into it), the
// referee daemon on a fresh store in a temporary directory, one game of
// every registered game, and bot players who read their mail over IMAP and
// answer over SMTP exactly as people would.
//
// The pieces are reusable: MailServer is the embedded stack (the end-to-end
// benchmark drives it too), Player is a mail client with a Brain that
// decides what to write, GameBrain plays one seat of a game from the JSON
// part of the referee's mails (FORMAT json), and Run is the demo itself.
//
// # The demo's shortcut
//
// The bots learn of their turn by mail and answer by mail; the referee
// sees nothing but mail from them. To choose well and keep the games short,
// a bot's PeekDecider asks the referee for the game's current table
// (referee.Referee.Table: read-only, one store read transaction) and asks
// the game's engine bot, the same way the referee plays a seat it took
// over. The first line of every answer is one of the legal answers listed
// in the mail. A person (--human) plays with nothing but the mail.
//
// # Planned players
//
// The benchmark's players decide before the game instead (script.go):
// PlanGame plays a game through the engine alone with the same bots a
// GameBrain's PeekDecider would use (NewBotDecider: same bot, same
// seeded random source), and a ScriptBrain sends the planned answer for
// the seat and state token of each mail that asks, read from its
// Message-ID, without reading the store or the JSON part. Plan.Check
// compares a played game's log with the plan.
//
// It owns the embedded demo: its mail server, its bots and its transcript. It
// must not be needed by the daemon, nor reach beyond loopback.
package demo
