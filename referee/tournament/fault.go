package tournament

import (
	"errors"

	"github.com/pbem-referee/referee/engine"
)

// Fault is a refusal of the record (bad settings, a result or a swap that
// does not fit, a round that cannot be drawn) as structured data: Code
// names it and Data holds its values, so that the caller words it in the
// reader's language (package bymail: the template "err.t.<Code>"). Error
// is for logs and tests only: the code and the values, no prose. Is
// matches the sentinel (ErrFormat, ErrEntrants) a Fault belongs to.
type Fault struct {
	Code string
	Data map[string]any
	of   error
}

// Fault codes (the keys of Fault.Data in brackets).
const (
	FaultEvery        = "every"         // every= is negative [every]
	FaultDateOrder    = "date_order"    // [round, prev]: a date not after the one before
	FaultOpen         = "open"          // [open]: open= is not schedule or complete
	FaultOpenSchedule = "open_schedule" // open=schedule without dates
	FaultZone         = "zone"          // [tz]: not a time zone
	FaultDuration     = "duration"      // [value]: not a duration
	FaultDate         = "date"          // [value]: not a date
	FaultTable        = "table"         // [game, table]: the game does not allow tables of table
	FaultTwoSeats     = "two_seats"     // [format]: swiss and round robin pair two
	FaultFormat       = "format"        // [format]: not a format
	FaultPointsCount  = "points_count"  // [points, table]: fewer points than places
	FaultLate         = "late"          // [late]: late= is not adjudicate or forfeit
	FaultForfeits     = "forfeits"      // [forfeits]: not skip or count
	FaultTiebreak     = "tiebreak"      // [tiebreak]: not a tie-break
	FaultPoints       = "points"        // [points]: not a list of points
	FaultPlaces       = "places"        // [places, seats]: places given for a game's seats
	FaultPlace        = "place"         // [place, seats]: a place outside 1..seats
	FaultNotInRound   = "not_in_round"  // [a, b, round]: entrants not both in the round
	FaultSameGame     = "same_game"     // [a, b]: entrants at one table
	FaultHasResult    = "has_result"    // [round]: a game of the round has a result
	FaultIncomplete   = "incomplete"    // [round]: the round is not complete
	FaultAllPlayed    = "all_played"    // [rounds]: no round left to draw
	FaultNoPairing    = "no_pairing"    // [entrants]: no pairing of the entrants
	FaultNoGame       = "no_game"       // [game, id]: the game is not the tournament's
	FaultStarted      = "started"       // [round]: a game of the round has a move
	FaultNoOpenRound  = "no_open_round" // [id]: no round is open
)

// fault makes a Fault of code with data given as key, value pairs.
func fault(of error, code string, kv ...any) *Fault {
	return &Fault{Code: code, Data: engine.Params(kv...), of: of}
}

func (f *Fault) Error() string { return engine.CodeText("tournament: ", f.Code, f.Data) }

// Is matches the sentinel the fault belongs to.
func (f *Fault) Is(target error) bool { return f.of != nil && target == f.of }

// AsFault returns the Fault in err's chain, or nil.
func AsFault(err error) *Fault {
	var f *Fault
	if errors.As(err, &f) {
		return f
	}
	return nil
}

// NoGame is the Fault of a game that is not one of t's.
func (t *Tournament) NoGame(gameID string) error {
	return fault(nil, FaultNoGame, "game", gameID, "id", t.ID)
}
