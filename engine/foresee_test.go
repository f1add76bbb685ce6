package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// seer is the claim game with a Foreseer: a line equal to *bad is known
// to fail (rule T-1).
type seer struct {
	engine.State
	bad *string
}

func (s seer) Foresee(seat int, slot, line string) *engine.RuleError {
	if strings.EqualFold(line, *s.bad) {
		return engine.Reject("T-1", "never", "line", line)
	}
	return nil
}

func (s seer) Clone() engine.State { return seer{s.State.Clone(), s.bad} }

func seerTable(t *testing.T, bad *string) *engine.Table {
	t.Helper()
	st, _, err := enginetest.Claim.NewState(engine.Config{Seats: []string{"ann", "bob"}, Seed: "s"})
	if err != nil {
		t.Fatal(err)
	}
	return engine.WrapTable(enginetest.Claim, seer{st, bad})
}

func submitTo(t *testing.T, tb *engine.Table, seat int, text string, token int) *engine.Report {
	t.Helper()
	rep, err := tb.Submit(seat, engine.ParseScript(text), token)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// Issue 12.6: a line the game knows will fail is refused when a fresh
// message arrives, even queued for later and even with ELSE PASS; the
// table is unchanged.
func TestForeseenLineRefusedAtArrival(t *testing.T) {
	bad := "CLAIM 3"
	tb := seerTable(t, &bad)
	seat := tb.Waiting()[0].Seat
	other := 1 - seat
	rep := submitTo(t, tb, other, "CLAIM 2\nCLAIM 3 ELSE PASS", tb.Token())
	if !rep.Rejected || rep.Results[1].Status != "rejected" || rep.Results[1].Errors[0].Code != "never" || rep.Results[0].Status != "skipped" {
		t.Fatalf("not refused at arrival: %+v", rep.Results)
	}
	if len(tb.Queued(other)) != 0 {
		t.Fatalf("a refused message was queued: %+v", tb.Queued(other))
	}
	// An alternative known to fail refuses the message too: the player
	// learns the rule now.
	if rep := submitTo(t, tb, other, "CLAIM 3 | CLAIM 4", tb.Token()); !rep.Rejected {
		t.Fatalf("an alternative known to fail was accepted: %+v", rep.Results)
	}
}

// A stale message drops the lines known to fail and keeps the others.
func TestForeseenLineDroppedFromStaleMessage(t *testing.T) {
	bad := "CLAIM 3"
	tb := seerTable(t, &bad)
	seat := tb.Waiting()[0].Seat
	old := tb.Token()
	submitTo(t, tb, seat, "CLAIM 1", old)
	rep := submitTo(t, tb, seat, "CLAIM 3\nCLAIM 4", old)
	if rep.Rejected || !rep.Stale || rep.Results[0].Status != "failed" || rep.Results[0].Errors[0].Code != "never" || rep.Results[1].Status != "queued" {
		t.Fatalf("stale message: %+v", rep.Results)
	}
	if q := tb.Queued(seat); len(q) != 1 || q[0].Text != "CLAIM 4" {
		t.Fatalf("queue %+v", q)
	}
}

// A queued line that becomes known to fail before its turn is not tried:
// its ELSE PASS passes and the pass step and the result keep the reason.
func TestForeseenQueuedLinePassesWithReason(t *testing.T) {
	bad := ""
	tb := seerTable(t, &bad)
	seat := tb.Waiting()[0].Seat
	other := 1 - seat
	if rep := submitTo(t, tb, other, "CLAIM 5 ELSE PASS", tb.Token()); rep.Rejected || rep.Results[0].Status != "queued" {
		t.Fatalf("queued: %+v", rep.Results)
	}
	bad = "CLAIM 5"
	rep := submitTo(t, tb, seat, "CLAIM 1", tb.Token())
	for _, s := range rep.Steps {
		if s.Seat == other {
			if s.How != "else_pass" || s.Cmd != "PASS" || len(s.Errors) != 1 || s.Errors[0].Code != "never" || s.Errors[0].Rule != "T-1" {
				t.Fatalf("the queued line: %+v", s)
			}
			return
		}
	}
	t.Fatalf("the queued line was not played: %+v", rep.Steps)
}

// An ELSE PASS used at once reports the reason on the result.
func TestElsePassResultKeepsTheReason(t *testing.T) {
	bad := ""
	tb := seerTable(t, &bad)
	seat := tb.Waiting()[0].Seat
	other := 1 - seat
	submitTo(t, tb, seat, "CLAIM 2", tb.Token())
	rep := submitTo(t, tb, other, "CLAIM 2 ELSE PASS", tb.Token())
	if r := rep.Results[0]; r.Status != "else_pass" || len(r.Errors) != 1 || r.Errors[0].Code != "space_taken" {
		t.Fatalf("result %+v", r)
	}
}

// parser gives, for each line, the move (or the error) of its map.
type parser map[string]engine.Move

type parsedMove struct{ verb string }

func (m parsedMove) String() string { return m.verb }

func (p parser) Parse(_ int, line string) (engine.Move, error) {
	if mv, ok := p[line]; ok {
		return mv, nil
	}
	return nil, errors.New("no such line")
}

// TestParsedMove: the move comes by value or by pointer; a line that does
// not parse, another move type or a nil pointer is not ok.
func TestParsedMove(t *testing.T) {
	p := parser{"val": parsedMove{"VAL"}, "ptr": &parsedMove{"PTR"}, "nil": (*parsedMove)(nil), "other": engine.Move(otherMove{})}
	for line, want := range map[string]string{"val": "VAL", "ptr": "PTR", "nil": "", "other": "", "bad": ""} {
		m, ok := engine.ParsedMove[parsedMove](p, 0, line)
		if ok != (want != "") || m.verb != want {
			t.Errorf("%s: %+v %v, want %q", line, m, ok, want)
		}
	}
	if m, ok := engine.ParsedMove[*parsedMove](p, 0, "ptr"); !ok || m.verb != "PTR" {
		t.Errorf("a pointer move as a pointer: %v %v", m, ok)
	}
}

type otherMove struct{}

func (otherMove) String() string { return "OTHER" }
