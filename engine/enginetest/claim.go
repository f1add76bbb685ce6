package enginetest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"github.com/pbem-referee/referee/engine"
)

// Claim is a second test game, sequential with contention: seats take
// turns claiming numbered spaces (each at most once) or passing; NOTE is a
// free action. It ends when every space is claimed or every seat passed in a
// row. Score: the sum of a seat's spaces. Rule ids: CL-1 turns, CL-2 claims,
// CL-3 the end.
var Claim engine.Game = claimGame{spaces: 5}

var claimOnce sync.Once

// RegisterClaim registers the claim game (once; safe to call many times).
func RegisterClaim() { claimOnce.Do(func() { engine.Register(Claim) }) }

type claimGame struct{ spaces int }

func (g claimGame) Info() engine.Info {
	return engine.Info{Name: "claim", Title: "Claim", MinPlayers: 2, MaxPlayers: 4,
		Variants: []engine.Variant{{Name: "standard"}}, RulePrefix: "CL",
		Commands: []string{"CLAIM", "PASS", "NOTE"}, Bots: []string{"random"}}
}
func (g claimGame) DefaultRuleset() []byte            { return []byte(`game = "claim"` + "\nversion = \"1\"\n") }
func (g claimGame) NewBot(string) (engine.Bot, error) { return engine.RandomBot{}, nil }

func (g claimGame) NewState(cfg engine.Config) (engine.State, []engine.Event, error) {
	v, opts, err := engine.ResolveOptions(g.Info(), cfg)
	if err != nil {
		return nil, nil, err
	}
	s := &claimState{H: engine.NewHeader("claim", 1, v.Name, opts, cfg, "1", engine.RulesetSHA(g.DefaultRuleset())),
		Owner: make([]int, g.spaces+1), Notes: make([]string, len(cfg.Seats))}
	for i := range s.Owner {
		s.Owner[i] = -1
	}
	return s, nil, nil
}

func (g claimGame) DecodeState(data, _ []byte) (engine.State, error) {
	var s claimState
	err := json.Unmarshal(data, &s)
	return &s, err
}

type claimState struct {
	H      engine.Header `json:"head"`
	Owner  []int         `json:"owner"` // by space number (index 0 unused); -1 free
	Turn   int           `json:"turn"`
	Passes int           `json:"passes"`
	Over   bool          `json:"over"`
	Notes  []string      `json:"notes"`
}

type claimMove struct {
	verb string
	n    int
	text string
}

func (m claimMove) String() string {
	switch m.verb {
	case "CLAIM":
		return "CLAIM " + strconv.Itoa(m.n)
	case "NOTE":
		return "NOTE " + m.text
	}
	return m.verb
}

func (s *claimState) Head() *engine.Header { return &s.H }
func (s *claimState) Clone() engine.State {
	c := *s
	c.H = s.H.Clone()
	c.Owner = append([]int(nil), s.Owner...)
	c.Notes = append([]string(nil), s.Notes...)
	return &c
}
func (s *claimState) Pending() []engine.Decision {
	if s.Over {
		return nil
	}
	return []engine.Decision{{Seat: s.Turn, Mode: engine.Sequential, Kind: "claim", Slot: "claim", Pass: "PASS", Default: "PASS"}}
}
func (s *claimState) Legal(d engine.Decision) []engine.Option {
	var out []engine.Option
	for n := 1; n < len(s.Owner); n++ {
		if s.Owner[n] < 0 {
			out = append(out, engine.Option{Cmd: "CLAIM " + strconv.Itoa(n)})
		}
	}
	return append(out, engine.Option{Cmd: "PASS"})
}
func (s *claimState) Parse(seat int, line string) (engine.Move, error) {
	f := engine.Fields(line)
	switch {
	case len(f) == 1 && f[0] == "PASS":
		return claimMove{verb: "PASS"}, nil
	case len(f) == 2 && f[0] == "CLAIM":
		n, err := strconv.Atoi(f[1])
		if err != nil || n < 1 || n >= len(s.Owner) {
			return nil, engine.Reject("", engine.CodeSyntax, "line", line, "token", f[1])
		}
		return claimMove{verb: "CLAIM", n: n}, nil
	case len(f) >= 2 && f[0] == "NOTE":
		return claimMove{verb: "NOTE", text: f[1]}, nil
	case len(f) > 0:
		return nil, engine.Reject("", engine.CodeUnknownCommand, "word", f[0])
	}
	return nil, engine.Reject("", engine.CodeSyntax, "line", line)
}
func (s *claimState) Route(seat int, orders []engine.Order) []error {
	for i := range orders {
		if orders[i].Keyword() == "NOTE" {
			orders[i].Now = true
		} else {
			orders[i].Slot = "claim"
		}
	}
	return nil
}
func (s *claimState) SlotOpen(int, string) bool { return !s.Over }
func (s *claimState) Apply(seat int, mv engine.Move) ([]engine.Event, error) {
	m := mv.(claimMove)
	if m.verb == "NOTE" {
		s.Notes[seat] = m.text
		s.H.Moves++
		return []engine.Event{engine.NewEvent("claim.note", seat, engine.Only(seat), "text", m.text)}, nil
	}
	if s.Over {
		return nil, engine.Reject("CL-3", engine.CodeGameOver)
	}
	if seat != s.Turn {
		return nil, engine.Reject("CL-1", engine.CodeNotYourTurn, "waiting_for", []int{s.Turn})
	}
	var ev engine.Event
	if m.verb == "CLAIM" {
		if s.Owner[m.n] >= 0 {
			return nil, engine.Reject("CL-2", "space_taken", "space", m.n, "by", s.Owner[m.n])
		}
		s.Owner[m.n] = seat
		s.Passes = 0
		ev = engine.NewEvent("claim.claim", seat, engine.Public, "space", m.n)
	} else {
		s.Passes++
		ev = engine.NewEvent("claim.pass", seat, engine.Public)
	}
	s.H.Moves++
	free := 0
	for n := 1; n < len(s.Owner); n++ {
		if s.Owner[n] < 0 {
			free++
		}
	}
	if free == 0 || s.Passes >= len(s.H.Seats) {
		s.Over = true
	} else {
		s.Turn = (s.Turn + 1) % len(s.H.Seats)
	}
	return []engine.Event{ev}, nil
}
func (s *claimState) View(seat int) any { return s.Owner }
func (s *claimState) Result() *engine.Result {
	if !s.Over {
		return nil
	}
	scores := make([]engine.Score, len(s.H.Seats))
	for i := range scores {
		scores[i].Seat = i
	}
	for n, o := range s.Owner {
		if o >= 0 {
			scores[o].Total += n
		}
	}
	return &engine.Result{Scores: scores, Rank: engine.RankScores(scores)}
}
func (s *claimState) Check() error {
	for n, o := range s.Owner {
		if o >= len(s.H.Seats) || (n == 0 && o != -1) {
			return fmt.Errorf("bad owner %d of %d", o, n)
		}
	}
	return nil
}
