package records

import (
	"encoding/json"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/deadline"
	"github.com/pbem-referee/referee/referee/guard"
	"github.com/pbem-referee/referee/referee/hooks"
	"github.com/pbem-referee/referee/referee/tell"
)

// Game states.
const (
	StatusForming = "forming" // invitations out, seats not all filled
	StatusRunning = "running"
	StatusPaused  = "paused"
	StatusOver    = "over"
	StatusAborted = "aborted"
)

// Seat states.
const (
	SeatInvited  = "invited"
	SeatJoined   = "joined"
	SeatDeclined = "declined"
	SeatPlaying  = "playing"
	SeatResigned = "resigned"
	SeatKicked   = "kicked"
)

// Game is the referee's record of one game (the "games" bucket).
type Game struct {
	ID      string            `json:"id"`
	Game    string            `json:"game"` // engine name
	Variant string            `json:"variant,omitempty"`
	Options map[string]string `json:"options,omitempty"`
	Status  string            `json:"status"`
	// Organiser is the address of the organiser who created the game.
	Organiser string `json:"organiser"`
	// OrgLang is the organiser's language: that of their last command
	// mail that created or named the game ("" in older records: English).
	// The notes the core sends the organiser on its own are in it.
	OrgLang string `json:"org_lang,omitempty"`
	// Seed is secret until the game ends; Commitment (its SHA-256) is
	// announced at the start.
	Seed       string `json:"seed"`
	Commitment string `json:"commitment"`
	// RulesetSHA is the data file the game runs on ("" for the default).
	RulesetSHA string `json:"ruleset_sha256,omitempty"`
	// Open games take any registered player who sends JOIN <game>.
	Open bool `json:"open,omitempty"`
	// Ordered games keep the seat order they were created with (a
	// tournament balances who moves first) instead of drawing it.
	Ordered bool `json:"ordered,omitempty"`
	// Players is the number of seats.
	Players int `json:"players"`
	// Seats are in seat order once the game started (drawn from the seed);
	// before that in invitation order.
	Seats  []Seat          `json:"seats"`
	Policy deadline.Policy `json:"policy"`
	// Table is the engine table (state and queues), nil before the start.
	Table   json.RawMessage `json:"table,omitempty"`
	Created time.Time       `json:"created"`
	Started time.Time       `json:"started,omitempty"`
	Ended   time.Time       `json:"ended,omitempty"`
	// PausedAt is when an organiser paused the game (deadlines stop).
	PausedAt time.Time `json:"paused_at,omitempty"`
	// Nonce numbers the mails of the game (for Message-IDs).
	Nonce int `json:"nonce"`
	// Steps counts the engine steps logged, for exports.
	Steps int `json:"steps"`
	// Hooks are the game's outgoing webhooks.
	Hooks []hooks.Hook `json:"hooks,omitempty"`
	// PageKey, set by the organiser's PUBLISH <game>, makes the public page
	// of a game outside tournaments: /g/<id>-<PageKey> ("" = no page).
	PageKey string `json:"page_key,omitempty"`
}

// DefaultNotify is the NOTIFY mode of a new seat: a mail when the player
// must act (with everything since their last mail) and a short one for the
// news that matter to them (issue 12.3). "every" and "digest" are choices.
const DefaultNotify = "turn"

