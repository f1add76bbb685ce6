package fromage

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// TestTurnLinesSayWhatTheViewSays_Issue25: the View's TurnLines has a
// line for every option of the seat's turn decision (Legal), and each
// says what the seat's view says of the option (templates/fromage/*/
// menu.tmpl reads nothing else): GATHER the resource faced (Now), BUILD
// <column> that column's ability (You.Abilities), MAKE and MILK the open
// space the command names (Now.Open) and whether it completes a pending
// Order (Now.Matches), BARN the built column-I ability; no line for a
// seat without a turn to answer. Generated variation: random games of 1
// to 4 seats, standard and advanced, every seat's view at every move.
func TestTurnLinesSayWhatTheViewSays_Issue25(t *testing.T) {
	lines, verbs := 0, map[string]int{}
	for k := range 16 {
		tb, _, _, err := engine.NewTable(Game{}, randomConfig(k))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(k), 25))
		for step := 0; step < 400 && tb.State.Result() == nil; step++ {
			s := tb.State.(*State)
			turn := map[int]engine.Decision{}
			for _, d := range s.Pending() {
				if d.Kind == kindTurn {
					turn[d.Seat] = d
				}
			}
			for seat := -1; seat < len(s.Players); seat++ {
				v := s.View(seat).(View)
				d, ok := turn[seat]
				if !ok {
					if v.TurnLines != nil && (seat < 0 || s.kindOf(seat) != kindTurn) {
						t.Fatalf("game %d step %d seat %d: turn lines without a turn: %v", k, step, seat, v.TurnLines)
					}
					continue
				}
				opts := s.Legal(d)
				if len(v.TurnLines) != len(opts) {
					t.Fatalf("game %d step %d seat %d: %d turn lines for %d options", k, step, seat, len(v.TurnLines), len(opts))
				}
				for _, o := range opts {
					got, ok := v.TurnLines[o.Cmd]
					if want := wantTurnLine(t, o.Cmd, &v); !ok || !reflect.DeepEqual(got, want) {
						t.Fatalf("game %d step %d seat %d: %q says %+v (found %v), the view %+v", k, step, seat, o.Cmd, got, ok, want)
					}
					verbs[strings.Fields(o.Cmd)[0]]++
					lines++
				}
			}
			if !randomMove(t, tb, rng) {
				break
			}
		}
	}
	for _, verb := range []string{"GATHER", "MAKE", "MILK", "BUILD", "BARN", "DONE"} {
		if verbs[verb] == 0 {
			t.Errorf("no %s line checked (%v)", verb, verbs)
		}
	}
	t.Logf("%d turn lines checked: %v", lines, verbs)
}

// wantTurnLine is the line of cmd read from the view by the command's
// grammar (FR-5.2 to FR-5.9): GATHER n worker, MAKE space [KEEP], MILK
// zone space [KEEP], BUILD column, BARN worker [space], DONE.
func wantTurnLine(t *testing.T, cmd string, v *View) TurnLine {
	t.Helper()
	f := strings.Fields(cmd)
	var l TurnLine
	space := ""
	switch f[0] {
	case "GATHER":
		l.Resource = v.Now.Resource
	case "BUILD":
		c, err := strconv.Atoi(f[1])
		if err != nil {
			t.Fatal(err)
		}
		l.Build = []AbilityView{v.You.Abilities[c-1]}
	case "MAKE":
		space = f[1]
	case "MILK":
		space = f[2]
	case "BARN":
		for _, a := range v.You.Abilities {
			if a.Column == "I" && a.Built {
				l.Barn = append(l.Barn, a.Name)
			}
		}
		if len(f) > 2 {
			space = f[2]
		}
	}
	if space != "" {
		i := slices.IndexFunc(v.Now.Open, func(sp SpaceView) bool { return sp.ID == space })
		if i < 0 {
			t.Fatalf("%q: no open space %s", cmd, space)
		}
		sp := v.Now.Open[i]
		l.Spaces = []TurnSpace{{Type: sp.Type, Aging: sp.Aging, Icon: sp.Icon}}
		l.Order = slices.Contains(v.Now.Matches, space)
	}
	return l
}

// randomMove plays one random option of a random waiting seat; false when
// no seat waits or the chosen decision has no option (the walk is over).
func randomMove(t *testing.T, tb *engine.Table, rng *rand.Rand) bool {
	t.Helper()
	waiting := tb.Waiting()
	if len(waiting) == 0 {
		return false
	}
	d := waiting[rng.IntN(len(waiting))]
	opts := tb.State.Legal(d)
	if len(opts) == 0 {
		return false
	}
	if _, err := tb.Submit(d.Seat, engine.ParseScript(opts[rng.IntN(len(opts))].Cmd), tb.Token()); err != nil {
		t.Fatal(err)
	}
	return true
}
