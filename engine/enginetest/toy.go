// Package enginetest holds what engine tests share: a tiny complete game
// ("toy") that exercises every part of the engine contract, and a
// conformance suite that every real game runs against itself.
//
// The games' rule vectors have one file format and one runner here
// (vectors.go): testdata/*.vectors holds cases framed "CASE <name> <title
// citing rule ids> ... END", with "#" comment lines (ParseVectors, fuzzed
// by FuzzParseVectors); RunVectorFiles plays each case as a subtest and
// reports a failing one by its file:line and the rule ids it cites.
//
// It owns the conformance suite, the toy games and the helpers engine tests
// share. It must not be linked into the binary (it imports testing) nor hold
// a real game's rules.
package enginetest

import (
	_ "embed"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/pbem-referee/referee/engine"
)

// The toy game, "Bid & Roll". Each round every seat bids chips, sealed and
// simultaneously; the bids set the order in which seats then take a push-
// your-luck turn: ROLL a die to add it to the turn's pot (a 1 loses the pot
// and ends the turn) or HOLD to bank the pot. After the last round the most
// points win; more chips left breaks ties. AUTOHOLD n is a private standing
// order that holds as soon as the pot reaches n. The "secret" variant never
// reveals the bids, only the order they produced.
//
// Rule ids: TOY-1 bidding, TOY-2 rolling, TOY-3 end and scoring.

//go:embed toy.toml
var toyRuleset []byte

// Toy is the toy game.
var Toy engine.Game = toyGame{}

var registerOnce sync.Once

// RegisterToy registers the toy game (once; safe to call many times).
func RegisterToy() { registerOnce.Do(func() { engine.Register(Toy) }) }

type toyRules struct {
	Game        string `toml:"game"`
	Version     string `toml:"version"`
	Provisional bool   `toml:"provisional"`
	Chips       int    `toml:"chips"`
	DieSides    int    `toml:"die_sides"`
	MaxRolls    int    `toml:"max_rolls"`
	Bust        int    `toml:"bust"`
}

// toyData loads the toy's data file (engine.Ruleset, as every game's
// data.go).
var toyData = &engine.Ruleset[*toyRules]{Default: toyRuleset, Parse: parseToyRules}

// RulesetVersion implements engine.Versioned.
func (r *toyRules) RulesetVersion() string { return r.Version }

func parseToyRules(data []byte) (*toyRules, error) {
	var r toyRules
	if _, err := engine.DecodeRuleset("toy", data, &r); err != nil {
		return nil, err
	}
	if r.Chips < 0 || r.DieSides < 2 || r.MaxRolls < 1 || r.Bust < 1 || r.Bust > r.DieSides {
		return nil, engine.BadRuleset("values out of range")
	}
	return &r, nil
}

type toyGame struct{}

func (toyGame) Info() engine.Info { return toyInfo }

// toyInfo is the game's description, built once and shared by every
// Info (engine.Game.Info: read-only; issue 24).
var toyInfo = engine.Info{
	Name: "toy", Title: "Bid & Roll (contract test game)",
	MinPlayers: 2, MaxPlayers: 4,
	Variants: []engine.Variant{
		{Name: "standard", Description: "bids are revealed after each bidding round"},
		{Name: "secret", Description: "bids stay secret; only the order is announced"},
	},
	Options: []engine.OptionSpec{
		{Name: "rounds", Values: []string{"3", "1", "2", "5"}, Description: "number of rounds"},
	},
	RulePrefix:  "TOY",
	Commands:    []string{"BID", "ROLL", "HOLD", "AUTOHOLD"},
	ScriptKinds: []engine.ScriptKind{{Kind: "dice", Usage: "!dice 4 1 6"}},
	Bots:        []string{"random", "greedy"},
}

func (toyGame) DefaultRuleset() []byte { return toyRuleset }

