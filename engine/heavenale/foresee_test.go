package heavenale

import (
	"slices"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
)

// Issue 12.6: what Heaven & Ale knows will fail when the line's turn comes
// (HA-5.4.1, HA-5.6.4, HA-5.1.2), and what it leaves to the turn.
func TestForeseeHeavenAle(t *testing.T) {
	s := newGame(t, 2)
	other := 1 - s.Cur
	p := &s.Players[other]
	put(s, other, "S4", "HO3")
	p.Spots[slices.Index(catalog.SpotNames, "WO")] = true
	p.Pos = 10
	next, later := slotOf(p.Turns+1), slotOf(p.Turns+2)
	for _, c := range []struct {
		slot, line, rule, code string
	}{
		{next, "BUY HO2 S4", "HA-5.4.1", "spot_taken"},
		{later, "BUY HO2 S1 HO2 S4", "HA-5.4.1", "spot_taken"},
		{next, "BUY HO2 S1", "", ""},
		{next, "SCORE WO", "HA-5.6.4", "spot_used"},
		{next, "SCORE YE", "", ""},
		{next, "GO 8", "HA-5.1.2", "backwards"},
		{next, "GO 10", "HA-5.1.2", "must_move"},
		{next, "GO 12", "", ""},
		{next, "GO HOME", "", ""},
		{later, "GO 8", "", ""}, // perhaps the next round
		{next, "NONSENSE", "", ""},
	} {
		re := s.Foresee(other, c.slot, c.line)
		rule, code := "", ""
		if re != nil {
			rule, code = re.Rule, re.Code
		}
		if rule != c.rule || code != c.code {
			t.Errorf("%s %q: foreseen %s %s, want %s %s", c.slot, c.line, rule, code, c.rule, c.code)
		}
	}
	// Home already: the next turn is in the next round, from a start space.
	p.Back = true
	if re := s.Foresee(other, next, "GO 8"); re != nil {
		t.Errorf("a figure at home: %v", re)
	}
	p.Back, p.Pos = false, 0
	if re := s.Foresee(other, next, "GO 1"); re != nil {
		t.Errorf("a figure on a start space: %v", re)
	}
	if re := s.Foresee(-1, next, "SCORE WO"); re != nil {
		t.Errorf("seat -1: %v", re)
	}
}

// Through the Table: a seat whose figure is on space 10 sends, while the
// other seat moves, its next move to space 8: refused at arrival with
// HA-5.1.2, nothing queued; a move forward is queued as before.
func TestTableRefusesForeseenMoveAtArrival(t *testing.T) {
	tb, s := newTable(t) // Ann (0) to move, Ben picked CASH
	if s.Cur != 0 {
		t.Fatalf("seat %d to move", s.Cur)
	}
	s.Players[1].Pos = 10
	rep, err := tb.Submit(1, engine.ParseScript("GO 8"), tb.Token())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Rejected || len(rep.Results) == 0 || len(rep.Results[0].Errors) == 0 || rep.Results[0].Errors[0].Rule != "HA-5.1.2" {
		t.Fatalf("not refused at arrival with HA-5.1.2: %+v", rep.Results)
	}
	if q := tb.Queued(1); len(q) != 0 {
		t.Fatalf("queued: %+v", q)
	}
	if rep, err := tb.Submit(1, engine.ParseScript("GO 12"), tb.Token()); err != nil || rep.Rejected {
		t.Fatalf("a move forward was refused: %v %+v", err, rep)
	}
}
