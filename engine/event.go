package engine

// Event is something that happened in a game: a roll, a placement, a card
// drawn, the end of a phase. Events are data for templates and logs; their
// Type is namespaced by the game ("db.roll", "fr.gather") except for the
// shared types below.
type Event struct {
	Type string `json:"type"`
	// Seat is the acting seat, or -1 when the game itself acts.
	Seat int `json:"seat"`
	// Vis says who may see the event in full.
	Vis Visibility `json:"vis"`
	// Params are the event's facts. JSON-friendly values only (string,
	// bool, int, []string, []int, map[string]any...).
	Params map[string]any `json:"params,omitempty"`
	// Redacted is what the seats outside Vis see instead: the same event
	// type with the hidden facts removed (for example "Ann bought an action
	// token" without its kind). Nil means those seats do not see the event
	// at all; an empty map means they see that it happened and no fact of
	// it (Fromage's "Ann places a tile.", FR-6.3). The JSON keeps the two
	// apart ("redacted":{} for the empty map: omitzero, not omitempty,
	// which dropped it, so that the log as stored hid from the others an
	// event they may see; TestEventRedactedSurvivesJSON).
	Redacted map[string]any `json:"redacted,omitzero"`
	// Err is the rule error of a part of the acting seat's move that the
	// game dropped when it played the move (Dice Brewing's second item
	// after a roll, DB-5.3.4): the line is echoed "partial" with it. Rule
	// errors live here only, never among Params, so that no fact of an
	// event can pass for an error (issue 21).
	Err *RuleError `json:"err,omitempty"`
}

// Visibility lists who may see an event in full. The zero value means
// nobody but the final, unredacted log published at the end of the game.
type Visibility struct {
	Public bool  `json:"public,omitempty"`
	Seats  []int `json:"seats,omitempty"`
}

// Public is the visibility of an event everybody sees.
var Public = Visibility{Public: true}

// Only returns the visibility of an event only the given seats see.
func Only(seats ...int) Visibility { return Visibility{Seats: seats} }

// Sees reports whether seat may see an event with this visibility in full.
// Seat -1 (an observer) sees only public events.
func (v Visibility) Sees(seat int) bool {
	if v.Public {
		return true
	}
	for _, s := range v.Seats {
		if s == seat {
			return true
		}
	}
	return false
}

// For returns the event as the seat may see it: the full event, the redacted
// copy (with Params replaced and Redacted cleared), or false when the seat
// does not see it at all.
func (e Event) For(seat int) (Event, bool) {
	if e.Vis.Sees(seat) {
		e.Redacted = nil
		return e, true
	}
	if e.Redacted == nil {
		return Event{}, false
	}
	return Event{Type: e.Type, Seat: e.Seat, Vis: e.Vis, Params: e.Redacted, Err: e.Err}, true
}

// NewEvent builds an event with Params from alternating key, value pairs.
func NewEvent(typ string, seat int, vis Visibility, kv ...any) Event {
	e := Event{Type: typ, Seat: seat, Vis: vis}
	if len(kv) > 0 {
		e.Params = make(map[string]any, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			k, _ := kv[i].(string)
			e.Params[k] = kv[i+1]
		}
	}
	return e
}

// Shared event types emitted by the Table (games use their own prefixes).
const (
	// EvAuto: a forced decision was applied without asking (the game did
	// it itself: Step.How "auto", or "agreed" when the player's queued
	// line named it). Params: "cmd".
	EvAuto = "auto"
	// EvQueued: a queued order was applied. Params: "cmd", "line".
	EvQueued = "queued"
	// EvHalt: a seat's queue halted because its next order is illegal now.
	// Params: "line", "errors" ([]*RuleError as maps).
	EvHalt = "halt"
	// EvElsePass: no alternative was legal and ELSE PASS applied. Params:
	// "cmd", "line".
	EvElsePass = "else_pass"
	// EvDropped: queued orders were dropped because their slot closed.
	// Params: "lines".
	EvDropped = "dropped"
	// EvSealed: a seat's sealed answer was recorded (private to the seat;
	// others see that the seat has answered). Params: "complete".
	EvSealed = "sealed"
	// EvRevealed: a simultaneous group was resolved. Params: "group".
	EvRevealed = "revealed"
	// EvDefault: a default move was applied because a deadline passed.
	// Params: "cmd", "kind".
	EvDefault = "default"
	// EvScript: a random outcome was scripted (offline play and tests).
	// Params: "kind", "values".
	EvScript = "script"
	// EvGameOver: the game ended. Params: "rank", "totals".
	EvGameOver = "game_over"
)
