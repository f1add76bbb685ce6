package organise

import (
	"time"

	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/referee/seating"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
)

// Words are the templates the door renders its answers with: the
// referee's scope (templates/referee/<lang>/org*.tmpl), the organiser's
// keywords (templates/organise/<lang>/aliases.txt, then the common ones)
// and the argument words (templates/<scope>/<lang>/args.txt).
type Words interface {
	// Text renders a template of the referee's scope in lang.
	Text(lang, name string, data any) (string, error)
	// Alias is the canonical keyword a word stands for in scope and lang
	// (the word itself, upper case, when it is none).
	Alias(scope, lang, word string) string
	// ArgLanguage is the canonical word an argument word stands for in
	// scope, and the first language that has it ("", "" when none).
	ArgLanguage(scope, word string) (canon, lang string)
	// Word is the word lang's answers show for keyword kw of scope (the
	// first of its aliases there, then the common ones'; kw itself in
	// English or when it has none).
	Word(scope, lang, kw string) string
	// Languages are the languages, English first.
	Languages() []string
	// ReadLine is a line of the mail as the reply reader reads it with
	// the organiser's words: chat (a greeting, thanks, a sign-off), a
	// keyword written right or one edit away, or neither.
	ReadLine(line string) mailfmt.AnswerLine
	// RuleText is a game's refusal (an engine.RuleError: a code and its
	// parameters) in lang's words; ok is false for any other error.
	RuleText(lang string, err error) (text string, ok bool)
}

// Host is the core as the organiser's door sees it: one unit of work (one
// organiser's mail, or one run of `referee org`), in one transaction. The
// door changes games only through it.
type Host interface {
	Words
	// Desk is the tournament desk's host of the same unit of work.
	Desk() bymail.Host
	// Game opens a game of the unit of work (one a NEW of this mail
	// created included); ok is false when there is no such game.
	Game(id string) (g Game, ok bool, err error)
	// Kind describes a game the referee runs; ok is false when it runs
	// none of that name.
	Kind(name string) (k Kind, ok bool)
	// CreateGame creates a game and sends its invitations.
	CreateGame(ng NewGame) (Created, error)
	// List is the organiser's games from the game from on (id order; ""
	// from the first), at most page of them, as this unit of work left
	// them; next is the first game past the page and more how many games
	// are past it ("" and 0 when none).
	List(org, from string, page int) (games []Listed, next string, more int, err error)
	// CheckPolicy reads a deadline policy (its error says what is wrong).
	CheckPolicy(text string) error
	// AnswerIn says the language of the answer (MailLang) to the unit of
	// work, so that the desk words its failures in it.
	AnswerIn(lang string)
	// MaxLines is how many command lines of one mail are read.
	MaxLines() int
	// ParseHours reads a duration in hours ("48h", "2d", "90m").
	ParseHours(s string) (float64, error)
	// Help is the organiser's help in lang: every command of the table
	// with its syntax and an example, and the organiser's own address.
	Help(lang, org string) (string, error)
	// Undone is the answer of an operation an earlier run of this unit
	// of work failed at after it changed something (referee/undo.go).
	Undone(key string) (msg string, ok bool)
	// Writes counts the changes the tournament desk made so far.
	Writes() int
	// Undo is the error that rolls the unit of work back to run it again
	// without the failed operations (merged into err when err already
	// asks for that).
	Undo(failed map[string]string, err error) error
	// IsUndo reports whether err asks for the unit of work to run again.
	IsUndo(err error) bool
}

// Game is one game, as an organiser's command acts on it.
type Game interface {
	Info() GameInfo
	// Title is the game's title, Policy its deadline policy as written
	// (STATUS).
	Title() string
	Policy() string
	// Waiting are the seats the game waits for (none unless running).
	Waiting() []int
	// Pause stops the clocks; Resume restarts them, moving every deadline
	// by the time the game was paused (returned).
	Pause()
	Resume() time.Duration
	// Extend gives a seat more time: its new deadline.
	Extend(seat int, by time.Duration) time.Time
	// Replace gives a seat to someone else: the address now playing it.
	Replace(seat int, inv Invitee) (string, error)
	// Kick gives a seat to the bot.
	Kick(seat int) error
	// Rollback restores the state after move `to` (in the past).
	Rollback(to int) error
	// Abort ends the game and reveals the seed.
	Abort()
	// SetPolicy changes the deadline policy: the policy as it now reads.
	SetPolicy(text string) (string, error)
	// Erratum switches the game to a corrected data file: its version
	// and SHA-256.
	Erratum(data []byte) (version, sha string, err error)
	// Invite adds a seat before the start and mails the invitation.
	Invite(inv Invitee) error
	// Hook runs HOOK or UNHOOK, Publish runs PUBLISH (their answers are
	// the core's).
	Hook(kw string, args []string) (string, error)
	Publish(args []string) (string, error)
	// Log writes the command to the game's log (addresses and URLs of
	// args already masked).
	Log(kw string, args []string) error
}

// GameInfo is what an organiser's command reads of a game.
type GameInfo struct {
	ID, Variant string
	Organiser   string
	// Status: forming, running, paused, over or aborted.
	Status string
	// Started: the game has a state (it is past forming).
	Started bool
	// Move is the game's move number.
	Move    int
	Players int
	Seats   []SeatInfo
}

// SeatInfo is one seat of a game.
type SeatInfo struct {
	Name, Address string
	// State: invited, joined, declined, playing, resigned or kicked.
	State  string
	Bot    bool
	Missed int
	// Due is the seat's running deadline (zero: none).
	Due time.Time
}

// Kind is a game the referee runs.
type Kind struct {
	Name       string
	MinPlayers int
}

// Created is a game a NEW created.
type Created struct {
	ID, Game   string
	Players    int
	Commitment string
}

// Listed is one line of LIST.
type Listed struct {
	ID, Game, Status string
	Seats, Players   int
}

// NewGame is an organiser's NEW: the game to create once its PLAYER and
// RULESET lines are read.
type NewGame struct {
	ID, Game, Variant string
	Options           map[string]string
	Players           int
	Invite            []Invitee
	Open              bool
	// Policy is the deadline policy as written ("": the referee's
	// default).
	Policy    string
	Ruleset   []byte
	Organiser string
	Seed      string
}

// Invitee is a player invited to a game (seating.Invitee).
type Invitee = seating.Invitee