func (g toyGame) NewState(cfg engine.Config) (engine.State, []engine.Event, error) {
	h, rules, err := engine.Setup(g.Info(), 1, toyData, cfg)
	if err != nil {
		return nil, nil, err
	}
	rounds, _ := strconv.Atoi(h.Options["rounds"])
	n := len(cfg.Seats)
	s := &toyState{
		H:      h,
		Round:  1,
		Rounds: rounds,
		Phase:  "bid",
		Chips:  fill(n, rules.Chips),
		Score:  fill(n, 0),
		Bids:   fill(n, -1),
		Auto:   fill(n, 0),
		rules:  rules,
	}
	ev := engine.NewEvent("toy.setup", -1, engine.Public, "seats", s.H.Seats, "chips", rules.Chips, "rounds", rounds)
	return s, []engine.Event{ev}, nil
}

func (toyGame) DecodeState(data, ruleset []byte) (engine.State, error) {
	rules, sha, err := toyData.Load(ruleset)
	if err != nil {
		return nil, err
	}
	var s toyState
	if err := engine.DecodeStateJSON("toy", 1, sha, data, &s, &s.H); err != nil {
		return nil, err
	}
	s.rules = rules
	return &s, nil
}

func (toyGame) NewBot(name string) (engine.Bot, error) {
	return engine.NamedBot("toy", name, map[string]engine.Bot{"greedy": toyGreedy{}})
}

func fill(n, v int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}

type toyState struct {
	H      engine.Header `json:"head"`
	Round  int           `json:"round"`
	Rounds int           `json:"rounds"`
	Phase  string        `json:"phase"` // bid, roll, over
	Chips  []int         `json:"chips"`
	Score  []int         `json:"score"`
	Bids   []int         `json:"bids"`            // -1: not bid yet this round
	Last   []int         `json:"last,omitempty"`  // the bids of the last resolved round
	Order  []int         `json:"order,omitempty"` // roll order of this round
	Turn   int           `json:"turn"`            // index into Order
	Pot    int           `json:"pot"`
	Rolls  int           `json:"rolls"`
	Auto   []int         `json:"auto"` // AUTOHOLD thresholds, 0 = off (private)

	rules *toyRules
}

func (s *toyState) Head() *engine.Header { return &s.H }

func (s *toyState) Clone() engine.State {
	c := *s
	c.H = s.H.Clone()
	// One array for the six lists (issue 24: a round's thousands of games
	// each cloned a state per step); each part's capacity is its length,
	// so an append never writes into the next, and an empty list is nil,
	// as a copy by append made it.
	buf := make([]int, 0, len(s.Chips)+len(s.Score)+len(s.Bids)+len(s.Last)+len(s.Order)+len(s.Auto))
	part := func(x []int) []int {
		if len(x) == 0 {
			return nil
		}
		buf = append(buf, x...)
		return buf[len(buf)-len(x) : len(buf) : len(buf)]
	}
	c.Chips, c.Score, c.Bids = part(s.Chips), part(s.Score), part(s.Bids)
	c.Last, c.Order, c.Auto = part(s.Last), part(s.Order), part(s.Auto)
	return &c
}

// slot is a decision's slot: "r<round>.<phase>".
func (s *toyState) slot(round int, phase string) string {
	return "r" + strconv.Itoa(round) + "." + phase
}

func (s *toyState) Pending() []engine.Decision {
	switch s.Phase {
	case "bid":
		var out []engine.Decision
		sl := ""
		for seat, b := range s.Bids {
			if b < 0 {
				if sl == "" {
					sl = s.slot(s.Round, "bid")
				}
				out = append(out, engine.Decision{Seat: seat, Mode: engine.Simultaneous, Kind: "bid", Rank: seat,
					Slot: sl, Group: sl, Pass: "BID 0", Default: "BID 0",
					Params: map[string]any{"round": s.Round, "chips": s.Chips[seat]}})
			}
		}
		return out
	case "roll":
		seat := s.Order[s.Turn]
		return []engine.Decision{{Seat: seat, Mode: engine.Sequential, Kind: "roll", Rank: s.Turn,
			Slot: s.slot(s.Round, "roll"), Pass: "HOLD", Default: "HOLD",
			Params: map[string]any{"round": s.Round, "pot": s.Pot, "rolls": s.Rolls}}}
	}
	return nil
}

