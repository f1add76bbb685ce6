package engine

// State is one game in progress. Implementations are plain structs that
// marshal to JSON (encoding/json) and back through Game.DecodeState without
// any loss: marshal(decode(marshal(s))) == marshal(s).
//
// Apply mutates the state in place and must leave it unchanged when it
// returns an error (validate first, then mutate). Every other method is
// read-only. A State is not safe for concurrent use.
type State interface {
	// Head returns the common header (schema and ruleset versions, seats,
	// the random source, the move counter). The pointer stays valid for the
	// life of the state.
	Head() *Header

	// Pending lists the decisions owed now. Sequential games return the one
	// decision of the seat whose turn it is; simultaneous decisions list one
	// entry per seat that still owes an answer, all with the same Group.
	// An empty list means the game is over (Result is then non-nil).
	Pending() []Decision

	// Legal enumerates the complete legal moves for a pending decision, as
	// canonical command lines (each parses back to the same move). Free
	// actions that are not answers to the decision are not listed. A decision
	// with exactly one legal option is a forced one: the Table applies it
	// without asking anybody.
	Legal(d Decision) []Option

	// Parse turns one command line (one alternative, comments and the
	// shared conventions already removed) into a Move for that seat. It
	// checks syntax and static facts (known spaces, cards, colours), not
	// legality in the current position: a queued line is parsed on receipt
	// and applied later. Errors are *RuleError with CodeSyntax or
	// CodeUnknownCommand or a game code.
	Parse(seat int, line string) (Move, error)

	// Route assigns each order of one message to a queue slot, or marks it
	// Now (free actions and standing orders, applied on receipt). It sees the
	// whole message, so routing may depend on neighbouring lines, and it may
	// rewrite an order's lines (to strip a routing prefix such as "PLAN T7").
	// It returns nil, or one error per order (nil for the orders routed
	// well): a *RuleError for an order that can never be applied (a phase
	// that is already over, a command unknown to the game).
	Route(seat int, orders []Order) []error

	// SlotOpen reports whether orders queued under slot for seat can still be
	// applied. The Table drops orders whose slot has closed and tells the seat.
	SlotOpen(seat int, slot string) bool

	// Apply plays a move for a seat: an answer to one of its pending
	// decisions, or a free action allowed now. It returns the events that
	// happened, including automatic steps that follow (rolls, end of phase),
	// or a *RuleError and no change.
	Apply(seat int, m Move) ([]Event, error)

	// View returns what the seat may see, as a JSON-friendly value that
	// templates render. Seat -1 is an observer: public information only.
	View(seat int) any

	// Result returns the final scores and ranking, or nil while the game runs.
	Result() *Result

	// Clone returns an independent deep copy.
	Clone() State

	// Check verifies the game's invariants (components conserved, no
	// negative stock, a consistent position). Tests and selfplay call it
	// after every move.
	Check() error
}

// AdjudicatedViewer is an optional interface of a State whose View holds
// the public standing, Adjudicate's result, the same for every seat and
// an observer (Fromage's Standing, Dice Brewing's Projected).
// ViewAdjudicated(seat, adj) is View(seat) given adj, the result of
// Adjudicate for this very state, and View(seat) is
// ViewAdjudicated(seat, Adjudicate()): the views of one state then
// adjudicate once (Views; issue 25: the mails of a move view every seat).
type AdjudicatedViewer interface {
	Adjudicate() *Result
	ViewAdjudicated(seat int, adj *Result) any
}

// Views returns View(seat) of st for any seat asked, Adjudicate computed
// once for all of them when st is an AdjudicatedViewer. It is valid while
// st does not change.
func Views(st State) func(seat int) any {
	av, ok := st.(AdjudicatedViewer)
	if !ok {
		return st.View
	}
	var adj *Result
	done := false
	return func(seat int) any {
		if !done {
			adj, done = av.Adjudicate(), true
		}
		return av.ViewAdjudicated(seat, adj)
	}
}

// Move is a parsed command. Its String method returns the canonical command
// line, which Parse accepts and maps back to an equal move; logs and replays
// store that text.
type Move interface {
	String() string
}

// Header is the part of every state that the contract itself uses.
type Header struct {
	// Schema is the version of the game's state layout. DecodeState migrates
	// older schemas or refuses them.
	Schema  int               `json:"schema"`
	Game    string            `json:"game"`
	Variant string            `json:"variant"`
	Options map[string]string `json:"options,omitempty"`
	// Seats are the player names by seat number (0..n-1), in seating order.
	Seats []string `json:"seats"`
	// RulesetVersion is the version string declared in the data file the
	// game was started with; RulesetSHA is the SHA-256 (hex) of its bytes.
	RulesetVersion string `json:"ruleset_version"`
	RulesetSHA     string `json:"ruleset_sha256"`
	// Rand is the game's only source of randomness.
	Rand Rand `json:"rand"`
	// Moves counts the moves applied so far (Apply calls that succeeded).
	Moves int `json:"moves"`
}

