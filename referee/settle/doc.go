// Package settle is the end of the apply stage of one game in a unit of
// work: once its commands are applied, the bots play their seats until a
// human must act, the game ends when it is over, and each seat's clock
// starts, stays or stops; at a tick, the deadlines, reminders and digests
// that fell due; a seat's default move (a deadline missed, or a bot that
// could not answer); and a game the organiser (or a tournament) decided
// closed, and the result such a game shows (Result: an adjudicated
// game's position scored as it stands).
//
// It owns these steps and their order: the bots' answers, drawn from the
// game's seed, the seat and the table's token (never from global
// randomness), the fall-back to the default move when a bot cannot
// answer, so that a game never stalls; the log entries they write (missed,
// bot, end, the organiser's close) and what the public log withholds (a
// default that chose something hidden is told to its seat alone, issue 21);
// the announcements and the organiser's notes it queues by name; the
// seats it marks for a mail (asked, reminded, digest, every seat at the
// end).
//
// It must not touch the store, read the clock (it is given the time),
// render a word or send mail: it reads and changes a game only through
// Game (one game of the unit of work; the core's referee/lifecycle.go
// implements it), and the core writes the log, renders and persists. The
// pure rules it applies (the clocks, what a tick finds due, missed moves,
// the end) are package referee/lifecycle's. It must not import the core.
//
// The rules it keeps:
//   - bots play until a human must act or the game ends, at most 100,000
//     moves in one unit of work;
//   - a missed deadline is the default move, counted; after the policy's
//     limit the seat is a bot's, announced to all and told to the organiser;
//   - the end is logged and told to every seat once, however many times
//     settling runs in the unit of work;
//   - a game closed by REPAIR ("repaired") is logged but not announced
//     (issue 24); one adjudicated or forfeited is announced with its seed.
package settle
