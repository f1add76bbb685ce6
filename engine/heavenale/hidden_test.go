package heavenale

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
	"github.com/pbem-referee/referee/templates"
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

// TestPileContentsOption (HA-6.3, spec 10.4 item 4): with
// show_pile_contents the summary lists the tiles left in resource piles I
// and II, sorted (the piles' order stays hidden), the same for every seat;
// without it, only the counts.
func TestPileContentsOption(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{false, true} {
		st, _, err := Game{}.NewState(engine.Config{Seats: seatNames[:3], Seed: "piles",
			Options: map[string]string{"show_pile_contents": fmt.Sprint(on)}})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		for seat := -1; seat < 3; seat++ {
			v := s.View(seat).(View)
			for k, pile := range [][]string{s.PileI, s.PileII} {
				left := [][]string{v.Left1, v.Left2}[k]
				if !on {
					if left != nil {
						t.Errorf("pile contents shown without the option: %v", left)
					}
					continue
				}
				n := 0
				for _, e := range left {
					tile, cnt, ok := strings.Cut(e, "x")
					c := 1
					if ok {
						c, _ = strconv.Atoi(cnt)
					}
					for _, p := range pile {
						if p == tile {
							c--
						}
					}
					if c != 0 {
						t.Errorf("pile %d: %s does not match the pile %v", k+1, e, pile)
					}
					n++
				}
				if len(pile) > 0 && n == 0 {
					t.Errorf("pile %d of %d tiles listed empty", k+1, len(pile))
				}
			}
			// The order stays hidden: a reordered pile gives the same view.
			c := s.Clone().(*State)
			c.PileI[0], c.PileI[len(c.PileI)-1] = c.PileI[len(c.PileI)-1], c.PileI[0]
			c.PileII[0], c.PileII[5] = c.PileII[5], c.PileII[0]
			a, _ := json.Marshal(v)
			b, _ := json.Marshal(c.View(seat))
			if string(a) != string(b) {
				t.Errorf("seat %d: the view shows the piles' order", seat)
			}
			for _, lang := range templates.Languages {
				c := templates.Ctx{Lang: lang, Game: catalog.GameName, Seat: seat, Seats: s.H.Seats}
				out := render(t, set, lang, "summary", c.With(v))
				if has := strings.Contains(out, " (xN"); has != on {
					t.Errorf("%s summary, option %v: pile contents shown %v", lang, on, has)
				}
				checkWidth(t, lang, "summary", out)
			}
		}
	}
}
