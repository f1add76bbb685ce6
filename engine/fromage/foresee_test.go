package fromage

import (
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// Issue 12.6: what Fromage knows will fail whenever the line's turn comes
// (FR-2.6, FR-5.3.1, FR-5.6.1, FR-5.6.4, FR-5.9.1), and what it leaves to
// the turn.
func TestForeseeFromage(t *testing.T) {
	s := newA(t, 2)
	crossed, taken, free := "", "", ""
	for v := range s.Board {
		for i := range s.Board[v] {
			id := s.space(v, i).ID
			switch {
			case !s.lay.open[v][i] && crossed == "":
				crossed = id
			case s.lay.open[v][i] && taken == "":
				taken = id
				s.Board[v][i] = 1
				if s.Snap != nil {
					s.Snap.Board[v][i] = 1 // revealed
				}
			case s.lay.open[v][i] && free == "" && s.Board[v][i] == empty:
				free = id
			}
		}
	}
	if taken == "" || free == "" {
		t.Fatal("no open space")
	}
	s.Players[0].Built[1] = true
	s.Players[0].Zones[0] = 2
	cases := []struct {
		seat       int
		line, rule string
		code       string
	}{
		{0, "MAKE " + taken, "FR-5.3.1", "space_taken"},
		{0, "MAKE " + taken + " KEEP", "FR-5.3.1", "space_taken"},
		{1, "MAKE " + taken, "FR-5.3.1", "space_taken"},
		{0, "MILK 2 " + taken, "FR-5.6.1", "space_taken"},
		{0, "MILK 1 " + free, "FR-5.6.4", "zone_used"},
		{1, "MILK 1 " + free, "", ""},
		{0, "MAKE " + free, "", ""},
		{0, "BUILD I", "FR-5.9.1", "already_built"},
		{1, "BUILD I", "", ""},
		{0, "BUILD II", "", ""},
		{0, "GATHER 1 hard", "", ""},
		{0, "DONE", "", ""},
		{0, "NONSENSE", "", ""},
		{-1, "MAKE " + taken, "", ""},
	}
	if crossed != "" {
		cases = append(cases, struct {
			seat       int
			line, rule string
			code       string
		}{0, "MAKE " + crossed, "FR-2.6", "space_crossed"})
	} else {
		t.Log("no crossed space with 2 players")
	}
	for _, c := range cases {
		re := s.Foresee(c.seat, s.turnSlot(s.Turn), c.line)
		rule, code := "", ""
		if re != nil {
			rule, code = re.Rule, re.Code
		}
		if rule != c.rule || code != c.code {
			t.Errorf("seat %d %q: foreseen %s %s, want %s %s", c.seat, c.line, rule, code, c.rule, c.code)
		}
	}
}

// In a sealed turn another seat's cheese of this turn is not revealed by a
// refusal: only the public board (and the seat's own cheeses) count.
func TestForeseeFromageSealedHidesTheOthers(t *testing.T) {
	s := newA(t, 2)
	v, i := -1, -1
	for vv := range s.Board {
		for ii := range s.Board[vv] {
			if s.lay.open[vv][ii] && v < 0 {
				v, i = vv, ii
			}
		}
	}
	id := s.space(v, i).ID
	snap := &Snapshot{}
	for vv := range s.Board {
		snap.Board[vv] = append([]int(nil), s.Board[vv]...)
	}
	s.Snap = snap
	s.Board[v][i] = 1 // sealed, not revealed
	if re := s.Foresee(0, s.turnSlot(s.Turn), "MAKE "+id); re != nil {
		t.Errorf("a sealed cheese was told: %v", re)
	}
	if re := s.Foresee(1, s.turnSlot(s.Turn), "MAKE "+id); re == nil || re.Code != "space_taken" {
		t.Errorf("the seat's own sealed cheese: %v", re)
	}
	snap.Board[v][i] = 1 // revealed
	if re := s.Foresee(0, s.turnSlot(s.Turn), "MAKE "+id); re == nil || re.Code != "space_taken" {
		t.Errorf("a revealed cheese: %v", re)
	}
}

// Through the Table: a line planned for the next turn (NEXT MAKE ...) on a
// space that holds a cheese is refused when the message arrives, with
// FR-5.3.1, and nothing is queued; a free space is planned as before.
func TestTableRefusesForeseenPlanAtArrival(t *testing.T) {
	tb, _, _, err := engine.NewTable(Game{}, arrangeA(2))
	if err != nil {
		t.Fatal(err)
	}
	s := tb.State.(*State)
	taken, free := "", ""
	for v := range s.Board {
		for i := range s.Board[v] {
			if !s.lay.open[v][i] || s.Board[v][i] != empty {
				continue
			}
			if taken == "" {
				taken = s.space(v, i).ID
				s.Board[v][i] = 1
				if s.Snap != nil {
					s.Snap.Board[v][i] = 1
				}
			} else if free == "" {
				free = s.space(v, i).ID
			}
		}
	}
	rep, err := tb.Submit(0, engine.ParseScript("NEXT MAKE "+taken), tb.Token())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Rejected || len(rep.Results) == 0 || len(rep.Results[0].Errors) == 0 || rep.Results[0].Errors[0].Rule != "FR-5.3.1" {
		t.Fatalf("not refused at arrival with FR-5.3.1: %+v", rep.Results)
	}
	if q := tb.Queued(0); len(q) != 0 {
		t.Fatalf("queued: %+v", q)
	}
	rep, err = tb.Submit(0, engine.ParseScript("NEXT MAKE "+free), tb.Token())
	if err != nil || rep.Rejected {
		t.Fatalf("a free space was refused: %v %+v", err, rep)
	}
}
