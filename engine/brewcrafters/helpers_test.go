package brewcrafters

import (
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// newGame starts a first-game setup with n players, seat 0 starting.
func newGame(t *testing.T, n int, seed string, kv ...string) *State {
	t.Helper()
	opts := map[string]string{"start_player": "1"}
	variant := "first"
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i] == "variant" {
			variant = kv[i+1]
			continue
		}
		opts[kv[i]] = kv[i+1]
	}
	seats := []string{"ann", "bob", "cat", "dan", "eve"}[:n]
	st, _, err := Game{}.NewState(engine.Config{Seats: seats, Seed: seed, Variant: variant, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// do applies one command for seat, failing the test on error.
func do(t *testing.T, s *State, seat int, cmd string) []engine.Event {
	t.Helper()
	m, err := s.Parse(seat, cmd)
	if err != nil {
		t.Fatalf("parse %q: %v", cmd, err)
	}
	evs, err := s.Apply(seat, m)
	if err != nil {
		t.Fatalf("seat %d %q: %v", seat, cmd, err)
	}
	if err := s.Check(); err != nil {
		t.Fatalf("after %q: %v", cmd, err)
	}
	return evs
}

// try applies one command and returns the rule error (nil if applied).
func try(s *State, seat int, cmd string) *engine.RuleError {
	m, err := s.Parse(seat, cmd)
	if err == nil {
		_, err = s.Apply(seat, m)
	}
	if err == nil {
		return nil
	}
	re, _ := engine.AsRuleError(err)
	return re
}

// play answers the pending decisions in order with the given commands.
func play(t *testing.T, s *State, cmds ...string) {
	t.Helper()
	for _, c := range cmds {
		d := s.Pending()[0]
		do(t, s, d.Seat, c)
	}
}
