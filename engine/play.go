package engine

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/BurntSushi/toml"
)

// Log is the complete record of a game: its setup and every move, enough to
// re-run it from its seed and confirm every state (see Replay). The referee
// publishes it, unredacted, when a game ends.
type Log struct {
	Game   string `json:"game"`
	Config Config `json:"config"`
	// Ruleset is the data-file override the game was started with (nil:
	// the game's default), and RulesetSHA its SHA-256.
	Ruleset    []byte  `json:"ruleset,omitempty"`
	RulesetSHA string  `json:"ruleset_sha256"`
	Setup      []Event `json:"setup,omitempty"`
	Steps      []Step  `json:"steps"`
	// Errata are data-file corrections applied during the game.
	Errata []Erratum `json:"errata,omitempty"`
	// Final is the hash of the last state.
	Final string `json:"final,omitempty"`
}

// Erratum is a data-file correction an organiser applied mid-game: from the
// step with index Before (in Log.Steps) on, the game runs on Ruleset.
type Erratum struct {
	Before  int    `json:"before"`
	Ruleset []byte `json:"ruleset"`
}

// ApplyErratum re-decodes a state with a corrected data file: the state keeps
// every piece of play, and runs on the new data from now on. It fails if the
// new data does not fit the position (for example a card in play was
// removed), checked by decoding and by State.Check.
func ApplyErratum(g Game, st State, ruleset []byte) (State, error) {
	var meta RulesetMeta
	if _, err := toml.Decode(string(ruleset), &meta); err != nil {
		return nil, badSyntax(err)
	}
	raw, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	h := st.Head().Clone()
	h.RulesetSHA, h.RulesetVersion = RulesetSHA(ruleset), meta.Version
	if m["head"], err = json.Marshal(h); err != nil {
		return nil, err
	}
	if raw, err = json.Marshal(m); err != nil {
		return nil, err
	}
	ns, err := g.DecodeState(raw, ruleset)
	if err != nil {
		return nil, err
	}
	if err := ns.Check(); err != nil {
		return nil, Reject("", "bad_ruleset", "error", "the position does not fit the new data: "+err.Error(),
			"why", "position")
	}
	return ns, nil
}

// legacyForm reports whether cmd is the move's canonical text as an
// earlier version of its game wrote it (a game whose canonical form
// changed gives its moves a Legacy method: Brew Crafters wrote data-file
// ids before issue 21), so that logs of games begun before still replay.
func legacyForm(m Move, cmd string) bool {
	l, ok := m.(interface{ Legacy() string })
	return ok && l.Legacy() == cmd
}

// ReplayError says where a replay diverged.
type ReplayError struct {
	Step   int    // index in Log.Steps, -1 for the setup
	Reason string // what differed
}

func (e *ReplayError) Error() string {
	if e.Step < 0 {
		return "replay: setup: " + e.Reason
	}
	return fmt.Sprintf("replay: step %d: %s", e.Step+1, e.Reason)
}

