package bymail

import (
	"time"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/tournament/bymail/tourrec"
)

// Host is the core as the desk sees it, inside one unit of work (one store
// transaction): the records of this transaction, the games it opens and
// closes, the players it knows, the mail it queues and the words it
// renders. The core (package referee) implements it; the desk keeps no
// state of its own between calls.
type Host interface {
	// Now is the unit of work's time.
	Now() time.Time
	// Records are the store's tournament, rating and wake records in
	// this transaction.
	Records() Records
	// IsNotFound reports whether err says a record does not exist.
	IsNotFound(err error) bool

	// GameExists reports whether a game id is taken (in the store, or by
	// a game created in this unit of work).
	GameExists(id string) bool
	// Game describes a game (the game is now part of the unit of work).
	Game(id string) (GameInfo, error)
	// OpenGame creates a game whose seats are all taken at once (no
	// invitation to accept), starts it, and records that it is played
	// for g.Tournament.
	OpenGame(g NewGame) error
	// CloseGame stops a game the organiser decided (why: CloseAdjudicated
	// with a "result", CloseForfeit with the "names" who lose,
	// CloseRepaired); its players are told, with the seed.
	CloseGame(id, why string, kv ...any) error
	// Adjudicate scores a game as it stands and closes it (the result is
	// returned), or, when the game cannot score the position, hands every
	// seat to a bot that finishes it (nil: the result comes at its end,
	// reported through GameEnded as adjudicated).
	Adjudicate(id string) (*Result, error)
	// ReplaceSeat gives the seat of oldAddress in a game (if any) to a
	// new player.
	ReplaceSeat(id, oldAddress string, inv Invitee) error

	// EnsurePlayer returns the player of an address, registering them
	// when new.
	EnsurePlayer(address, name, lang, tz string) (Player, error)
	// ReplyTo is where a player answers a tournament mail (Reply).
	ReplyTo(address string) Reply

	// MailEntrant queues a tournament mail to an entrant, tagged with
	// its Reply's tag when that Reply is its To's (issue 24: the core
	// reads the player once a mail, for ReplyTo), else untagged.
	MailEntrant(m Mail) error
	// MailOrganiser queues a short note to an organiser, in lang.
	MailOrganiser(org, lang, text string) error

	// Render renders a template of the tournaments ("tournament" scope);
	// a template that fails is written "(<name>: <error>)".
	Render(lang, name string, data any) string
	// Word is a referee keyword in a language (WITHDRAW -> RITIRA).
	Word(lang, keyword string) string
	// RuleText words a game's refusal (an engine rule error: a game
	// option refused) in the game's words and a language.
	RuleText(lang, game string, err error) string
	// AnswerLang is the language of the organiser's answer in this unit
	// of work ("" when it answers no organiser): the desk words its
	// failures in it.
	AnswerLang() string

	// MaxEntrants caps a tournament's entrants and MaxOptionBytes the key
	// and value of a game option (issue 23: sizes bounded everywhere).
	MaxEntrants() int
	MaxOptionBytes() int

	// Secret and RandomHex draw from the referee's random source.
	Secret() (string, error)
	RandomHex() (string, error)
	// PageBase is the public address of the pages ("" when unknown).
	PageBase() string
	// ParseInvitee reads "<address> <name> [lang] [time zone]" as the
	// organiser's game commands do; ParseHours reads a duration in hours
	// ("72", "72h", "3d").
	ParseInvitee(f []string) (Invitee, error)
	ParseHours(s string) (float64, error)
	// Warn logs a failure that must not stop the unit of work.
	Warn(msg string, kv ...any)

	// Predrawn is the round of tournament id the core drew outside the
	// write lock for this unit of work (Predraw), or nil. OpenLater asks
	// the core to open tournament id's next round (draw) or the next
	// batch of its round opening (!draw) once this unit of work commits:
	// a round drawn on a snapshot first (Predraw), then opened in a unit
	// of work of its own (OpenDue); a batch needs no draw.
	Predrawn(id string) *Drawn
	OpenLater(id string, draw bool)
	// OpenBatch is how many games of a round one unit of work opens
	// (0: the desk's default); the rest open in units of work of their
	// own, each committed before the next (openBatch).
	OpenBatch() int

	// Kept are this unit of work's tournaments, decoded (package
	// tourrec): the core keeps one per unit of work, sets its Hit to
	// count a change, and calls its Flush before the transaction commits.
	Kept() *tourrec.Kept

	// All or none. Undo returns the error that rolls the whole unit of
	// work back and runs it again with the operation key undone: a step
	// that fails after it changed something returns it. In that next run,
	// Undone reports the operation and the failure's message, and the
	// step answers with it and changes nothing.
	Undo(key string, err error) error
	Undone(key string) (msg string, ok bool)
}

