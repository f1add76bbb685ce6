package referee

// The records layer: the only code of the core that encodes and decodes
// the store's game, player and log records (tournaments and ratings have
// theirs in the desk, package referee/tournament/bymail). Everything else
// in the core, and the edges through the core's query functions, works on
// the decoded types below.
// A unit of work loads its games through work.game, which takes the games
// last committed decoded from the store (store.Tx.TakeDecoded, kept by
// flush with store.Tx.KeepDecoded).

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/store"
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
	Seats  []Seat `json:"seats"`
	Policy Policy `json:"policy"`
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
	Hooks []Hook `json:"hooks,omitempty"`
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
	Player  string `json:"player,omitempty"`
	Address string `json:"address"`
	Lang    string `json:"lang"`
	TZ      string `json:"tz,omitempty"` // IANA zone for deadlines; "" = UTC
	Secret  string `json:"secret"`
	State   string `json:"state"`
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
	// HaltShown names the halted queue (see haltKey) last explained to the
	// seat, so that a halt is told once, not in every mail.
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
	// (receipts.go, issue 22).
	Receipts string       `json:"receipts,omitempty"`
	Held     *HeldReceipt `json:"held,omitempty"`
	// Recent are the seat's last inputs that were applied (a stale resend
	// of one is a duplicate).
	Recent []RecentInput `json:"recent,omitempty"`
	// Bodies counts the identical bodies since BodySince, a day at most
	// (loop detection); NoCommandNote is when the seat's day of mails
	// without a command began and NoCommandCount how many came in it.
	Bodies         []BodyCount `json:"bodies,omitempty"`
	BodySince      time.Time   `json:"body_since,omitempty"`
	NoCommandNote  time.Time   `json:"no_command_note,omitempty"`
	NoCommandCount int         `json:"no_command_count,omitempty"`
}

// greeting is the name a mail to the seat's player uses.
func (s Seat) greeting() string { return cmp.Or(s.Player, s.Name) }

// Active reports whether the seat takes part in play (not declined).
func (s Seat) Active() bool { return s.State == SeatPlaying }

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

func loadGame(tx *store.Tx, id string) (*Game, error) {
	raw, err := tx.Game(id)
	if err != nil {
		return nil, err
	}
	return decodeGame(id, raw)
}

func decodeGame(id string, raw []byte) (*Game, error) {
	var g Game
	if err := json.Unmarshal(raw, &g); err != nil {
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	return &g, nil
}

// eachGameHead calls fn for every game in id order, decoded without its
// table (Game.Table is nil): the lists and counts that read every game
// need the seats and the status, not the state of play, which is most of
// a record.
func eachGameHead(tx *store.Tx, fn func(g *Game) error) error {
	return tx.Games(func(id string, raw []byte) error {
		var h struct {
			*Game
			Table skipJSON `json:"table"`
		}
		h.Game = &Game{}
		if err := json.Unmarshal(raw, &h); err != nil {
			return fmt.Errorf("game %s: %w", id, err)
		}
		return fn(h.Game)
	})
}

// skipJSON decodes any JSON value into nothing.
type skipJSON struct{}

func (skipJSON) UnmarshalJSON([]byte) error { return nil }

// saveGame stores a game's record (the store keeps it as a delta against
// the game's last snapshot: store/writepath.go) and what the game indexes
// know of it (store/gameindex.go; written only when that changed).
func saveGame(tx *store.Tx, g *Game) error {
	raw, err := encodeGame(g)
	if err != nil {
		return err
	}
	if err := tx.PutGame(g.ID, raw); err != nil {
		return err
	}
	return tx.IndexGame(g.ID, indexOf(g))
}

// indexOf is what the store's game indexes hold of a game: its status,
// organiser and seats' addresses (the lists by player, by state and by
// organiser, and the counts by state, read them instead of every record).
func indexOf(g *Game) store.GameIndex {
	ix := store.GameIndex{Game: g.Game, Status: g.Status, Organiser: g.Organiser, Open: g.Open, Players: g.Players, Seats: len(g.Seats)}
	for _, s := range g.Seats {
		if s.Address != "" {
			ix.Addresses = append(ix.Addresses, strings.ToLower(s.Address))
		}
	}
	return ix
}

// ensureGameIndex builds the game indexes of a store whose games were
// saved before them (schema <= 5), once, in one transaction.
func ensureGameIndex(db *store.DB) error {
	built := false
	if err := db.View(func(tx *store.Tx) error { built = tx.GameIndexBuilt(); return nil }); err != nil || built {
		return err
	}
	return db.Update(func(tx *store.Tx) error {
		err := eachGameHead(tx, func(g *Game) error { return tx.IndexGame(g.ID, indexOf(g)) })
		if err != nil {
			return err
		}
		return tx.SetGameIndexBuilt()
	})
}

// encodeGame is the JSON of a game's record. The table, most of the
// record, is already compact JSON (engine.Table.MarshalJSON, or the
// stored record's own bytes): it is appended as it is, last, rather than
// scanned and compacted once more by encoding/json (issue 13.5).
func encodeGame(g *Game) ([]byte, error) {
	table := g.Table
	g.Table = nil
	raw, err := json.Marshal(g)
	g.Table = table
	if err != nil || len(table) == 0 {
		return raw, err
	}
	out := make([]byte, 0, len(raw)+len(`,"table":`)+len(table))
	out = append(out, raw[:len(raw)-1]...)
	out = append(out, `,"table":`...)
	out = append(out, table...)
	return append(out, '}'), nil
}

func loadPlayer(tx *store.Tx, addr string) (*Player, error) {
	raw, err := tx.Player(addr)
	if err != nil {
		return nil, err
	}
	var p Player
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

func savePlayer(tx *store.Tx, p *Player) error {
	raw, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return tx.PutPlayer(p.Address, raw)
}

func appendEntry(tx *store.Tx, g *Game, e Entry) (uint64, error) {
	raw, err := json.Marshal(e)
	if err != nil {
		return 0, err
	}
	return tx.AppendLog(g.ID, raw)
}

// entries reads a game's log from seq from.
func entries(tx *store.Tx, game string, from uint64) ([]Entry, error) {
	var out []Entry
	err := tx.Log(game, from, func(seq uint64, raw []byte) error {
		var e Entry
		if err := json.Unmarshal(raw, &e); err != nil {
			return err
		}
		e.Seq = seq
		out = append(out, e)
		return nil
	})
	return out, err
}

// seatOfAddress returns the seat of an address in a game, or -1.
func (g *Game) seatOfAddress(addr string) int {
	for i, s := range g.Seats {
		if strings.EqualFold(s.Address, addr) {
			return i
		}
	}
	return -1
}

// names returns the seats' display names.
func (g *Game) names() []string {
	n := make([]string, len(g.Seats))
	for i, s := range g.Seats {
		n[i] = s.Name
	}
	return n
}

// decodedGame is a game's record as the unit of work decoded it, kept by
// the store for the next input of the game (store.Tx.KeepDecoded).
type decodedGame struct {
	g  *Game
	tb *engine.Table
}