func (s *toyState) Legal(d engine.Decision) []engine.Option {
	switch d.Kind {
	case "bid":
		out := make([]engine.Option, 0, s.Chips[d.Seat]+1)
		for b := 0; b <= s.Chips[d.Seat]; b++ {
			out = append(out, engine.Option{Cmd: bidCmd(b)})
		}
		return out
	case "roll":
		if s.Rolls >= s.rules.MaxRolls {
			return []engine.Option{{Cmd: "HOLD"}}
		}
		return []engine.Option{{Cmd: "ROLL"}, {Cmd: "HOLD", Params: map[string]any{"banks": s.Pot}}}
	}
	return nil
}

// bidCmds are "BID 0" to "BID 99", made once: a bid's options are
// asked for at every prompt (issue 24).
var bidCmds = func() []string {
	out := make([]string, 100)
	for b := range out {
		out[b] = "BID " + strconv.Itoa(b)
	}
	return out
}()

// bidCmd is "BID <b>".
func bidCmd(b int) string {
	if b < len(bidCmds) {
		return bidCmds[b]
	}
	return "BID " + strconv.Itoa(b)
}

type toyMove struct {
	Verb string
	N    int
}

func (m toyMove) String() string {
	switch m.Verb {
	case "BID":
		return "BID " + strconv.Itoa(m.N)
	case "AUTOHOLD":
		if m.N == 0 {
			return "AUTOHOLD OFF"
		}
		return "AUTOHOLD " + strconv.Itoa(m.N)
	}
	return m.Verb
}

func (s *toyState) Parse(seat int, line string) (engine.Move, error) {
	f := engine.Fields(line)
	if len(f) == 0 {
		return nil, engine.Reject("", engine.CodeSyntax, "line", line)
	}
	switch f[0] {
	case "ROLL", "HOLD":
		if len(f) != 1 {
			return nil, engine.Reject("", engine.CodeSyntax, "line", line, "expected", f[0])
		}
		return toyMove{Verb: f[0]}, nil
	case "BID", "AUTOHOLD":
		if len(f) != 2 {
			return nil, engine.Reject("", engine.CodeSyntax, "line", line, "expected", f[0]+" <n>")
		}
		if f[0] == "AUTOHOLD" && f[1] == "OFF" {
			return toyMove{Verb: "AUTOHOLD"}, nil
		}
		n, err := strconv.Atoi(f[1])
		if err != nil || n < 0 || n > 99 {
			return nil, engine.Reject("", engine.CodeSyntax, "line", line, "token", f[1])
		}
		return toyMove{Verb: f[0], N: n}, nil
	}
	return nil, engine.Reject("", engine.CodeUnknownCommand, "word", f[0])
}

// Route: AUTOHOLD applies on receipt; BID goes to the current bidding round,
// or the next one once bidding is over; ROLL and HOLD go to this round's
// rolling turns.
func (s *toyState) Route(seat int, orders []engine.Order) []error {
	var errs []error
	for i := range orders {
		switch orders[i].Keyword() {
		case "AUTOHOLD":
			orders[i].Now = true
		case "BID":
			r := s.Round
			if s.Phase != "bid" || s.Bids[seat] >= 0 {
				r++
			}
			orders[i].Slot = s.slot(r, "bid")
		case "ROLL", "HOLD":
			orders[i].Slot = s.slot(s.Round, "roll")
		default:
			if errs == nil {
				errs = make([]error, len(orders))
			}
			errs[i] = engine.Reject("", engine.CodeUnknownCommand, "word", orders[i].Keyword())
		}
	}
	return errs
}

func (s *toyState) SlotOpen(seat int, slot string) bool {
	var r int
	var phase string
	if _, err := fmt.Sscanf(strings.Replace(slot, ".", " ", 1), "r%d %s", &r, &phase); err != nil {
		return false
	}
	if s.Phase == "over" || r < s.Round {
		return false
	}
	if r > s.Round {
		return true
	}
	return phase == s.Phase || (phase == "roll" && s.Phase == "bid")
}