// Records are the store's methods the desk uses (*store.Tx has them): the
// tournaments, their match records (package tourrec), the index of their
// games, the ratings and the wake index.
type Records interface {
	Tournament(id string) ([]byte, error)
	// PutTournament writes a tournament's whole record and deletes its
	// match records (the record holds them).
	PutTournament(id string, rec []byte) error
	HasTournament(id string) bool
	Tournaments(fn func(id string, rec []byte) error) error
	// PutTournamentMatch writes one match's record; TournamentMatches
	// reads a tournament's, in round and match order.
	PutTournamentMatch(id string, round, match int, rec []byte) error
	TournamentMatches(id string, fn func(round, match int, rec []byte) error) error
	GameTournament(game string) string
	HasGame(id string) bool
	SetWake(key string, at time.Time) error
	Wake(key string) time.Time
	Rating(game, addr string) ([]byte, error)
	PutRating(game, addr string, rec []byte) error
}

// Player is a registered player, as the desk needs them.
type Player struct {
	Address, Name, Lang, TZ string
}

// Invitee is a player named by the organiser.
type Invitee struct {
	Address, Name, Lang, TZ string
}

// NewGame is a tournament game to open: its seats in order.
type NewGame struct {
	ID, Game, Variant string
	Options           map[string]string
	Seats             []Invitee
	Organiser, Seed   string
	Tournament        string
}

// GameInfo is what the desk reads of a game.
type GameInfo struct {
	// Status is the game's status (running, paused, over, aborted,
	// forming).
	Status string
	// Started: the game's table exists (the game began).
	Started bool
	// Seats are the seats' names in the game, in seat order; Waiting the
	// names of the seats the game waits for (words for the organiser),
	// WaitingSeats those seats' numbers, ascending: the desk decides by
	// seat, never by name (two holders may share a name after a REPLACE).
	Seats        []string
	Waiting      []string
	WaitingSeats []int
	// Moves counts the moves played (the engine steps logged).
	Moves int
}

// Running reports whether the game is still played (running or paused).
func (g GameInfo) Running() bool { return g.Status == "running" || g.Status == "paused" }

// Result is a game's result: a rank and a score by seat, and the result
// written by place ("1. Ann 23 / 2. Bob 18").
type Result struct {
	Rank, Scores []int
	Line         string
}

// GameEnd is what the core reports when a game ends.
type GameEnd struct {
	ID, Game string
	// Seats are the players by seat: their addresses and the names they
	// are greeted by.
	Addresses, Names []string
	Rank, Scores     []int
	// Adjudicated: bots finished the game for ADJUDICATE or late=.
	Adjudicated bool
}

// Why a game the desk decided is closed (Host.CloseGame's why): the core
// hands them to settle.Close as they are, and they are its words
// (settle.CloseAdjudicated and its kin; TestDeskCloseWordsAreSettles): a
// game's page finds an adjudicated game's result by that word.
const (
	CloseAdjudicated = "adjudicated"
	CloseForfeit     = "forfeit"
	CloseRepaired    = "repaired"
)

// Mail is a tournament mail to one entrant.
type Mail struct {
	Tournament       string
	To, ToName, Lang string
	Subject, Body    string
	// Reply is ReplyTo of To: the mail carries its tag.
	Reply Reply
}

// Reply is where an entrant answers a tournament mail (Host.ReplyTo of
// To): Address, their own address at the referee, tagged with their
// secret, and TZ, their zone, for a registered player; else the
// referee's plain address. Tag is the tag a Mail to To carries (the
// core's; zero for no player): it is the value, not a state of the unit
// of work, so a mail is tagged only by the Reply it carries and only
// when it goes to that Reply's To.
type Reply struct {
	To, Address, TZ string
	Tag             mailmsg.Tag
}

// Due are the tournaments whose next round (Draw: drawn first) or next
// batch of a round opening opens once a unit of work commits
// (Host.OpenLater), each once, in the order first asked.
type Due []DueRound

// DueRound is one tournament of Due.
type DueRound struct {
	ID   string
	Draw bool
}

// Add notes tournament id due; a draw asked once for it is kept.
func (d *Due) Add(id string, draw bool) {
	for i := range *d {
		if (*d)[i].ID == id {
			(*d)[i].Draw = (*d)[i].Draw || draw
			return
		}
	}
	*d = append(*d, DueRound{id, draw})
}
