package heavenale

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// newGame sets up an n-player game with seat 0 as start player and plays
// the setup picks with the default choice; round 1 starts with seat 0.
func newGame(t *testing.T, n int) *State {
	t.Helper()
	st, _, err := Game{}.NewState(engine.Config{Seats: seatNames[:n], Seed: "helper", Options: map[string]string{"start_player": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	for s.Phase == phaseSetup {
		must(t, s, s.Cur, s.decision().Default)
	}
	return s
}

// bare empties the track (tiles and discs) for a hand-made situation.
func bare(s *State) {
	for i := range s.Spaces {
		s.Spaces[i] = []string{}
		s.Discs[i] = 0
	}
}

// put places tiles in a seat's garden: put(s, 0, "S4", "HO3", "D2", "WA3").
func put(s *State, seat int, kv ...string) {
	for i := 0; i+1 < len(kv); i += 2 {
		s.Players[seat].Garden[s.r.CellIdx[kv[i]]] = kv[i+1]
	}
}

// try parses and applies one line for a seat.
func try(s *State, seat int, line string) error {
	m, err := s.Parse(seat, line)
	if err != nil {
		return err
	}
	_, err = s.Apply(seat, m)
	return err
}

func must(t *testing.T, s *State, seat int, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if err := try(s, seat, l); err != nil {
			t.Fatalf("seat %d %q: %v", seat, l, err)
		}
	}
}

// code returns the RuleError code of err ("" for nil).
func code(err error) string {
	if err == nil {
		return ""
	}
	if re, ok := engine.AsRuleError(err); ok {
		return re.Code
	}
	return err.Error()
}

// email applies the lines of one message atomically (§10.1): on an error
// the state is restored and the error returned.
func email(s *State, seat int, lines ...string) error {
	saved := s.Clone().(*State)
	for _, l := range lines {
		if err := try(s, seat, l); err != nil {
			*s = *saved
			return err
		}
	}
	return nil
}

func legalCmds(s *State) []string {
	var out []string
	for _, o := range s.Legal(s.Pending()[0]) {
		out = append(out, o.Cmd)
	}
	return out
}

func jsonOf(v any) ([]byte, error) { return json.Marshal(v) }

func newRand(k uint64) *rand.Rand { return rand.New(rand.NewPCG(k, 3)) }
