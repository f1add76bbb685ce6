package engine_test

import (
	"fmt"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// A Table drives a game: it asks who must decide what (Waiting), takes a
// seat's orders (Submit: ParseScript reads a player's lines), keeps sealed
// answers sealed until the whole group has answered, and reports every
// line's outcome and every step applied. The toy game's round opens with
// a sealed bid of every seat (TOY-1).
func ExampleTable() {
	enginetest.RegisterToy()
	tb, _, _, err := engine.NewTable(enginetest.Toy, engine.Config{Seats: []string{"Ann", "Bob"}, Seed: "example"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range tb.Waiting() {
		fmt.Printf("waiting: seat %d, %s (%s)\n", d.Seat, d.Kind, d.Mode)
	}
	for seat, text := range []string{"BID 3", "BID 5"} {
		rep, err := tb.Submit(seat, engine.ParseScript(text), tb.Token())
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, r := range rep.Results {
			fmt.Printf("seat %d %q: %s\n", seat, r.Order.Text, r.Status)
		}
		for _, st := range rep.Steps {
			fmt.Printf("  step: seat %d %s (%s)\n", st.Seat, st.Cmd, st.How)
		}
	}
	for _, d := range tb.Waiting() {
		fmt.Printf("waiting: seat %d, %s\n", d.Seat, d.Kind)
	}
	fmt.Println("state token:", tb.Token())
	// Output:
	// waiting: seat 0, bid (simultaneous)
	// waiting: seat 1, bid (simultaneous)
	// seat 0 "BID 3": sealed
	// seat 1 "BID 5": applied
	//   step: seat 0 BID 3 (sealed)
	//   step: seat 1 BID 5 (sealed)
	// waiting: seat 1, roll
	// state token: 2
}
