package dicebrewing

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// tableJSON is the table as stored and its prompts (which the stored form
// leaves out: engine.LoadTable asks again).
func tableJSON(t *testing.T, tb *engine.Table) string {
	t.Helper()
	b, err := json.Marshal([]any{tb, tb.Prompts})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// firstError returns the code and rule of the first error of result i.
func firstError(rep *engine.Report, i int) string {
	if i >= len(rep.Results) || len(rep.Results[i].Errors) == 0 {
		return ""
	}
	e := rep.Results[i].Errors[0]
	return e.Code + " " + e.Rule
}

// DB-5.3.4, issue 12.6: a second item that the first, resolving without a
// roll, leaves illegal is known when the message arrives: the turn is
// refused with the second item's rule, never shown "ok" and dropped.
func TestDB5_3_4SecondItemKnownAtArrival(t *testing.T) {
	tb := tableAt(t, "SETUP ann bob first=1", "HOLD ann AR=B2,Y3 ST= seeds=1")
	before := tableJSON(t, tb)
	rep := submit(t, tb, 0, "PLACE MH1 SEED, MH1+ B2")
	if !rep.Rejected || firstError(rep, 0) != "second_item DB-5.3.4" || rep.Results[0].Errors[0].Params["code"] != "blue_too_low" {
		t.Fatalf("not refused at arrival: %s %+v (%s)", statuses(rep), rep.Results, steps(rep))
	}
	if tableJSON(t, tb) != before {
		t.Fatal("a refused turn changed the table")
	}
	// The same die twice: the first item takes it (DB-5.4.2 is not the
	// point: the die is gone).
	tb = tableAt(t, "SETUP ann bob first=1", "HOLD ann AR=Y3,K2 ST= seeds=1")
	rep = submit(t, tb, 0, "PLACE MH2 Y3, MH3 Y3")
	if !rep.Rejected || firstError(rep, 0) != "second_item DB-5.3.4" || rep.Results[0].Errors[0].Params["code"] != "no_such_die" {
		t.Fatalf("same die twice: %s %+v", statuses(rep), rep.Results)
	}
	// Two main items on one space never work, even queued.
	tb = tableAt(t, "SETUP ann bob first=1", "HOLD ann AR=Y3,K2 ST= seeds=1")
	rep = submit(t, tb, 1, "PLACE MH3 Y3, MH3 K2")
	if !rep.Rejected || firstError(rep, 0) != "space_used DB-5.4.2" {
		t.Fatalf("one space twice: %s %+v", statuses(rep), rep.Results)
	}
	// A legal pair is applied whole.
	tb = tableAt(t, "SETUP ann bob first=1", "HOLD ann AR=B3,Y3 ST= seeds=1")
	rep = submit(t, tb, 0, "PLACE MH1 SEED, MH3 Y3")
	if rep.Rejected || statuses(rep) != "applied" || len(rep.Steps) != 1 {
		t.Fatalf("legal pair: %s %+v", statuses(rep), rep.Results)
	}
}

// DB-5.3.4: when the first item rolls (an SS1 reroll here), the second is
// still checked after it and dropped with its reason if the roll made it
// illegal: that could not be known when the message arrived. The line's
// status says it was played in part.
func TestDB5_3_4SecondItemDroppedAfterARoll(t *testing.T) {
	tb := tableAt(t, "SETUP ann bob first=1", "ROUND 2", "HOLD ann AR=B4,Y3 ST= seeds=1", "PHASE place ann")
	tb.Script("dice", "6")
	rep := submit(t, tb, 0, "PLACE SS1 B4 REROLL Y3, MH3 Y3")
	// The line is reported "partial", with the reason: never a plain "ok".
	if rep.Rejected || statuses(rep) != "partial" || firstError(rep, 0) != "no_such_die " {
		t.Fatalf("not partial with its reason: %s %+v", statuses(rep), rep.Results)
	}
	found := false
	for _, s := range rep.Steps {
		for _, e := range s.Events {
			if e.Type == "db.item_dropped" && e.Params["code"] == "no_such_die" {
				found = true
			}
		}
	}
	if !found {
		t.Fatalf("the second item was not dropped with its reason: %s", steps(rep))
	}
}

// Issue 12.6: a queued line that can never be legal is reported when it
// arrives, with its rule; ELSE PASS does not turn it into a silent pass.
func TestQueuedLineKnownToFailIsRefusedAtArrival(t *testing.T) {
	cases := []struct{ text, want string }{
		{"PLACE HP1 G6 ELSE PASS", "wrong_item DB-5.5.4"},
		{"PLACE HP2 G6", "die_at_max DB-5.5.5"},
		{"PLACE MH2 K3", "wrong_item DB-5.5.2"},
		{"PLACE MH3+ K3", "wrong_item DB-5.6.1"},
		{"PLACE SS3 B3", "blue_too_low DB-5.5.8"},
		{"PLACE SS3+ B5", "no_speedup DB-5.6.1"},
		{"PLACE MH3 Y3 | PLACE DS1 SEED", "wrong_item DB-5.5.9"},
	}
	for _, c := range cases {
		tb := tableAt(t, "SETUP ann bob first=1", "ROUND 2", "HOLD bob AR=G6,K3,B1,B5,Y3 ST= seeds=1", "PHASE place ann")
		before := tableJSON(t, tb)
		rep := submit(t, tb, 1, c.text)
		if !rep.Rejected || !strings.HasPrefix(firstError(rep, 0), c.want) {
			t.Errorf("%s: %s %+v", c.text, statuses(rep), rep.Results)
			continue
		}
		if tableJSON(t, tb) != before {
			t.Errorf("%s: the refused message changed the table", c.text)
		}
	}
	// What may still become legal is queued: bob has no Y5 yet.
	tb := tableAt(t, "SETUP ann bob first=1", "HOLD bob AR=G6 ST= seeds=1")
	if rep := submit(t, tb, 1, "PLACE MH3 Y5 ELSE PASS"); rep.Rejected || statuses(rep) != "queued" {
		t.Fatalf("a line that may become legal: %s %+v", statuses(rep), rep.Results)
	}
}

// Issue 12.6: a space the seat already used this round stays used: a line
// queued for it is refused at once (DB-5.4.2); next round's lines are not.
func TestQueuedLineOnAUsedSpace(t *testing.T) {
	tb := tableAt(t, "SETUP ann bob first=1", "HOLD ann AR=Y3,Y2,K2 ST= seeds=1")
	submit(t, tb, 0, "PLACE MH2 Y3")
	rep := submit(t, tb, 0, "PLACE MH2 Y2")
	if !rep.Rejected || firstError(rep, 0) != "space_used DB-5.4.2" {
		t.Fatalf("used space: %s %+v", statuses(rep), rep.Results)
	}
	if rep := submit(t, tb, 0, "PLACE MH3 K2"); rep.Rejected || statuses(rep) != "queued" {
		t.Fatalf("free space: %s %+v", statuses(rep), rep.Results)
	}
}

// DB-5.4.3, DB-10.3: a space that other players filled to its capacity
// (N - 1: one in a two-player game) stays full for the round, so a line
// queued for it is refused when it arrives, with the capacity rule; the
// same line for a space nobody used is queued.
func TestDB5_4_3QueuedLineOnAFullSpace(t *testing.T) {
	tb := tableAt(t, "SETUP ann bob first=1", "HOLD ann AR=Y3,K2 ST= seeds=1", "HOLD bob AR=Y3,K2 ST= seeds=1")
	if rep := submit(t, tb, 0, "PLACE MH3 Y3"); rep.Rejected || statuses(rep) != "applied" {
		t.Fatalf("ann's placement: %s %+v", statuses(rep), rep.Results)
	}
	if rep := submit(t, tb, 1, "PLACE MH2 Y3"); rep.Rejected || statuses(rep) != "applied" {
		t.Fatalf("bob's placement: %s %+v", statuses(rep), rep.Results)
	}
	before := tableJSON(t, tb)
	rep := submit(t, tb, 1, "PLACE MH3 K2")
	if !rep.Rejected || firstError(rep, 0) != "space_full DB-5.4.3" {
		t.Fatalf("full space: %s %+v", statuses(rep), rep.Results)
	}
	if tableJSON(t, tb) != before {
		t.Fatal("the refused line changed the table")
	}
	if rep := submit(t, tb, 1, "PLACE MH1 SEED"); rep.Rejected || statuses(rep) != "queued" {
		t.Fatalf("a space nobody used: %s %+v", statuses(rep), rep.Results)
	}
}

// Issue 12.6: a queued line that ELSE PASS turned into a pass keeps its
// reason on the step (the player is told the rule).
func TestElsePassKeepsTheReason(t *testing.T) {
	tb := tableAt(t, "SETUP ann bob first=1", "ROUND 2",
		"HOLD ann AR=Y3 ST= seeds=2",
		"HOLD bob AR=G2 ST= seeds=1",
		"PHASE place ann")
	submit(t, tb, 0, "PLACE MH3 Y3\nPLACE HP1 SEED ELSE PASS")
	rep := submit(t, tb, 1, "PLACE HP1 SEED")
	for _, s := range rep.Steps {
		if s.How == "else_pass" {
			if len(s.Errors) == 0 || s.Errors[0].Code != "space_full" || s.Errors[0].Rule != "DB-5.4.3" {
				t.Fatalf("else_pass step without its reason: %+v", s)
			}
			return
		}
	}
	t.Fatalf("no else_pass step: %s", steps(rep))
}
