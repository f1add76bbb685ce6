package tell

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/pbem-referee/referee/engine"
)

// Teller is the tell stage's configuration: the words, the right-hand
// side of the Message-IDs and the receipt window. One Teller serves every
// unit of work; Mails changes nothing in it.
type Teller struct {
	Render *Renderer
	// Domain is the right-hand side of the Message-IDs.
	Domain string
	// ReceiptWindow is how long a receipt may wait for the next mail
	// (receipts.go; the core's Options.ReceiptWindow).
	ReceiptWindow time.Duration
}

// Game is what the tell stage reads of a game's record: its names, its
// status, its seed and commitment, its mail counter and its seats.
type Game struct {
	ID     string // the game's id
	Game   string // the engine's name (template scope)
	Status string // StatusRunning, ...
	// Seed is revealed at the end; Commitment is announced at the start.
	Seed, Commitment string
	// Nonce numbers the game's mails (Message-IDs).
	Nonce int
	Seats []Seat
}

// Game statuses the tell stage tells apart (the core's records use the
// same words).
const (
	StatusRunning = "running"
)

// Seat states the tell stage tells apart.
const (
	SeatDeclined = "declined"
	SeatPlaying  = "playing"
	SeatKicked   = "kicked"
)

// Seat is what the tell stage reads of a seat, and what it writes back:
// the fields under "told" are the seat as told, which the core copies
// into its record (Told.Seats).
type Seat struct {
	Name string // the seat's name in the game
	// Player is the person's name when it differs (after REPLACE);
	// Before are who held the seat before, first to last.
	Player  string
	Before  []Holder
	Address string
	Lang    string
	TZ      string // IANA zone for the deadline; "" = UTC
	Secret  string
	State   string
	Bot     string // the bot playing the seat, "" for the human
	// Notify: "every", "turn" or "digest"; Format: "text" or "json";
	// Receipts: ReceiptsFold, ReceiptsEach or ReceiptsNone.
	Notify, Format, Receipts string
	// Due is the seat's deadline (zero: none).
	Due time.Time

	// told: what the seat has seen (the log's sequence number), the state
	// it last saw in full, its thread, the halt last explained, the next
	// digest and the receipt it holds.
	Seen, StateSeq   uint64
	Thread, LastMail string
	HaltShown        string
	DigestDue        time.Time
	Held             *HeldReceipt
}

// greeting is the name a mail to the seat's player uses.
func (s Seat) greeting() string {
	if s.Player != "" {
		return s.Player
	}
	return s.Name
}

// SeatChange is what the apply stage changed for one seat that the tell
// stage reads (the core's seatChange without what only persist reads).
type SeatChange struct {
	// Reply answers the seat's own message; Answering is that message's
	// Message-ID.
	Reply     *Reply
	Answering string
	// Force: the seat gets a mail even if nothing changed for it.
	Force bool
	// Reminder, Digest: the seat's reminder or digest is due.
	Reminder, Digest bool
	// Asked: the seat's decision clock started in this unit of work.
	Asked bool
	// Quiet: the seat's mail is not sent in this unit of work.
	Quiet bool
	// Status, Full: the seat asked STATUS or STATUS FULL.
	Status, Full bool
}

// Note is an announcement rendered from the referee's template
// "note.<Name>".
type Note struct {
	Seats []int // nil: every seat
	Name  string
	Data  map[string]any
}

// Entry is what the tell stage reads of one entry of a game's log: the
// core gives the entries its unit of work wrote as they are in memory,
// and reads back only the older ones a seat has not seen.
type Entry struct {
	Seq  uint64
	At   time.Time
	Kind string // EntryStep, EntryInput or one of the referee's kinds
	// Seat is the seat concerned (-1: none); Vis who may read it.
	Seat   int
	Vis    engine.Visibility
	Text   string
	Params map[string]any
	Step   *engine.Step // kind EntryStep
}

// The log entry kinds the tell stage tells apart (the core's records use
// the same words).
const (
	EntryInput = "input"
	EntryStep  = "step"
)