func (s *toyState) Apply(seat int, mv engine.Move) ([]engine.Event, error) {
	m, ok := mv.(toyMove)
	if !ok {
		return nil, engine.Reject("", engine.CodeSyntax, "line", mv.String())
	}
	if seat < 0 || seat >= len(s.Chips) {
		return nil, engine.Reject("", engine.CodeNotSeated, "seat", seat)
	}
	if s.Phase == "over" {
		return nil, engine.Reject("TOY-3", engine.CodeGameOver)
	}
	var evs []engine.Event
	switch m.Verb {
	case "AUTOHOLD":
		s.Auto[seat] = m.N
		evs = append(evs, engine.NewEvent("toy.autohold", seat, engine.Only(seat), "at", m.N))
	case "BID":
		if s.Phase != "bid" {
			return nil, engine.Reject("TOY-1", engine.CodeWrongDecision, "kind", "roll")
		}
		if s.Bids[seat] >= 0 {
			return nil, engine.Reject("TOY-1", "already_bid")
		}
		if m.N > s.Chips[seat] {
			return nil, engine.Reject("TOY-1", "not_enough_chips", "bid", m.N, "chips", s.Chips[seat])
		}
		s.Bids[seat] = m.N
		ev := engine.NewEvent("toy.bid", seat, engine.Only(seat), "amount", m.N)
		ev.Redacted = map[string]any{}
		evs = append(evs, ev)
		evs = append(evs, s.resolveBids()...)
	case "ROLL", "HOLD":
		if s.Phase != "roll" {
			return nil, engine.Reject("TOY-2", engine.CodeWrongDecision, "kind", "bid")
		}
		if s.Order[s.Turn] != seat {
			return nil, engine.Reject("TOY-2", engine.CodeNotYourTurn, "waiting_for", []int{s.Order[s.Turn]})
		}
		if m.Verb == "HOLD" {
			evs = append(evs, s.hold(seat, false)...)
			break
		}
		if s.Rolls >= s.rules.MaxRolls {
			return nil, engine.Reject("TOY-2", "no_rolls_left", "max", s.rules.MaxRolls)
		}
		v := s.H.Rand.Roll("dice", s.rules.DieSides)
		s.Rolls++
		if v == s.rules.Bust {
			evs = append(evs, engine.NewEvent("toy.roll", seat, engine.Public, "value", v, "bust", true, "lost", s.Pot))
			s.Pot = 0
			evs = append(evs, s.endTurn()...)
			break
		}
		s.Pot += v
		evs = append(evs, engine.NewEvent("toy.roll", seat, engine.Public, "value", v, "pot", s.Pot))
		if a := s.Auto[seat]; a > 0 && s.Pot >= a {
			evs = append(evs, s.hold(seat, true)...)
		}
	}
	s.H.Moves++
	return evs, nil
}

func (s *toyState) resolveBids() []engine.Event {
	for _, b := range s.Bids {
		if b < 0 {
			return nil
		}
	}
	order := make([]int, len(s.Bids))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return s.Bids[order[i]] > s.Bids[order[j]] }) // TOY-1: high bid first, ties by seat
	for seat, b := range s.Bids {
		s.Chips[seat] -= b
	}
	s.Last = append([]int(nil), s.Bids...)
	s.Order = order
	s.Phase, s.Turn, s.Pot, s.Rolls = "roll", 0, 0, 0
	ev := engine.NewEvent("toy.order", -1, engine.Public, "order", order, "round", s.Round)
	if s.H.Variant != "secret" {
		ev.Params["bids"] = append([]int(nil), s.Bids...)
	}
	for i := range s.Bids {
		s.Bids[i] = 0
	}
	return []engine.Event{ev}
}

func (s *toyState) hold(seat int, auto bool) []engine.Event {
	s.Score[seat] += s.Pot
	ev := engine.NewEvent("toy.hold", seat, engine.Public, "banked", s.Pot, "score", s.Score[seat])
	if auto {
		ev.Params["auto"] = true
	}
	s.Pot = 0
	return append([]engine.Event{ev}, s.endTurn()...)
}

