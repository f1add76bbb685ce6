package enginetest

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// pick is a bot that always chooses option i.
type pick int

func (p pick) Choose(engine.State, engine.Decision, []engine.Option, *rand.Rand) int { return int(p) }

func TestBotAnswer(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))

	// A sealed bid (TOY-1): the seat's answer for its group, on a copy.
	tb := newToy(t, "ann", "bob")
	before, _ := json.Marshal(tb.State)
	group := tb.State.Pending()[0].Group
	lines, err := engine.BotAnswer(tb.State, 0, group, pick(2), rng)
	if err != nil || strings.Join(lines, "|") != "BID 2" {
		t.Errorf("sealed bid: %q, %v; want BID 2", lines, err)
	}
	if after, _ := json.Marshal(tb.State); string(after) != string(before) {
		t.Error("BotAnswer changed the state it was given")
	}
	if lines, err := engine.BotAnswer(tb.State, 0, "another-group", pick(2), rng); err != nil || len(lines) != 0 {
		t.Errorf("a decision of another group was answered: %q, %v", lines, err)
	}

	// A sequential turn: one move, and nothing for a seat whose turn it is not.
	cl := newClaim(t, "ann", "bob", "cat")
	d := cl.State.Pending()[0]
	opts := cl.State.Legal(d)
	lines, err = engine.BotAnswer(cl.State, d.Seat, "", pick(1), rng)
	if err != nil || len(lines) != 1 || lines[0] != opts[1].Cmd {
		t.Errorf("sequential: %q, %v; want [%s]", lines, err, opts[1].Cmd)
	}
	other := (d.Seat + 1) % 3
	if lines, err := engine.BotAnswer(cl.State, other, "", pick(1), rng); err != nil || len(lines) != 0 {
		t.Errorf("seat %d answered out of turn: %q, %v", other, lines, err)
	}

	// A bot that returns an index outside the options is an error, not a panic.
	if _, err := engine.BotAnswer(tb.State, 1, group, pick(99), rng); err == nil || !strings.Contains(err.Error(), "chose option 99") {
		t.Errorf("bad index: %v", err)
	}
}