// Input is one game after the apply stage: everything the tell stage
// reads. It is not changed by Mails.
type Input struct {
	Game   *Game
	Table  *engine.Table // nil before the start
	Engine engine.Game
	// Log holds the entries from the oldest seat's Seen+1 on, or, when
	// Older is set, the last of them (the entries the unit of work wrote)
	// and Older the ones before, read only if a seat that needs them
	// gets a mail (or its NOTIFY mode must look at them).
	Log   []Entry
	Older func() ([]Entry, error) `json:"-"`
	// Changes are by seat (a seat past the end changed nothing).
	Changes []SeatChange
	Notes   []Note
	// Ended: the game ended in this unit of work; FinalLog is then the
	// published log, attached to every mail.
	Ended    bool
	FinalLog []byte
	// Now is the unit of work's time (the tell stage reads no clock).
	Now time.Time
}

// Told is what the tell stage returns: the mails in seat order (not yet
// completed: the core adds the date, sender and bounce address when it
// queues them), the seats as told and the game's mail counter.
type Told struct {
	Mails []*Outgoing
	Seats []Seat
	Nonce int
}

// Mails writes the mail of every seat of in that gets one. It is pure:
// no store, no clock, nothing of in changed; the same input gives the
// same mails.
func (t *Teller) Mails(in *Input) (*Told, error) {
	v := &mailView{Teller: t, Input: in, seats: slices.Clone(in.Game.Seats), nonce: in.Game.Nonce}
	v.names, v.before = Holding(in.Game.Seats)
	v.gameNames = GameNames(in.Game.Seats)
	for i := range v.seats {
		if err := v.mailSeat(i); err != nil {
			return nil, err
		}
	}
	return &Told{Mails: v.out, Seats: v.seats, Nonce: v.nonce}, nil
}

// mailView is one run of Mails: the input, and the seats, mail counter
// and mails as they are told.
type mailView struct {
	*Teller
	*Input
	seats []Seat
	nonce int
	out   []*Outgoing
	// names are the seats' current holders by seat, before their earlier
	// holders (every reader's Seats and Before: Holding).
	names  []string
	before [][]Holder
	// gameNames are the seats' names in the game (every reader's Names).
	gameNames []string
	// log is the whole log once Input.Older was read (olderRead).
	log       []Entry
	olderRead bool
	// views gives each seat's view of the table's state, the public
	// standing adjudicated once for all of them (engine.Views, issue 25).
	views func(seat int) any
}

// view is seat i's view of the table's state.
func (v *mailView) view(i int) any {
	if v.views == nil {
		v.views = engine.Views(v.Table.State)
	}
	return v.views(i)
}

// of is seat i's change record (the zero record if nothing changed).
func (v *mailView) of(i int) SeatChange {
	if i >= 0 && i < len(v.Changes) {
		return v.Changes[i]
	}
	return SeatChange{}
}

func (v *mailView) reader(seat int) Reader {
	return Reader{Game: v.Game.Game, Lang: v.seats[seat].Lang, Seat: seat, Seats: v.names, Before: v.before, Names: v.gameNames}
}

func (v *mailView) token() int { return TableToken(v.Table) }

// messageID numbers the next mail of the game to seat.
func (v *mailView) messageID(seat int) string {
	v.nonce++
	return MessageID(v.Game.ID, seat, v.token(), v.nonce, v.Domain)
}

// TableToken is a table's state token (0 before the start).
func TableToken(tb *engine.Table) int {
	if tb == nil {
		return 0
	}
	return tb.Token()
}

// MessageID is the Message-ID of a game's mail:
// <rf.<game>.<seat>.<token>.<nonce>@domain>, seat "x" for none.
func MessageID(game string, seat, token, nonce int, domain string) string {
	s := "x"
	if seat >= 0 {
		s = fmt.Sprint(seat)
	}
	if token < 0 {
		token = 0
	}
	return fmt.Sprintf("<rf.%s.%s.%d.%d@%s>", game, s, token, nonce, domain)
}

// WaitingNames lists the names of the seats a table waits for, sorted
// (names are the seats' names by seat).
func WaitingNames(names []string, tb *engine.Table) []string {
	var out []string
	seen := map[int]bool{}
	for _, d := range tb.Waiting() {
		if !seen[d.Seat] {
			seen[d.Seat] = true
			out = append(out, names[d.Seat])
		}
	}
	sort.Strings(out)
	return out
}