func (s *toyState) endTurn() []engine.Event {
	s.Turn++
	s.Pot, s.Rolls = 0, 0
	if s.Turn < len(s.Order) {
		return nil
	}
	// TOY-3: after the last round the game ends.
	if s.Round == s.Rounds {
		s.Phase = "over"
		res := s.Result()
		return []engine.Event{engine.NewEvent(engine.EvGameOver, -1, engine.Public, "rank", res.Rank)}
	}
	s.Round++
	s.Phase, s.Order, s.Turn = "bid", nil, 0
	for i := range s.Bids {
		s.Bids[i] = -1
	}
	return []engine.Event{engine.NewEvent("toy.round", -1, engine.Public, "round", s.Round)}
}

// ToyView is what a seat sees.
type ToyView struct {
	Seat     int      `json:"seat"`
	Seats    []string `json:"seats"`
	Round    int      `json:"round"`
	Rounds   int      `json:"rounds"`
	Phase    string   `json:"phase"`
	Chips    []int    `json:"chips"`
	Score    []int    `json:"score"`
	Bid      int      `json:"bid"`                 // own bid this round, -1 if none
	HasBid   []bool   `json:"has_bid,omitempty"`   // who has bid this round
	LastBids []int    `json:"last_bids,omitempty"` // revealed bids of the last round (standard variant)
	Order    []int    `json:"order,omitempty"`
	Turn     int      `json:"turn"`
	Pot      int      `json:"pot"`
	Rolls    int      `json:"rolls"`
	AutoHold int      `json:"autohold,omitempty"` // own standing order
}

func (s *toyState) View(seat int) any {
	v := ToyView{Seat: seat, Seats: s.H.Seats, Round: s.Round, Rounds: s.Rounds, Phase: s.Phase,
		Chips: s.Chips, Score: s.Score, Bid: -1, Order: s.Order, Turn: s.Turn, Pot: s.Pot, Rolls: s.Rolls}
	if s.Phase == "bid" {
		v.HasBid = make([]bool, len(s.Bids))
		for i, b := range s.Bids {
			v.HasBid[i] = b >= 0
		}
		if seat >= 0 {
			v.Bid = s.Bids[seat]
		}
	}
	if s.H.Variant != "secret" {
		v.LastBids = s.Last
	}
	if seat >= 0 {
		v.AutoHold = s.Auto[seat]
	}
	return v
}

func (s *toyState) Result() *engine.Result {
	if s.Phase != "over" {
		return nil
	}
	scores := make([]engine.Score, len(s.Score))
	for i := range scores {
		scores[i] = engine.Score{Seat: i, Total: s.Score[i], Tiebreak: []int{s.Chips[i]},
			Parts: []engine.ScorePart{{Name: "points", Points: s.Score[i]}}}
	}
	return &engine.Result{Scores: scores, Rank: engine.RankScores(scores)}
}

func (s *toyState) Check() error {
	for i := range s.Chips {
		if s.Chips[i] < 0 || s.Chips[i] > s.rules.Chips {
			return fmt.Errorf("seat %d has %d chips", i, s.Chips[i])
		}
		if s.Score[i] < 0 {
			return fmt.Errorf("seat %d has a negative score", i)
		}
	}
	if s.Phase == "roll" && (s.Turn < 0 || s.Turn >= len(s.Order)) {
		return fmt.Errorf("turn %d out of order %v", s.Turn, s.Order)
	}
	return nil
}

// toyGreedy bids a third of its chips and rolls while the pot is under 8.
type toyGreedy struct{}

func (toyGreedy) Choose(st engine.State, d engine.Decision, opts []engine.Option, _ *rand.Rand) int {
	s := st.(*toyState)
	if d.Kind == "bid" {
		want := "BID " + strconv.Itoa(s.Chips[d.Seat]/3)
		for i, o := range opts {
			if o.Cmd == want {
				return i
			}
		}
		return 0
	}
	for i, o := range opts {
		if (o.Cmd == "ROLL") == (s.Pot < 8) {
			return i
		}
	}
	return 0
}
