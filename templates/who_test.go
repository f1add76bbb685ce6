package templates

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWhoNamesTheSeatsHolderNow_Issue24: a seat an engine's view carries
// (a token's owner, who faces a quadrant, a region's leaders) is named by
// whoever holds it now, whatever names the seats had before: equal names,
// a name that is a prefix of another; what is no seat (-1, a number past
// the seats) is the view's own word. Generated: seats, names, lists.
func TestWhoNamesTheSeatsHolderNow_Issue24(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 25))
	pool := []string{"ann", "ann b", "Ann", "ann", "Bob", "Carla Rossi", "dé"}
	for draw := 0; draw < 300; draw++ {
		n := 1 + rng.IntN(4)
		now := make([]string, n)
		for i := range now {
			now[i] = pool[rng.IntN(len(pool))]
		}
		c := Ctx{Seats: now}
		seats := make([]int, rng.IntN(6))
		want := make([]string, len(seats))
		for i := range seats {
			seats[i] = rng.IntN(n+2) - 1 // -1 and n are no seat
			want[i] = "Corp"
			if seats[i] >= 0 && seats[i] < n {
				want[i] = now[seats[i]]
			}
			if got := c.Who(seats[i], "Corp"); got != want[i] {
				t.Fatalf("Who(%d) with seats %q = %q, want %q", seats[i], now, got, want[i])
			}
		}
		in := slices.Clone(seats)
		if got := c.WhoAll(seats, "Corp"); fmt.Sprint(got) != fmt.Sprint(want) || !slices.Equal(in, seats) {
			t.Fatalf("WhoAll(%v) with seats %q = %q, want %q", seats, now, got, want)
		}
	}
}
