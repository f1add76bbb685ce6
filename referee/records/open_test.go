package records

import (
	"fmt"
	"slices"
	"testing"

	"github.com/pbem-referee/referee/store"
)

// TestOpenGamesPaged: OpenGames lists, in id order, exactly the games a
// player may join (forming, open, a seat free: not a running, a closed or
// a full one), at most a page of them, and counts the rest. Varied over
// the mix of games and the page size.
func TestOpenGamesPaged(t *testing.T) {
	kinds := []func(g *Game){
		func(g *Game) {}, // open with a free seat
		func(g *Game) { g.Open = false },
		func(g *Game) { g.Status = StatusRunning },
		func(g *Game) {
			g.Seats = append(g.Seats, Seat{Name: "Cid", Address: "cid@example.test", State: SeatJoined})
		},
	}
	for _, n := range []int{0, 1, 5, 13} {
		for _, page := range []int{1, 2, 4, 20} {
			db := openStore(t)
			var want []string
			err := db.Update(func(tx *store.Tx) error {
				for i := range n {
					g := game(fmt.Sprintf("g%02d", i), "")
					g.Status, g.Open, g.Players = StatusForming, true, 3
					g.Seats = g.Seats[:2]
					kinds[(i*7)%len(kinds)](g)
					if (i*7)%len(kinds) == 0 {
						want = append(want, g.ID)
					}
					if err := SaveGame(tx, g); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			err = db.View(func(tx *store.Tx) error {
				games, more, err := OpenGames(tx, page)
				var got []string
				for _, g := range games {
					got = append(got, g.ID)
				}
				wantPage, wantMore := want, 0
				if len(want) > page {
					wantPage, wantMore = want[:page], len(want)-page
				}
				if !slices.Equal(got, wantPage) || more != wantMore {
					t.Errorf("%d games, page %d: %v and %d more, want %v and %d", n, page, got, more, wantPage, wantMore)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
}