// Seat is one player's place in a game.
type Seat struct {
	// Name is the seat's name in the game (the engine's seat name).
	Name string `json:"name"`
	// Player is the name of the person playing the seat when it differs
	// (after REPLACE); mails greet them by it.
	Player string `json:"player,omitempty"`
	// Before are the players who held the seat before a REPLACE, first to
	// last, each with the last move they played it for (issue 24: mails
	// and pages name who played which game; absent in older records: the
	// seat never changed hands, or did before this was kept).
	Before  []tell.Holder `json:"before,omitempty"`
	Address string        `json:"address"`
	Lang    string        `json:"lang"`
	TZ      string        `json:"tz,omitempty"` // IANA zone for deadlines; "" = UTC
	Secret  string        `json:"secret"`
	State   string        `json:"state"`
	// Bot names the engine bot playing this seat ("" = the human).
	Bot string `json:"bot,omitempty"`
	// Missed counts consecutive missed moves; MissedTotal all of them.
	Missed      int `json:"missed"`
	MissedTotal int `json:"missed_total"`
	// Notify: "every" change, "turn" (only when action is needed, plus the
	// news that matter: the seat's own missed turn, the organiser's
	// changes, a SAY to the seat, the end), or a daily "digest". New seats
	// get DefaultNotify.
	Notify string `json:"notify"`
	// HaltShown names the halted queue (the core's haltKey) last
	// explained to the seat, so that a halt is told once, not in every mail.
	HaltShown string `json:"halt_shown,omitempty"`
	// StateSeq is the last log entry the state in the seat's last mail
	// with a summary covered (0: none yet).
	StateSeq uint64 `json:"state_seq,omitempty"`
	// Format: "text" or "json" (the view also comes as JSON).
	Format   string     `json:"format"`
	Vacation []Vacation `json:"vacation,omitempty"`
	// VacationUsed is the number of vacation days spent from the budget.
	VacationUsed float64 `json:"vacation_used"`
	// Thread is the Message-ID of the first mail of this seat's thread and
	// LastMail the latest one (for In-Reply-To/References).
	Thread   string `json:"thread,omitempty"`
	LastMail string `json:"last_mail,omitempty"`
	// Seen is the log sequence number up to which the seat has been told.
	Seen     uint64    `json:"seen"`
	Deadline *Deadline `json:"deadline,omitempty"`
	// Absence offered after an out-of-office reply, awaiting YES.
	AbsenceOffer *Vacation `json:"absence_offer,omitempty"`
	// DigestDue is when the next digest is due (Notify "digest").
	DigestDue time.Time `json:"digest_due,omitempty"`
	// Receipts is how receipts reach the seat (ReceiptsFold, ReceiptsEach,
	// ReceiptsNone) and Held the receipt waiting for the next mail
	// (referee/tell's receipts.go, issue 22).
	Receipts string            `json:"receipts,omitempty"`
	Held     *tell.HeldReceipt `json:"held,omitempty"`
	// Recent are the seat's last inputs that were applied (a stale resend
	// of one is a duplicate).
	Recent []guard.RecentInput `json:"recent,omitempty"`
	// Bodies counts the identical bodies since BodySince, a day at most
	// (loop detection); NoCommandNote is when the seat's day of mails
	// without a command began and NoCommandCount how many came in it.
	Bodies         []guard.BodyCount `json:"bodies,omitempty"`
	BodySince      time.Time         `json:"body_since,omitempty"`
	NoCommandNote  time.Time         `json:"no_command_note,omitempty"`
	NoCommandCount int               `json:"no_command_count,omitempty"`
}

// Vacation is a registered absence.
type Vacation struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}

// Deadline is the clock of a seat's current decision.
type Deadline struct {
	Kind  string    `json:"kind"`
	Slot  string    `json:"slot"`
	Group string    `json:"group,omitempty"`
	Start time.Time `json:"start"`
	Due   time.Time `json:"due"`
	// Reminders are the times reminders are due; Sent how many went out.
	Reminders []time.Time `json:"reminders,omitempty"`
	Sent      int         `json:"sent"`
}

// Player is a registered player (the "players" bucket).
type Player struct {
	Address string    `json:"address"`
	Name    string    `json:"name"`
	Lang    string    `json:"lang"`
	TZ      string    `json:"tz,omitempty"`
	Secret  string    `json:"secret"` // the player token (LIST, JOIN, OBSERVE)
	Failing bool      `json:"failing,omitempty"`
	Bounces int       `json:"bounces,omitempty"`
	Created time.Time `json:"created"`
	// Observing lists the games the player observes.
	Observing []string `json:"observing,omitempty"`
	// Helped is when the player (or an unknown sender) was last sent the
	// help mail for an untagged message (rate limit).
	Helped time.Time `json:"helped,omitempty"`
	// Pending: registered by an untagged REGISTER whose From nobody has
	// confirmed yet (a forged From must not make a player); the first mail
	// with the player's token from the address confirms it.
	Pending bool `json:"pending,omitempty"`
}

// Entry is one record of a game's append-only log (the "log" bucket). The
// LOG command, spectator views, the reports of what happened since a
// player's last mail, and the public log at the end are all derived from it.
type Entry struct {
	Seq  uint64    `json:"seq,omitempty"`
	At   time.Time `json:"at"`
	Kind string    `json:"kind"`
	// Seat is the seat concerned (-1: none).
	Seat int `json:"seat"`
	// Vis is who may read the entry before the game ends (steps are
	// redacted per event instead).
	Vis engine.Visibility `json:"vis"`
	// Text is the input or message text (inputs, SAY).
	Text string `json:"text,omitempty"`
	// Params are structured facts (organiser action, deadline...).
	Params map[string]any `json:"params,omitempty"`
	// Step is an engine step (kind "step"), with its events.
	Step *engine.Step `json:"step,omitempty"`
	// Setup holds the setup events (kind "start").
	Setup []engine.Event `json:"setup,omitempty"`
	// Ruleset is set on an erratum: the SHA-256 of the data file in force
	// from here on.
	Ruleset string `json:"ruleset,omitempty"`
}

// Log entry kinds.
const (
	EntryCreate   = "create"
	EntryInvite   = "invite"
	EntryJoin     = "join"
	EntryDecline  = "decline"
	EntryStart    = "start"
	EntryInput    = "input"
	EntryStep     = "step"
	EntryOrg      = "org"
	EntryMissed   = "missed"
	EntryBot      = "bot"
	EntrySay      = "say"
	EntryVacation = "vacation"
	EntryResign   = "resign"
	EntryEnd      = "end"
	EntryErratum  = "erratum"
	EntryRollback = "rollback"
)