// NewHeader fills a header from a validated config. seed is hashed into the
// random source; sha is the SHA-256 of the ruleset bytes.
func NewHeader(game string, schema int, variant string, opts map[string]string, cfg Config, rulesetVersion, rulesetSHA string) Header {
	seats := append([]string(nil), cfg.Seats...)
	rnd := NewRand(cfg.Seed)
	for _, f := range cfg.Script {
		rnd.Push(f.Kind, f.Value)
	}
	return Header{
		Schema:         schema,
		Game:           game,
		Variant:        variant,
		Options:        opts,
		Seats:          seats,
		RulesetVersion: rulesetVersion,
		RulesetSHA:     rulesetSHA,
		Rand:           rnd,
	}
}

// CloneHeader returns a deep copy of h.
func (h Header) Clone() Header {
	c := h
	if h.Options != nil {
		c.Options = make(map[string]string, len(h.Options))
		for k, v := range h.Options {
			c.Options[k] = v
		}
	}
	c.Seats = append([]string(nil), h.Seats...)
	c.Rand = h.Rand.Clone()
	return c
}

// Mode says whether a decision is taken in turn or by several seats at once.
type Mode string

const (
	// Sequential decisions are answered one at a time, in turn order.
	Sequential Mode = "sequential"
	// Simultaneous decisions are answered by every seat of a group, sealed
	// until all have answered, then applied in Rank order.
	Simultaneous Mode = "simultaneous"
)

// Decision is one choice owed by one seat.
type Decision struct {
	Seat int  `json:"seat"`
	Mode Mode `json:"mode"`
	// Kind names the decision for prompts, defaults and deadlines, e.g.
	// "place", "window", "buy", "brew", "reward", "turn", "draft".
	Kind string `json:"kind"`
	// Rank is the seat's priority rank in the current order (0 = first).
	// Simultaneous answers are applied in ascending Rank.
	Rank int `json:"rank"`
	// Slot is the queue slot whose orders answer this decision (see
	// State.Route). Orders are consumed one per move.
	Slot string `json:"slot"`
	// Group identifies the simultaneous decisions resolved together.
	Group string `json:"group,omitempty"`
	// Pass is the canonical move used by "ELSE PASS" ("PASS", "DONE",
	// "NOBUY"...); empty when the decision cannot be passed.
	Pass string `json:"pass,omitempty"`
	// Default is the canonical move applied when the deadline passes.
	Default string `json:"default"`
	// Params gives templates the context of the question (round, phase,
	// what was just brewed...). JSON-friendly values only.
	Params map[string]any `json:"params,omitempty"`
}

// Option is one legal answer to a decision.
type Option struct {
	// Cmd is the canonical command line.
	Cmd string `json:"cmd"`
	// Params describes the option for templates (costs, effects).
	Params map[string]any `json:"params,omitempty"`
	// Group names the option's kind of action when the game groups its
	// menus (Dice Brewing: "place:MH1", "token:PLUS", "store"; empty: no
	// group). The Table keeps the options of one group together, groups
	// in the order of their first option (the best known first); the
	// templates give each group a heading in words (option.group).
	Group string `json:"group,omitempty"`
}

// Result is the end of a game.
type Result struct {
	// Scores has one entry per seat, in seat order.
	Scores []Score `json:"scores"`
	// Rank gives each seat's final place, 1 = winner. Seats that share a
	// place (a shared win after all tie-breakers) have the same rank.
	Rank []int `json:"rank"`
	// Params carries game-specific facts (the Corporation's score in solo
	// Fromage, the end trigger...).
	Params map[string]any `json:"params,omitempty"`
}

// Score is one seat's final score.
type Score struct {
	Seat  int `json:"seat"`
	Total int `json:"total"`
	// Parts is the breakdown by category, in the order the game scores them.
	Parts []ScorePart `json:"parts,omitempty"`
	// Tiebreak holds the values compared, in order, when totals are equal
	// (higher is better).
	Tiebreak []int `json:"tiebreak,omitempty"`
}

// ScorePart is one category of a score breakdown.
type ScorePart struct {
	Name   string `json:"name"`
	Points int    `json:"points"`
}

// Winners returns the seats ranked first.
func (r *Result) Winners() []int {
	var w []int
	for s, rk := range r.Rank {
		if rk == 1 {
			w = append(w, s)
		}
	}
	return w
}

// RankScores computes Rank from Total and then Tiebreak (higher is better,
// compared in order). Seats equal on everything share a rank.
func RankScores(scores []Score) []int {
	better := func(a, b Score) int { // 1 if a beats b, -1 if b beats a, 0 equal
		if a.Total != b.Total {
			if a.Total > b.Total {
				return 1
			}
			return -1
		}
		for i := 0; i < len(a.Tiebreak) && i < len(b.Tiebreak); i++ {
			if a.Tiebreak[i] != b.Tiebreak[i] {
				if a.Tiebreak[i] > b.Tiebreak[i] {
					return 1
				}
				return -1
			}
		}
		return 0
	}
	rank := make([]int, len(scores))
	for i := range scores {
		r := 1
		for j := range scores {
			if better(scores[j], scores[i]) > 0 {
				r++
			}
		}
		rank[scores[i].Seat] = r
	}
	return rank
}

// RouteErrors collects what Route returns: nil while every order routes
// well, then one error per order (nil for the orders routed well).
type RouteErrors []error

// Fail records err for order i of n orders.
func (e *RouteErrors) Fail(n, i int, err error) {
	if *e == nil {
		*e = make(RouteErrors, n)
	}
	(*e)[i] = err
}
