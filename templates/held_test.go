package templates

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestHeldNamesWhoHoldsTheSeatNow_Issue24: a name an engine's view wrote
// (the seat's first holder) comes out as the name of whoever holds the
// seat now, alone, as "<id> <name>" or in a list joined by ","; what names
// no seat (the Corporation, "") is kept; with no seat handed on, every form
// comes back as it is. Generated: seats, which seats changed hands, names
// with spaces.
func TestHeldNamesWhoHoldsTheSeatNow_Issue24(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 24))
	pool := []string{"ann", "Bob", "Carla Rossi", "dé", "Eve", "Frank"}
	for draw := 0; draw < 200; draw++ {
		n := 2 + rng.IntN(3)
		perm := rng.Perm(len(pool))
		first := make([]string, n)
		for i := range first {
			first[i] = pool[perm[i]]
		}
		now := append([]string(nil), first...)
		handed := draw%4 != 0
		if handed {
			for i := range now {
				if rng.IntN(2) == 0 {
					now[i] = fmt.Sprintf("New%d", i)
				}
			}
		}
		c := Ctx{Seats: now}
		a, b := rng.IntN(n), rng.IntN(n)
		cases := map[string]string{
			first[a]:                              now[a],
			"C0" + fmt.Sprint(a) + " " + first[a]: "C0" + fmt.Sprint(a) + " " + now[a],
			first[a] + "," + first[b]:             now[a] + "," + now[b],
			first[a] + ",Corp":                    now[a] + ",Corp",
			"Corp":                                "Corp",
			"":                                    "",
		}
		for in, want := range cases {
			if got := c.Held(first, in); got != want {
				t.Fatalf("Held(%q, %q) with seats now %q = %q, want %q", first, in, now, got, want)
			}
			if !handed && c.Held(first, in) != in {
				t.Fatalf("with no seat handed on, Held(%q) changed it", in)
			}
		}
		list := []string{first[a], "X1 " + first[b]}
		got := c.HeldAll(first, list)
		if got[0] != now[a] || got[1] != "X1 "+now[b] || list[0] != first[a] {
			t.Fatalf("HeldAll(%q) = %q (the list must stay as it was: %q)", list, got, list)
		}
	}
}
