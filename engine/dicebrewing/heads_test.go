package dicebrewing

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/view"
)

// TestHeadsSayWhatEachHeadingReads_Issue25: the View's Heads, by a menu
// group, hold what the group's heading says of the position, as the
// templates read it from the rest of the view before (issue 25: the
// headings read Heads only, by the option's group, so a heading is kept
// from one mail to the next): Listed when a key of Toward or Costs
// starts with the group and a space, a speed-up slot's threshold from
// the reader's board, a BREW group's card from the display; every other
// group the zero HeadView. Random games of every player count and both
// variants, every group of every seat's legal options, each decision as
// it comes; an observer's view has no Heads.
func TestHeadsSayWhatEachHeadingReads_Issue25(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 8))
	checked := map[string]int{}
	exploreGames(t, rng, 12, "5", 2000, func(cfg engine.Config, moves int, s *state, d engine.Decision, opts []engine.Option) {
		v := s.View(d.Seat).(view.View)
		for _, o := range opts {
			g := o.Group
			var want view.HeadView
			for _, m := range []map[string][]string{v.Toward, v.Costs} {
				for k := range m {
					if strings.HasPrefix(k, g+" ") {
						want.Listed = true
					}
				}
			}
			verb, rest, _ := strings.Cut(g, " ")
			if verb == "PLACE" && strings.HasSuffix(rest, "+") {
				for _, b := range v.Me.Board {
					if b.Space == strings.TrimSuffix(rest, "+") {
						want.Speedup = b.Speedup
					}
				}
			}
			if verb == "BREW" {
				for _, c := range v.Display {
					if c.ID == rest {
						want.Card = c
					}
				}
			}
			if got := v.Heads[g]; !reflect.DeepEqual(got, want) {
				t.Fatalf("%s move %d seat %d group %q: Heads %+v, the view says %+v", cfg.Seed, moves, d.Seat, g, got, want)
			}
			switch {
			case want.Listed:
				checked["listed"]++
			case want.Speedup > 0:
				checked["speed-up"]++
			case want.Card.ID != "":
				checked["card"]++
			default:
				checked["zero"]++
			}
		}
	}, func(cfg engine.Config, s *state) {
		if h := s.View(-1).(view.View).Heads; h != nil {
			t.Fatalf("%s: an observer's view has Heads %v", cfg.Seed, h)
		}
	})
	for _, k := range []string{"listed", "speed-up", "card", "zero"} {
		if checked[k] < 20 {
			t.Fatalf("checked %v: too few %s groups", checked, k)
		}
	}
	t.Logf("groups checked: %v", checked)
}
