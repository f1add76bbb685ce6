package heavenale

import (
	"encoding/json"
	"testing"
)

// HA-6.3: the order of the piles and monk stacks (and the monks set aside)
// never shows: two positions that differ only there give the same views.
func TestHA63HiddenOrder(t *testing.T) {
	s := newGame(t, 3)
	c := s.Clone().(*State)
	c.PileI[0], c.PileI[len(c.PileI)-1] = c.PileI[len(c.PileI)-1], c.PileI[0]
	c.PileII[0], c.PileII[5] = c.PileII[5], c.PileII[0]
	st := c.Stacks[len(c.Stacks)-1]
	st[0], st[3] = st[3], st[0]
	st[1] = "M1"
	for seat := -1; seat < 3; seat++ {
		a, _ := json.Marshal(s.View(seat))
		b, _ := json.Marshal(c.View(seat))
		if string(a) != string(b) {
			t.Fatalf("seat %d sees the pile order", seat)
		}
	}
	// Standing orders are private.
	must(t, s, 1, "PREF PRIV PASS")
	v := s.View(0).(View)
	if v.Players[1].PrefPriv != nil {
		t.Fatalf("seat 0 sees seat 1's standing order")
	}
	if v := s.View(1).(View); len(v.Players[1].PrefPriv) != 1 {
		t.Fatalf("seat 1 does not see its own standing order")
	}
}
