package brewcrafters

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// alwaysGame plays a 2-player first game through a Table: Ann sends mail
// once, then only answers what the Table asks her (bot choices); Bob is a
// bot. It returns how many of Ann's Market placements and Brewery tokens
// her queue answered (How "queued"/"agreed") and how many she was asked.
func alwaysGame(t *testing.T, mail string, clearAt int, seasons int) (answered, asked int, tb *engine.Table) {
	t.Helper()
	tb, _, _, err := engine.NewTable(Game{}, engine.Config{Variant: "first", Seats: []string{"ann", "bob"}, Seed: "always21"})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := tb.Submit(0, engine.ParseScript(mail), tb.Token())
	if err != nil || rep.Rejected {
		t.Fatalf("%q: %v %+v", mail, err, rep)
	}
	// count counts Ann's placements and tokens that her queue played
	// while another seat's mail moved the game (not her own answers).
	count := func(rep *engine.Report) {
		for _, st := range rep.Steps {
			if st.Seat == 0 && (st.How == engine.HowQueued || st.How == engine.HowAgreed) &&
				(strings.HasPrefix(st.Cmd, "M ") || strings.HasPrefix(st.Cmd, "B ")) {
				answered++
			}
		}
	}
	count(rep)
	rng := rand.New(rand.NewPCG(21, 10))
	for k := 0; k < 2000 && tb.State.Result() == nil && tb.State.(*State).Season < seasons; k++ {
		if clearAt >= 0 && tb.State.(*State).Season == clearAt {
			tb.Clear(0)
			clearAt = -1
		}
		w := tb.Waiting()
		if len(w) == 0 {
			t.Fatal("nobody asked")
		}
		d := w[0]
		if d.Seat == 0 && (d.Kind == kindMarket || d.Kind == kindBrewery) {
			asked++
		}
		opts := tb.State.Legal(d)
		rep, err := tb.Submit(d.Seat, engine.ParseScript(opts[rng.IntN(len(opts))].Cmd), tb.Token())
		if err != nil || rep.Rejected {
			t.Fatalf("%v %+v", err, rep)
		}
		if d.Seat != 0 {
			count(rep)
		}
	}
	return answered, asked, tb
}

// BC-10.2 point 4: "Queues are used up when run and cleared at the end of
// the season. ALWAYS entries (standing orders) stay until QUEUE CLEAR."
// An ALWAYS Market list and an ALWAYS Brewery line answer every placement
// and token of the seat, season after season, without asking; the same
// lines as QUEUE answer once; CLEAR ends the standing orders.
func TestAlwaysIsAStandingOrder(t *testing.T) {
	const lists = "ALWAYS M FUND | M MALT | M HOPS | M YEAST | M INVESTOR | M ADV C | M OPEN M M\nALWAYS B PASS"
	answered, asked, tb := alwaysGame(t, lists, -1, 3)
	if asked != 0 || answered < 9 {
		t.Fatalf("ALWAYS: %d placements and tokens answered by the standing orders, %d asked", answered, asked)
	}
	if q := tb.Queued(0); len(q) != 2 || !q[0].Always || !q[1].Always {
		t.Fatalf("the standing orders did not stay: %+v", q)
	}
	once, askedOnce, _ := alwaysGame(t, strings.ReplaceAll(lists, "ALWAYS", "QUEUE"), -1, 3)
	if once > 2 || askedOnce == 0 {
		t.Fatalf("QUEUE: %d answered, %d asked; want the two used once at most", once, askedOnce)
	}
	cleared, askedAfter, tb := alwaysGame(t, lists, 1, 3)
	if cleared >= answered || askedAfter == 0 || len(tb.Queued(0)) != 0 {
		t.Fatalf("CLEAR in season 1: %d answered, %d asked, queue %+v", cleared, askedAfter, tb.Queued(0))
	}
	t.Logf("ALWAYS answered %d (asked 0); QUEUE answered %d (asked %d); cleared at season 1: %d (asked %d)",
		answered, once, askedOnce, cleared, askedAfter)
}
