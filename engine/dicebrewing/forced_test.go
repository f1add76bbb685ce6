package dicebrewing

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// The agreement rule (engine/doc.go, issue 21) on Dice Brewing's forced
// choice: a School reroll (SS1) whose dice are all picked leaves REROLL as
// the only answer. Found in one-mail self-play, the mail is sent again with
// the REROLL line agreeing (agreed), absent (the game rerolls itself) and
// differing (REROLL naming a die already picked: refused with its reason).
func TestForcedRerollAgreeDifferAbsent(t *testing.T) {
	var snap []byte
	var lines []string
	var seat int
	rng := rand.New(rand.NewPCG(7, 21))
search:
	for n := 0; n < 40; n++ {
		tb, _, _, err := engine.NewTable(Game, engine.Config{Seats: []string{"ann", "bob", "cat"}, Seed: fmt.Sprint("reroll", n),
			Options: map[string]string{position.OptLimit: "10"}})
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; tb.State.Result() == nil && k < 5000; k++ {
			d := tb.Waiting()[0]
			ls, err := enginetest.TurnLines(tb.State, d, engine.RandomBot{}, rng)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := json.Marshal(tb)
			if err != nil {
				t.Fatal(err)
			}
			rep := enginetest.Submit(t, tb, d.Seat, strings.Join(ls, "\n"))
			last := rep.Results[len(rep.Results)-1]
			if last.Status == engine.OutcomeAgreed && ls[len(ls)-1] == "REROLL" && strings.HasPrefix(ls[0], "PICK ") && d.Kind == position.KindReroll {
				snap, lines, seat = raw, ls, d.Seat
				break search
			}
		}
	}
	if snap == nil {
		t.Fatal("no forced REROLL in 40 games")
	}
	load := func() *engine.Table {
		tb, err := engine.LoadTable(snap, nil)
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	n := len(lines)
	ok := strings.TrimSuffix(strings.Repeat("applied,", n-1), ",")
	// Agreeing.
	if rep := enginetest.Submit(t, load(), seat, strings.Join(lines, "\n")); enginetest.Statuses(rep) != ok+",agreed" {
		t.Fatalf("agreeing: %s", enginetest.Statuses(rep))
	}
	// Absent: the game rerolls itself.
	rep := enginetest.Submit(t, load(), seat, strings.Join(lines[:n-1], "\n"))
	auto := false
	for _, st := range rep.Steps {
		auto = auto || st.How == engine.HowAuto && st.Cmd == "REROLL"
	}
	if enginetest.Statuses(rep) != ok || !auto {
		t.Fatalf("absent: %s, auto REROLL %v", enginetest.Statuses(rep), auto)
	}
	// Differing: REROLL naming a die already picked.
	die := strings.TrimPrefix(lines[0], "PICK ")
	rep = enginetest.Submit(t, load(), seat, strings.Join(append(lines[:n-1:n-1], "REROLL "+die), "\n"))
	if !rep.Rejected {
		t.Fatalf("differing REROLL %s: %s", die, enginetest.Statuses(rep))
	}
	r := rep.Results[n-1]
	if r.Status != engine.OutcomeRejected || len(r.Errors) == 0 || !strings.HasPrefix(r.Errors[0].Rule, "DB-") {
		t.Fatalf("differing REROLL %s: %+v", die, r)
	}
	t.Logf("mail %q; differing REROLL %s refused: %v", lines, die, r.Errors)
	// Differing: REROLL naming no die at all (DB-5.8.10: a REROLL names
	// dice of the roll) is refused at once, never queued.
	for _, bad := range []string{"ZZ9", "Q", "R99"} {
		rep = enginetest.Submit(t, load(), seat, strings.Join(append(lines[:n-1:n-1], "REROLL "+bad), "\n"))
		if r := rep.Results[n-1]; r.Status != engine.OutcomeRejected || len(r.Errors) == 0 {
			t.Errorf("REROLL %s after %q: %s %+v", bad, lines[:n-1], enginetest.Statuses(rep), r)
		}
	}
}
