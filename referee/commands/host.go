package commands

import (
	"time"

	"github.com/pbem-referee/referee/engine"
)

// Seat is the core as a seat's command sees it: one seat of one game, in
// one unit of work. What a handler reads: the seat, the game's view; what
// it may do: reply, change a setting, act on the seat (the core logs and
// announces).
type Seat interface {
	// GameID is the game's id; Index the seat's number (0-based); Seats
	// the game's seats as SAY names them.
	GameID() string
	Index() int
	Seats() []SeatName
	// Playing: the seat plays and the game runs (RESIGN).
	Playing() bool
	// Zone is the seat's time zone, Now the unit of work's time.
	Zone() *time.Location
	Now() time.Time

	// Info adds a note (a template of the referee's) to the seat's reply;
	// Say adds text already rendered.
	Info(name string, data map[string]any)
	Say(text string)

	// Set changes one of the seat's settings.
	Set(s Setting, value string)
	// Clear empties the seat's queue (ok is false when the game has no
	// table yet); Undo takes back its last queued line.
	Clear() (n int, ok bool)
	Undo() (line string, ok bool)
	// Resign gives the seat to the bot.
	Resign() error
	// Relay sends SAY's text to the seats to (all: SAY all).
	Relay(to []int, all bool, text string) error
	// AddVacation registers an absence [from, to) (to exclusive); rerr is
	// the refusal (vacation_budget) when it is refused.
	AddVacation(from, to time.Time) (rerr *engine.RuleError, err error)
	// ConfirmAbsence takes the absence the referee offered (YES): ok is
	// false when none was offered.
	ConfirmAbsence() (ok bool, rerr *engine.RuleError, err error)
	// Join and Decline answer the seat's invitation.
	Join() error
	Decline() error
	// Status asks for the state in the reply (full: STATUS FULL).
	Status(full bool)

	// Arg is the canonical word an argument of the reader's language
	// stands for ("" when none): FULL.
	Arg(word string) string
	// Help is the help on a topic ("": the list); HasHelp reports whether
	// a topic is a command with help of its own; HelpWord is a topic as
	// the game's commands spell it (the reader's language, then any);
	// CardHelp renders the cards a topic names.
	Help(topic string) string
	HasHelp(topic string) bool
	HelpWord(topic string) string
	CardHelp(topic string) (string, bool)
	// Rule is the game's text of a rule (ok is false when it has none).
	Rule(id string) (text string, ok bool, err error)
	// LogText is the seat's view of the last n entries of the log.
	LogText(n int) (string, error)
	// Observe makes the seat's address an observer of a game.
	Observe(game string) error
	// ListOpen is the list of games open to join.
	ListOpen() (string, error)
}

// SeatName is a seat as SAY names it.
type SeatName struct {
	// Name is the seat's name in the game, Player who holds it now when
	// that is someone else (after REPLACE): SAY reads either.
	Name, Player string
	Declined     bool
}

// Setting is a seat's setting a command changes.
type Setting uint8

const (
	// SetNotify: every, turn, digest.
	SetNotify Setting = iota + 1
	// SetReceipts: receipts, fold, none (the core's Receipts values).
	SetReceipts
	// SetLang: en, it, fr, nl.
	SetLang
	// SetFormat: text, json.
	SetFormat
)

// Player is the core as a player's command at their own address sees it:
// the player, in one unit of work.
type Player interface {
	// Lang is the player's language.
	Lang() string
	// Text renders a template of the referee's for the player.
	Text(name string, data map[string]any) string
	// Tournament runs a tournament's row (the desk's): ok is false when
	// the line is not the tournament's; text "" when the tournament's own
	// mail answers.
	Tournament(kw string, f []string) (text string, ok bool, err error)
	// ListOpen is the list of games open to join.
	ListOpen() (string, error)
	// JoinOpen joins an open game: text "" when the game's mail answers.
	JoinOpen(game string) (string, error)
	// HasGame reports whether a game exists; Observe makes the player an
	// observer of it.
	HasGame(game string) bool
	Observe(game string) error
	// SetLang changes the player's language.
	SetLang(lang string) error
}
