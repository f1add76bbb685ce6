package dicebrewing

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/notation"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
	"github.com/pbem-referee/referee/engine/dicebrewing/view"
)

// missingOf is how many required dice of each recipe on display the seat
// lacks, as its View says (CardView.Missing, dice only).
func missingOf(s *state, seat int) map[string]int {
	out := map[string]int{}
	for _, c := range s.View(seat).(view.View).Display {
		if c.ID == "" {
			continue
		}
		n := 0
		for _, m := range c.Missing {
			if catalog.LooksLikeDie(m) {
				n++
			}
		}
		out[c.ID] = n
	}
	return out
}

// Issue 22 (decide from the mail alone): what each option gives toward
// the reader's goal is true. In positions of random games (every player
// count, both variants; explorers), for every STORE option and every
// option that pays a stored die (DS1-DS3, MH2 with @S), the option is
// applied to a copy and the recipes whose missing dice change are
// compared with the View: STORE lists under Toward exactly the recipes
// it brings closer (DB-5.9.3 b), a paying option lists under Costs
// exactly those a stored die it pays leaves further (DB-5.4). The words
// of both are in the templates (option lines, TestTemplatesCoverTheEngine).
func TestTowardIsWhatTheMoveDoes_DB5_9_3(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 5))
	checked := map[string]int{}
	exploreGames(t, rng, 24, "6", 3000, func(cfg engine.Config, moves int, s *state, d engine.Decision, opts []engine.Option) {
		if d.Kind == position.KindPlace || d.Kind == position.KindSecond || d.Kind == position.KindBuy {
			v := s.View(d.Seat).(view.View)
			before := missingOf(s, d.Seat)
			for _, o := range opts {
				m, err := s.Parse(d.Seat, o.Cmd)
				if err != nil {
					t.Fatal(err)
				}
				mv := m.(*notation.Move)
				stores := mv.Verb == "STORE"
				pays := mv.Verb == "PLACE" && len(mv.Items) == 1 && !mv.Items[0].Seed && !mv.Items[0].Up &&
					mv.Items[0].Die.Loc == notation.RefST && slices.Contains([]int{catalog.SpDS1, catalog.SpDS2, catalog.SpDS3, catalog.SpMH2}, mv.Items[0].Space)
				if !stores && !pays {
					continue
				}
				c := s.clone()
				if _, err := c.Apply(d.Seat, m); err != nil {
					continue // a free STORE refused here is no matter for its words
				}
				after := missingOf(c, d.Seat)
				var closer, further []string
				for _, id := range s.Display {
					if id == "" || after[id] == before[id] {
						continue
					}
					if after[id] < before[id] {
						closer = append(closer, id)
					} else if s.InDisplay(id) >= 0 {
						further = append(further, id)
					}
				}
				if stores {
					checked["store"]++
					if !slices.Equal(v.Toward[o.Cmd], closer) {
						t.Fatalf("%s move %d: %s: the mail says it helps %v, the move brings %v closer", cfg.Seed, moves, o.Cmd, v.Toward[o.Cmd], closer)
					}
					if len(closer) > 0 {
						checked["store helps"]++
					}
				} else {
					checked["pay"]++
					if !slices.Equal(v.Costs[o.Cmd], further) {
						t.Fatalf("%s move %d: %s: the mail says it costs %v, the move leaves %v further", cfg.Seed, moves, o.Cmd, v.Costs[o.Cmd], further)
					}
					if len(further) > 0 {
						checked["pay costs"]++
					}
				}
			}
		}
	}, nil)
	t.Logf("options checked: %v", checked)
	for _, k := range []string{"store", "store helps", "pay", "pay costs"} {
		if checked[k] == 0 {
			t.Errorf("no %q option met: the test checks nothing there", k)
		}
	}
}
