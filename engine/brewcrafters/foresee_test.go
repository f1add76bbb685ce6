package brewcrafters

import (
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
)

// Issue 12.6: what Brew Crafters knows will fail whenever the line's turn
// comes, with its rule; and what it leaves to the turn.
func TestForeseeBrewCrafters(t *testing.T) {
	s := newGame(t, 2, "foresee")
	s.P[0].Built = append(s.P[0].Built, "STOREHOUSE")
	s.P[0].Research[catalog.TrBasic] = stGameEnd
	// A keyword on no space in play (BC-3.2), if the 2-player layout
	// leaves one out.
	out := ""
	for _, sp := range s.r.Space {
		inPlay := false
		for _, x := range s.Spaces {
			inPlay = inPlay || x.ID == sp.ID
		}
		for _, h := range sp.Half {
			used := false
			for _, x := range s.Spaces {
				for _, hh := range s.r.Spaces[x.ID].Half {
					used = used || hh.Kw == h.Kw
				}
			}
			if !inPlay && !used && out == "" {
				out = h.Kw
			}
		}
	}
	cases := []struct {
		seat       int
		line, rule string
	}{
		{0, "B COLLAB H", "BC-3.4"},
		{0, "B PROCESS THEN COLLAB M", "BC-3.4"},
		{0, "B INSTALL STOREHOUSE", "BC-5.8.2"},
		{0, "B INSTALL STORE", "BC-5.8.2"},
		{1, "B INSTALL STOREHOUSE", ""},
		{0, "B INSTALL MASH_TUN", ""},
		{0, "B RESEARCH BASIC M", "BC-5.7.1"},
		{1, "B RESEARCH BASIC M", ""},
		{0, "B RESEARCH OPS", ""},
		{0, "M MALT", ""},
		{0, "M MALT > HOPS", ""}, // not a line of its own: no parse
		{0, "B PASS", ""},
		{0, "NONSENSE", ""},
		{-1, "B COLLAB H", ""},
	}
	if out != "" {
		cases = append(cases, struct {
			seat       int
			line, rule string
		}{0, "M " + out, "BC-3.2"})
	} else {
		t.Log("every keyword is in play with 2 players")
	}
	for _, c := range cases {
		re := s.Foresee(c.seat, slotName(s.Season, phBrewery), c.line)
		got := ""
		if re != nil {
			got = re.Rule
		}
		if got != c.rule {
			t.Errorf("seat %d %q: foreseen %q, want %q (%v)", c.seat, c.line, got, c.rule, re)
		}
	}
}

// Through the Table: a Brewery action queued while another seat moves,
// known to fail (Collaboration with 2 players, BC-3.4), is refused when
// the message arrives and nothing is queued; a ranked Market list whose
// later choice is taken is still accepted (BC-10.2).
func TestTableRefusesForeseenLineAtArrival(t *testing.T) {
	tb := newTable(t, 2, nil)
	first := tb.Waiting()[0].Seat
	other := 1 - first
	submit(t, tb, first, "M MALT")
	submit(t, tb, other, "M HOPS")
	if w := tb.Waiting(); len(w) == 0 || w[0].Seat != first {
		t.Fatalf("not the first seat's turn: %+v", w)
	}
	rep, err := tb.Submit(other, engine.ParseScript("B COLLAB H"), tb.Token())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Rejected || len(rep.Results) == 0 || len(rep.Results[0].Errors) == 0 || rep.Results[0].Errors[0].Rule != "BC-3.4" {
		t.Fatalf("not refused at arrival with BC-3.4: %+v", rep.Results)
	}
	if q := tb.Queued(other); len(q) != 0 {
		t.Fatalf("queued: %+v", q)
	}
	rep, err = tb.Submit(other, engine.ParseScript("M YEAST > MALT"), tb.Token())
	if err != nil || rep.Rejected {
		t.Fatalf("a ranked list with a taken later choice was refused: %v %+v", err, rep)
	}
}
