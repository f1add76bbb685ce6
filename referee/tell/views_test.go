package tell

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// TestViewsAdjudicateOnce_Issue25: the mails of one state view every seat
// through engine.Views, which adjudicates once for all of them; each view
// is the seat's View. Fromage and Dice Brewing are AdjudicatedViewers
// (their views hold the public standing), and their views read the
// adjudication they are given, not one of their own (a view given none
// has no standing while the game has one). Random games of the four
// games, 2 and 3 seats, every seat and an observer after every move.
func TestViewsAdjudicateOnce_Issue25(t *testing.T) {
	standing := map[string]int{}
	for _, name := range []string{"dicebrewing", "fromage", "heavenale", "brewcrafters"} {
		eg, err := engine.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, seats := range []int{2, 3} {
			n := eg.Info().NearestPlayers(seats)
			names := []string{"Ann", "Bob", "Cat", "Dan", "Eve"}[:n]
			tb, _, _, err := engine.NewTable(eg, engine.Config{Seats: names, Seed: fmt.Sprintf("views/%d", seats)})
			if err != nil {
				t.Fatal(err)
			}
			_, isAV := tb.State.(engine.AdjudicatedViewer)
			if want := name == "fromage" || name == "dicebrewing"; isAV != want {
				t.Fatalf("%s: an AdjudicatedViewer: %v, want %v", name, isAV, want)
			}
			rng := rand.New(rand.NewPCG(25, uint64(seats)))
			for step := 0; step < 80 && tb.State.Result() == nil; step++ {
				views := engine.Views(tb.State)
				av, _ := tb.State.(engine.AdjudicatedViewer) // the table's state of this step
				var counted *countingViewer
				if isAV {
					counted = &countingViewer{State: tb.State, av: av}
					views = engine.Views(counted)
				}
				for seat := -1; seat < n; seat++ {
					got, want := views(seat), tb.State.View(seat)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s step %d seat %d: Views gives\n%+v\nView gives\n%+v", name, step, seat, got, want)
					}
					if isAV && av.Adjudicate() != nil {
						standing[name]++
						if reflect.DeepEqual(av.ViewAdjudicated(seat, nil), want) {
							t.Fatalf("%s step %d seat %d: the view given no adjudication is the view: it adjudicates again", name, step, seat)
						}
					}
				}
				if counted != nil && counted.n != 1 {
					t.Fatalf("%s step %d: %d seats viewed, %d adjudications", name, step, n+1, counted.n)
				}
				if !playRandom(t, name, tb, rng) {
					break
				}
			}
		}
	}
	if standing["fromage"] < 50 || standing["dicebrewing"] < 50 {
		t.Fatalf("views with a standing compared: %v", standing)
	}
	t.Logf("views with a standing compared: %v", standing)
}

// countingViewer counts the calls of Adjudicate through it.
type countingViewer struct {
	engine.State
	av engine.AdjudicatedViewer
	n  int
}

func (c *countingViewer) Adjudicate() *engine.Result { c.n++; return c.av.Adjudicate() }

func (c *countingViewer) ViewAdjudicated(seat int, adj *engine.Result) any {
	return c.av.ViewAdjudicated(seat, adj)
}