// Replay re-runs a log from its seed: it sets the game up again, applies
// every step (with the outcomes it scripted), and checks that each step's
// canonical command, state token, state hash and events match the log. It
// returns the final state.
func Replay(g Game, log Log) (State, error) {
	cfg := log.Config
	cfg.Ruleset = log.Ruleset
	st, setup, err := g.NewState(cfg)
	if err != nil {
		return nil, &ReplayError{Step: -1, Reason: err.Error()}
	}
	if log.RulesetSHA != "" && st.Head().RulesetSHA != log.RulesetSHA {
		return nil, &ReplayError{Step: -1, Reason: "ruleset sha256 differs"}
	}
	if log.Setup != nil && !sameJSON(setup, log.Setup) {
		return nil, &ReplayError{Step: -1, Reason: "setup events differ"}
	}
	for i, s := range log.Steps {
		for _, e := range log.Errata {
			if e.Before == i {
				if st, err = ApplyErratum(g, st, e.Ruleset); err != nil {
					return st, &ReplayError{Step: i, Reason: "erratum: " + err.Error()}
				}
			}
		}
		for _, f := range s.Script {
			st.Head().Rand.Push(f.Kind, f.Value)
		}
		m, err := st.Parse(s.Seat, s.Cmd)
		if err != nil {
			return st, &ReplayError{Step: i, Reason: fmt.Sprintf("%q does not parse: %v", s.Cmd, err)}
		}
		if m.String() != s.Cmd && !legacyForm(m, s.Cmd) {
			return st, &ReplayError{Step: i, Reason: fmt.Sprintf("%q is not canonical (%q)", s.Cmd, m.String())}
		}
		evs, err := st.Apply(s.Seat, m)
		if err != nil {
			return st, &ReplayError{Step: i, Reason: fmt.Sprintf("%q is illegal: %v", s.Cmd, err)}
		}
		if st.Head().Moves != s.Token {
			return st, &ReplayError{Step: i, Reason: fmt.Sprintf("token %d, log says %d", st.Head().Moves, s.Token)}
		}
		if s.Events != nil && !sameJSON(evs, s.Events) {
			return st, &ReplayError{Step: i, Reason: "events differ"}
		}
		if s.Hash != "" {
			h, err := StateHash(st)
			if err != nil {
				return st, err
			}
			if h != s.Hash {
				return st, &ReplayError{Step: i, Reason: "state hash differs"}
			}
		}
	}
	if log.Final != "" {
		h, err := StateHash(st)
		if err != nil {
			return st, err
		}
		if h != log.Final {
			return st, &ReplayError{Step: len(log.Steps) - 1, Reason: "final state hash differs"}
		}
	}
	return st, nil
}

func sameJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		return false
	}
	// Re-decode both so that number formats and key order compare equal.
	var va, vb any
	if json.Unmarshal(ja, &va) != nil || json.Unmarshal(jb, &vb) != nil {
		return false
	}
	ca, _ := json.Marshal(va)
	cb, _ := json.Marshal(vb)
	return string(ca) == string(cb)
}

// PlayOut plays one game to the end with one bot per seat, choosing among
// the legal options of the lowest-ranked pending decision each time (forced
// decisions are applied directly). With check set it calls State.Check after
// every move. It returns the final state and the number of moves applied.
// maxMoves bounds the game (0: one million).
func PlayOut(g Game, cfg Config, bots []Bot, rng *rand.Rand, check bool, maxMoves int) (State, int, error) {
	st, _, err := g.NewState(cfg)
	if err != nil {
		return nil, 0, err
	}
	if maxMoves <= 0 {
		maxMoves = 1_000_000
	}
	moves := 0
	for st.Result() == nil {
		if moves >= maxMoves {
			return st, moves, fmt.Errorf("playout: no end after %d moves", moves)
		}
		pend := st.Pending()
		if len(pend) == 0 {
			return st, moves, fmt.Errorf("playout: no pending decision and no result")
		}
		d := pend[0]
		for _, p := range pend[1:] {
			if p.Rank < d.Rank {
				d = p
			}
		}
		opts := st.Legal(d)
		if len(opts) == 0 {
			return st, moves, fmt.Errorf("playout: no legal option for %s of seat %d", d.Kind, d.Seat)
		}
		i := 0
		if len(opts) > 1 {
			i = bots[d.Seat].Choose(st, d, opts, rng)
			if i < 0 || i >= len(opts) {
				return st, moves, fmt.Errorf("playout: bot of seat %d chose option %d of %d", d.Seat, i, len(opts))
			}
		}
		m, err := st.Parse(d.Seat, opts[i].Cmd)
		if err != nil {
			return st, moves, fmt.Errorf("playout: legal option %q does not parse: %w", opts[i].Cmd, err)
		}
		if _, err := st.Apply(d.Seat, m); err != nil {
			return st, moves, fmt.Errorf("playout: legal option %q of %s rejected: %w", opts[i].Cmd, d.Kind, err)
		}
		moves++
		if check {
			if err := st.Check(); err != nil {
				return st, moves, fmt.Errorf("playout: invariant broken after %q (move %d): %w", opts[i].Cmd, moves, err)
			}
		}
	}
	return st, moves, nil
}
