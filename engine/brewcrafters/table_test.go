package brewcrafters

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
)

func newTable(t *testing.T, n int, opts map[string]string) *engine.Table {
	t.Helper()
	if opts == nil {
		opts = map[string]string{}
	}
	opts["start_player"] = "1"
	tb, _, _, err := engine.NewTable(Game{}, engine.Config{Seats: []string{"ann", "bob", "cat", "dan", "eve"}[:n], Seed: "table", Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func submit(t *testing.T, tb *engine.Table, seat int, text string) *engine.Report {
	t.Helper()
	rep, err := tb.Submit(seat, engine.ParseScript(text), -1)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rejected {
		var why []string
		for _, r := range rep.Results {
			for _, e := range r.Errors {
				why = append(why, r.Order.Text+": "+e.Error())
			}
		}
		t.Fatalf("rejected: %s", strings.Join(why, "; "))
	}
	if err := tb.State.Check(); err != nil {
		t.Fatal(err)
	}
	return rep
}

// A whole season in one mail each (BC-10.2, BC-10.7): ranked Market lists
// with " > " and "|", and a pre-submitted Brewery plan with a fallback.
func TestTableSeasonInOneMail(t *testing.T) {
	tb := newTable(t, 2, nil)
	// Bob queues first (he is second): his lists wait for his turns.
	submit(t, tb, 1, "M MALT > HOPS > FUND\nM OPEN M Y\nB PROCESS BREW EA | B PASS")
	if len(tb.Queued(1)) != 3 {
		t.Fatalf("bob queued %d", len(tb.Queued(1)))
	}
	// Ann takes MALT, so Bob's first choice falls to HOPS.
	submit(t, tb, 0, "M MALT\nM FUND\nB PROCESS BREW EA | B PASS")
	s := tb.State.(*State)
	if s.Season != 1 {
		t.Fatalf("the season did not end: season %d phase %s", s.Season, s.Phase)
	}
	// Ann: 2M 1H + MALT 3M + FUND $2; no Hops for EA, so her plan passed.
	if s.P[0].Tanks[0] != "" || s.P[0].Money != 8 || s.P[0].Ing.String() != "5M 1H" {
		t.Fatalf("ann: %+v", s.P[0])
	}
	// Bob: 2M 1H + HOPS 2H (MALT was taken) + OPEN M Y, then EA brewed.
	if s.P[1].Tanks[0] != "EA" || s.P[1].Ing.String() != "1H" {
		t.Fatalf("bob's plan: %+v %s", s.P[1].Tanks, s.P[1].Ing)
	}
}

// Free actions in a mail go with the order after them, and a
// standing discard order answers an overflow caused at once (BC-5.1.2).
func TestTableStandingDiscard(t *testing.T) {
	tb := newTable(t, 2, nil)
	s := tb.State.(*State)
	s.P[0].Ing = catalog.Bag{5, 3, 3}
	submit(t, tb, 0, "SET DISCARD H M\nM MALT")
	s = tb.State.(*State)
	if s.P[0].Ing.Total() != 12 || s.P[0].Ing[catalog.IH] != 1 {
		t.Fatalf("storage %s", s.P[0].Ing)
	}
}

// Numbered options: a bare number answers the last prompt (engine
// contract); the Market prompt of the first turn is numbered when short.
func TestTableNumbered(t *testing.T) {
	tb := newTable(t, 2, nil)
	p := tb.Prompts[0]
	if p == nil || p.Decision.Kind != kindMarket {
		t.Fatalf("prompt %+v", p)
	}
	if p.Numbered {
		submit(t, tb, 0, "1")
	} else {
		submit(t, tb, 0, tb.State.Legal(p.Decision)[0].Cmd)
	}
	if tb.Token() != 1 {
		t.Fatal("not applied")
	}
}
